// Tool input and output schemas: their TypeScript types (so a handler's
// arguments are typed from the schema it declares) and their validation with
// ajv. JSON Schema 2020-12 is the default dialect and draft-07 is supported
// when `$schema` names it (basic#json-schema-usage); other dialects are refused
// at registration. ajv is loaded on first use: it costs ~50 ms to load, which
// a server should not pay before answering initialize, and a schema that
// simple-schema.ts can judge needs it only for the report of an invalid value.
import { builtinModule } from "../builtin.js";
import { simpleSchemaVerdict } from "./simple-schema.js";

/** A JSON Schema, as far as the types below read it. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/** The schema of a tool's arguments or structured output: an object schema (Tool.inputSchema). */
export interface ObjectSchema {
  readonly $schema?: string;
  readonly type: "object";
  readonly properties?: { readonly [name: string]: JsonSchema };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The TypeScript type of the values a schema accepts, for the common keywords
 * (type, properties, required, items, enum, const, anyOf, oneOf). What it does
 * not model becomes `unknown`, never a wrong type.
 */
export type FromSchema<S> = S extends true
  ? unknown
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly anyOf: readonly (infer A)[] }
        ? FromSchemaEach<A>
        : S extends { readonly oneOf: readonly (infer A)[] }
          ? FromSchemaEach<A>
          : S extends { readonly type: readonly (infer T)[] }
            ? FromTypeName<T & string, S>
            : S extends { readonly type: infer T extends string }
              ? FromTypeName<T, S>
              : S extends { readonly properties: object }
                ? FromObject<S>
                : unknown;

type FromSchemaEach<A> = A extends unknown ? FromSchema<A> : never;

type FromTypeName<T extends string, S> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? FromSchema<I>[]
            : unknown[]
          : T extends "object"
            ? FromObject<S>
            : unknown;

type RequiredNames<S> = S extends { readonly required: readonly (infer R)[] } ? R & string : never;

type FromObject<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P & string as K extends RequiredNames<S> ? K : never]: FromSchema<P[K]> } & {
        -readonly [K in keyof P & string as K extends RequiredNames<S> ? never : K]?: FromSchema<P[K]>;
      }
    >
  : { [key: string]: unknown };

/** A compiled schema: undefined when the value conforms, else a readable list of problems. */
export type SchemaCheck = (value: unknown) => string | undefined;

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** The dialect a schema declares, or why it cannot be used. */
export function dialectOf(schema: object): "2020-12" | "draft-07" | { unsupported: string } {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined || (typeof declared === "string" && DRAFT_2020_12.test(declared))) return "2020-12";
  if (typeof declared === "string" && DRAFT_07.test(declared)) return "draft-07";
  return { unsupported: String(declared) };
}

/**
 * The limits a tool's schema must keep (2026-07-28 basic/index#json-schema-usage):
 * "Implementations MUST NOT automatically dereference $ref values that resolve
 * to a network URI ... Schemas that fail to validate due to an unresolved
 * external $ref SHOULD be rejected", and composition "SHOULD apply reasonable
 * bounds, such as a maximum schema depth, a cap on the total number of
 * subschemas". Checked when the tool is registered, before ajv sees it.
 */
export const SCHEMA_LIMITS = { maxDepth: 32, maxSubschemas: 2000 } as const;

