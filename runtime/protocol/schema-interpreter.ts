// Tool schemas where a runtime refuses to compile code from strings: Cloudflare
// Workers and other edge runtimes (and Node under
// --disallow-code-generation-from-strings), where ajv cannot compile a schema.
// @cfworker/json-schema interprets the schema instead, with the same dialects;
// its reports are mapped to the JSON pointers and keywords ajv's would carry.
// A schema's own validity is not checked there (ajv's meta-schema check needs
// code generation too): a broken schema shows as values it refuses.
import type { SchemaProblem } from "./schema-problem.js";

let allowed: boolean | undefined;

/** Whether `new Function` works here: ajv needs it, an interpreter does not. */
export function codeGenerationAllowed(): boolean {
  if (allowed === undefined) {
    try {
      allowed = new Function("return true")() === true;
    } catch {
      allowed = false;
    }
  }
  return allowed;
}

// Keywords whose failure is reported again, more precisely, by the subschema that failed.
const WRAPPERS = new Set([
  "properties",
  "patternProperties",
  "items",
  "prefixItems",
  "allOf",
  "$ref",
  "dependentSchemas",
]);
// Keywords whose values are data or names, not subschemas (withoutFormats leaves them as they are).
const DATA = new Set(["const", "enum", "default", "examples"]);
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** The value's problems under `schema`, by interpretation; undefined when it conforms. */
export async function interpretSchema(
  schema: object,
  dialect: "2020-12" | "draft-07",
): Promise<(value: unknown) => readonly SchemaProblem[] | undefined> {
  const { Validator } = await import("@cfworker/json-schema");
  const validator = new Validator(withoutFormats(schema) as object, dialect === "draft-07" ? "7" : "2020-12", false);
  return (value) => {
    const { valid, errors } = validator.validate(value);
    if (valid) return undefined;
    // A property refused by `additionalProperties: false` is also reported as failing the schema `false`.
    const precise = errors.filter((error) => !WRAPPERS.has(error.keyword) && error.keyword !== "false");
    return (precise.length > 0 ? precise : errors).map((error) => ({
      path: error.instanceLocation.replace(/^#/, ""),
      keyword: error.keyword,
      message: error.error.replace(/\.$/, ""),
    }));
  };
}

/**
 * The schema without its `format` keywords: formats are annotations here, as
 * ajv runs them (validateFormats: false), while the interpreter asserts them.
 */
function withoutFormats(node: unknown, names = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutFormats(item));
  if (node === null || typeof node !== "object") return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (names) copy[key] = withoutFormats(value);
    else if (key === "format" && typeof value === "string") continue;
    else copy[key] = DATA.has(key) ? value : withoutFormats(value, NAME_MAPS.has(key));
  }
  return copy;
}
