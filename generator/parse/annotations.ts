// Validation annotations: the JSDoc tags typescript-json-schema turns into JSON
// Schema keywords. Upstream derives schema.json from schema.ts with that tool,
// so these tags are schema, not prose. The ones read here become Constraints;
// the tool's other validation keywords are refused rather than ignored. A tag
// whose value cannot be read (`@format: uri`) is a warning and left out: what
// it meant is a guess, and the rest of the schema still stands.
import type { Constraints, Doc } from "../model/types.js";

type NumberKeyword = "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum";
type CountKeyword = "minLength" | "maxLength" | "minItems" | "maxItems";

const numberKeywords: readonly NumberKeyword[] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const countKeywords: readonly CountKeyword[] = ["minLength", "maxLength", "minItems", "maxItems"];

/** typescript-json-schema validation keywords mcpgen does not implement. */
const refusedKeywords = new Set([
  "additionalProperties",
  "asType",
  "const",
  "contains",
  "dependencies",
  "discriminator",
  "enum",
  "items",
  "maxContains",
  "maxProperties",
  "minContains",
  "minProperties",
  "multipleOf",
  "propertyNames",
  "TJS-required",
  "uniqueItems",
]);

export interface ReadConstraints {
  constraints?: Constraints;
  /** One message per tag that cannot be honoured (a keyword mcpgen does not implement): generation stops. */
  problems: string[];
  /** Each tag whose value cannot be read (`@format: uri`, `@minimum abc`), by name: the tag is ignored. */
  unreadable: { tag: string; message: string }[];
}

/** Reads the validation annotations of a property's or a type alias's JSDoc. */
export function readConstraints(doc: Doc): ReadConstraints {
  const constraints: Constraints = {};
  const problems: string[] = [];
  const unreadable: ReadConstraints["unreadable"] = [];
  for (const { name, text } of doc.tags) {
    const value = text.split("\n")[0]!.trim();
    if (name === "TJS-type") {
      if (value === "integer") constraints.integer = true;
      else if (value !== "number") problems.push(`@TJS-type ${value} is not supported (only number and integer)`);
    } else if (name === "nullable") {
      constraints.nullable = true;
    } else if (name === "format") {
      if (!/^[\w-]+$/.test(value))
        unreadable.push({ tag: name, message: `@format needs a format name, not "${value}"; the tag is ignored` });
      // `@format int` (the tasks extension's spelling, whose schema.json and prose make these fields
      // integers: "integer milliseconds") is an integer, as @TJS-type integer is.
      else if (value === "int") constraints.integer = true;
      else constraints.format = value;
    } else if ((numberKeywords as readonly string[]).includes(name)) {
      const number = Number(value);
      if (value === "" || !Number.isFinite(number))
        unreadable.push({ tag: name, message: `@${name} needs a number, not "${value}"; the tag is ignored` });
      else constraints[name as NumberKeyword] = number;
    } else if ((countKeywords as readonly string[]).includes(name)) {
      const count = Number(value);
      if (!Number.isInteger(count) || count < 0)
        unreadable.push({
          tag: name,
          message: `@${name} needs a non-negative integer, not "${value}"; the tag is ignored`,
        });
      else constraints[name as CountKeyword] = count;
    } else if (name === "pattern") {
      try {
        new RegExp(value, "u");
        constraints.pattern = value;
      } catch {
        unreadable.push({
          tag: name,
          message: `@pattern ${value} is not a valid regular expression; the tag is ignored`,
        });
      }
    } else if (refusedKeywords.has(name)) {
      problems.push(`@${name} is a JSON Schema keyword mcpgen does not implement`);
    }
  }
  return { ...(Object.keys(constraints).length > 0 ? { constraints } : {}), problems, unreadable };
}