/** Why a schema breaks the limits above, or undefined. */
export function schemaProblem(schema: object): string | undefined {
  let count = 0;
  const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
  const visit = (node: unknown, depth: number, at: string, names = false): string | undefined => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const problem = visit(node[i], depth, `${at}/${i}`);
        if (problem) return problem;
      }
      return undefined;
    }
    if (node === null || typeof node !== "object") return undefined;
    if (++count > SCHEMA_LIMITS.maxSubschemas)
      return `more than ${SCHEMA_LIMITS.maxSubschemas} subschemas (at ${at || "/"})`;
    if (depth > SCHEMA_LIMITS.maxDepth) return `nested deeper than ${SCHEMA_LIMITS.maxDepth} levels (at ${at || "/"})`;
    for (const [key, value] of Object.entries(node)) {
      const pointer = `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      if (names) {
        // A map of names to subschemas: every value is a schema, whatever its name.
        const problem = visit(value, depth + 1, pointer);
        if (problem) return problem;
        continue;
      }
      if (key === "$ref" || key === "$dynamicRef") {
        // Only references within the schema itself: a fragment of this document.
        if (typeof value !== "string" || !value.startsWith("#"))
          return `${key} ${JSON.stringify(value)} at ${at || "/"} points outside the schema; external references are not fetched`;
        continue;
      }
      // Values of these keywords are data, not subschemas.
      if (key === "const" || key === "enum" || key === "default" || key === "examples") continue;
      const problem = visit(value, depth + 1, pointer, NAME_MAPS.has(key));
      if (problem) return problem;
    }
    return undefined;
  };
  return visit(schema, 0, "");
}

type AjvInstance = {
  compile(schema: object): ((value: unknown) => boolean) & { errors?: AjvError[] | null };
};
interface AjvError {
  instancePath: string;
  message?: string;
  keyword: string;
  params?: Record<string, unknown>;
}

type AjvInstances = Record<"2020-12" | "draft-07", AjvInstance>;

let instances: AjvInstances | undefined;

/**
 * What a check that needs ajv throws while a startup snapshot is built
 * (mcpgen/snapshot): it is compiled when the server runs instead. A snapshot
 * cannot hold a module loaded from node_modules: on Node 20, a process started
 * from one fails an internal assertion before it runs anything.
 */
export class AjvWhenServing extends Error {}

/** ajv, one instance per dialect; loaded synchronously (it is CommonJS) the first time a check needs it. */
function ajv(): AjvInstances {
  if (instances !== undefined) return instances;
  const require = builtinModule<typeof import("node:module")>("node:module").createRequire(import.meta.url);
  if ((require("node:v8") as typeof import("node:v8")).startupSnapshot.isBuildingSnapshot())
    throw new AjvWhenServing("ajv is loaded when the server runs, not while its startup snapshot is built");
  const { Ajv2020 } = require("ajv/dist/2020.js") as { Ajv2020: new (options: object) => AjvInstance };
  const { Ajv } = require("ajv") as { Ajv: new (options: object) => AjvInstance };
  // Formats are annotations, as in JSON Schema 2020-12 by default and as the
  // generated validators treat them; logger: false keeps stdout/stderr clean.
  // addUsedSchema: false keeps each tool's schema to itself ($id and $anchor never collide across tools).
  const options = { allErrors: true, strict: false, validateFormats: false, logger: false, addUsedSchema: false };
  return (instances = { "2020-12": new Ajv2020(options), "draft-07": new Ajv(options) });
}

/** A problem a compiled schema finds in a value: where (JSON pointer), which keyword, and what. */
export interface SchemaProblem {
  readonly path: string;
  readonly keyword: string;
  readonly message: string;
}

/**
 * Compiles a schema; throws with ajv's message when the schema itself is
 * invalid. The result lists the value's problems, undefined when it conforms.
 */
export async function compileSchemaProblems(
  schema: ObjectSchema,
): Promise<(value: unknown) => readonly SchemaProblem[] | undefined> {
  const dialect = dialectOf(schema);
  if (typeof dialect !== "string") throw new TypeError(`unsupported JSON Schema dialect ${dialect.unsupported}`);
  const byAjv = (validate: ReturnType<AjvInstance["compile"]>) => (value: unknown) =>
    validate(value) ? undefined : (validate.errors ?? []).map(problemOf);
  const verdict = simpleSchemaVerdict(schema);
  if (verdict === undefined) return byAjv(ajv()[dialect].compile(schema as object));
  // ajv judges what the simple verdict refuses, and reports why (its verdict is final).
  let reported: ((value: unknown) => readonly SchemaProblem[] | undefined) | undefined;
  return (value) => (verdict(value) ? undefined : (reported ??= reporter(schema, dialect, byAjv))(value));
}

/**
 * ajv's report for a value the simple verdict refused. Where ajv cannot run
 * (a bundled Cloudflare Worker: no file to require it from, no code generated
 * from strings) the refusal stands, reported without ajv's detail.
 */
function reporter(
  schema: ObjectSchema,
  dialect: keyof AjvInstances,
  byAjv: (validate: ReturnType<AjvInstance["compile"]>) => (value: unknown) => readonly SchemaProblem[] | undefined,
): (value: unknown) => readonly SchemaProblem[] | undefined {
  try {
    return byAjv(ajv()[dialect].compile(schema as object));
  } catch (error) {
    if (error instanceof AjvWhenServing) throw error;
    const problem = {
      path: "",
      keyword: "schema",
      message: "does not match the schema (ajv, which explains why, cannot run here)",
    };
    return () => [problem];
  }
}

/**
 * Compiles a schema; throws with ajv's message when the schema itself is
 * invalid. The result reports problems as "/path: message" lines.
 */
export async function compileSchema(schema: ObjectSchema): Promise<SchemaCheck> {
  const problems = await compileSchemaProblems(schema);
  return (value) =>
    problems(value)
      ?.map((p) => `${p.path === "" ? "(root)" : p.path}: ${p.message}`)
      .join("; ");
}

function problemOf(error: AjvError): SchemaProblem {
  const extra =
    error.keyword === "additionalProperties" && error.params?.["additionalProperty"] !== undefined
      ? ` (${String(error.params["additionalProperty"])})`
      : "";
  return { path: error.instancePath, keyword: error.keyword, message: `${error.message ?? error.keyword}${extra}` };
}
