// The verdict of the JSON Schemas most tools declare (an object of typed
// properties, some required; arrays of them; enums and bounds) without ajv.
// Loading ajv and compiling one schema is ~60 ms of a process's first
// tools/call, and on a per-request (2026-07-28) server, which has no handshake
// to warm up behind, of its cold start. This module only says valid or not:
// json-schema.ts asks ajv for the report of a value it finds invalid, and
// treats ajv's verdict as final, so a value is never refused on this module's
// word alone, and the reports (JSON pointer, keyword, message) are ajv's.
//
// A schema qualifies when every keyword in it is one below, with the meaning
// JSON Schema 2020-12 and draft-07 both give it (ajv's checks mirrored: a
// property counts as present when `value[name] !== undefined`, additional
// properties are the keys `for...in` visits). Anything else, or a property name
// Object.prototype also has, means undefined: ajv checks that schema alone.
import { codePointLength } from "../validation.js";

/** True when the value conforms; false means "ask ajv". */
export type SchemaVerdict = (value: unknown) => boolean;

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
// Keywords that never change a verdict (annotations, and format: ajv runs with
// validateFormats: false), with the type the meta-schemas give their values
// (ajv refuses a schema that breaks them, and so must this module).
const ANNOTATIONS: Record<string, (argument: unknown) => boolean> = {
  title: isString,
  description: isString,
  $comment: isString,
  format: isString,
  default: () => true,
  examples: Array.isArray,
  readOnly: isBoolean,
  writeOnly: isBoolean,
  deprecated: isBoolean,
  // server/tools#x-mcp-header: which header mirrors the parameter; checked when the tool is registered.
  "x-mcp-header": isString,
};
const MAX_DEPTH = 32;

/** A verdict function for `schema`, or undefined when the schema uses anything beyond the subset. */
export function simpleSchemaVerdict(schema: unknown): SchemaVerdict | undefined {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return undefined;
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return verdictOf(rest, 0);
}

function verdictOf(schema: unknown, depth: number): SchemaVerdict | undefined {
  if (schema === true) return () => true;
  if (schema === false) return () => false;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema) || depth > MAX_DEPTH) return undefined;
  const checks: SchemaVerdict[] = [];
  for (const [keyword, argument] of Object.entries(schema as Record<string, unknown>)) {
    const annotation = Object.hasOwn(ANNOTATIONS, keyword) ? ANNOTATIONS[keyword]! : undefined;
    if (annotation !== undefined) {
      if (!annotation(argument)) return undefined;
      continue;
    }
    const check = keywordCheck(keyword, argument, schema as Record<string, unknown>, depth);
    if (check === undefined) return undefined;
    if (check !== null) checks.push(check);
  }
  return every(checks);
}

/** The check one keyword adds; null when it adds none of its own (read by another keyword); undefined when unsupported. */
function keywordCheck(
  keyword: string,
  argument: unknown,
  schema: Record<string, unknown>,
  depth: number,
): SchemaVerdict | null | undefined {
  switch (keyword) {
    case "type": {
      const names = typeof argument === "string" ? [argument] : argument;
      if (!Array.isArray(names) || names.length === 0 || !names.every((n) => TYPES.has(n as string))) return undefined;
      if (new Set(names).size !== names.length) return undefined; // the meta-schemas' uniqueItems
      const typeChecks = names.map((n) => TYPE_CHECKS[n as string]!);
      return typeChecks.length === 1
        ? typeChecks[0]!
        : (value) => {
            for (const check of typeChecks) if (check(value)) return true;
            return false;
          };
    }
    case "enum": {
      if (!Array.isArray(argument) || !argument.every(isPrimitive)) return undefined;
      const allowed = new Set(argument);
      return (value) => allowed.has(value as never);
    }
    case "const":
      return isPrimitive(argument) ? (value) => value === argument : undefined;
    case "minLength":
    case "maxLength": {
      if (!isCount(argument)) return undefined;
      const min = keyword === "minLength";
      return (value) =>
        typeof value !== "string" || (min ? codePointLength(value) >= argument : codePointLength(value) <= argument);
    }
    case "minimum":
    case "maximum": {
      if (typeof argument !== "number" || !Number.isFinite(argument)) return undefined;
      const min = keyword === "minimum";
      return (value) => typeof value !== "number" || (min ? value >= argument : value <= argument);
    }
    case "minItems":
    case "maxItems": {
      if (!isCount(argument)) return undefined;
      const min = keyword === "minItems";
      return (value) => !Array.isArray(value) || (min ? value.length >= argument : value.length <= argument);
    }
    case "items": {
      const item = verdictOf(argument, depth + 1);
      if (item === undefined) return undefined;
      return (value) => !Array.isArray(value) || value.every(item);
    }
    case "required": {
      if (!Array.isArray(argument) || !argument.every(isPlainName)) return undefined;
      if (new Set(argument).size !== argument.length) return undefined; // the meta-schemas' uniqueItems
      const names = argument as string[];
      return (value) => {
        if (!isObject(value)) return true;
        for (const name of names) if (value[name] === undefined) return false;
        return true;
      };
    }
    case "properties":
      return propertiesCheck(argument, schema["additionalProperties"], depth);
    case "additionalProperties":
      // Checked with "properties", which says which properties are additional.
      if (schema["properties"] !== undefined) return null;
      return propertiesCheck({}, argument, depth);
    default:
      return undefined;
  }
}

function propertiesCheck(properties: unknown, additional: unknown, depth: number): SchemaVerdict | undefined {
  if (properties === null || typeof properties !== "object" || Array.isArray(properties)) return undefined;
  const named: [string, SchemaVerdict][] = [];
  for (const [name, subschema] of Object.entries(properties)) {
    const verdict = verdictOf(subschema, depth + 1);
    if (!isPlainName(name) || verdict === undefined) return undefined;
    named.push([name, verdict]);
  }
  const known = new Set(named.map(([name]) => name));
  const others = additional === undefined ? undefined : verdictOf(additional, depth + 1);
  if (additional !== undefined && others === undefined) return undefined;
  return (value) => {
    if (!isObject(value)) return true;
    for (const [name, verdict] of named) {
      const property = value[name];
      if (property !== undefined && !verdict(property)) return false;
    }
    if (others !== undefined) for (const key in value) if (!known.has(key) && !others(value[key])) return false;
    return true;
  };
}

const TYPE_CHECKS: Record<string, SchemaVerdict> = {
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number" && Number.isFinite(value),
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === "boolean",
  object: (value) => isObject(value),
  array: (value) => Array.isArray(value),
  null: (value) => value === null,
};

function every(checks: SchemaVerdict[]): SchemaVerdict {
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0]!;
  return (value) => {
    for (const check of checks) if (!check(value)) return false;
    return true;
  };
}

function isString(value: unknown): boolean {
  return typeof value === "string";
}

function isBoolean(value: unknown): boolean {
  return typeof value === "boolean";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "boolean" || Number.isFinite(value);
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

/** A property name whose lookup cannot reach Object.prototype (where `value[name]` would find something). */
function isPlainName(name: unknown): name is string {
  return typeof name === "string" && !(name in Object.prototype);
}
