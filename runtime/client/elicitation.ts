// Defaults of a form-mode elicitation, the client's side (2025-11-25 and
// 2026-07-28 client/elicitation#requested-schema, SEP-1034): "All primitive
// types support optional default values to provide sensible starting points.
// Clients that support defaults SHOULD pre-populate form fields with these
// values." A form the user accepts without touching a pre-populated field
// submits that field's default; so when a handler accepts a form and leaves a
// field out, the client puts in the field's default before answering. Only a
// default that fits its property's type is used (a default the schema itself
// contradicts is the server's mistake, not the user's answer).
import { isObject } from "../validation.js";
import type { ElicitResult } from "../protocol/handler-revision.js";

type FieldValue = string | number | boolean | string[];

/** Whether a value is a valid answer for a primitive property of requestedSchema (#requested-schema's four kinds). */
function fits(property: Record<string, unknown>, value: unknown): value is FieldValue {
  switch (property["type"]) {
    case "string":
      return typeof value === "string" && (!Array.isArray(property["enum"]) || property["enum"].includes(value));
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array": // multi-select enum: its default is a list of the options' values
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    default:
      return false;
  }
}

/**
 * The default of each property of a form's requestedSchema that has one
 * fitting its type: what a form shows pre-populated.
 */
export function elicitationDefaults(requestedSchema: unknown): Record<string, FieldValue> {
  const defaults: Record<string, FieldValue> = {};
  const properties =
    isObject(requestedSchema) && isObject(requestedSchema["properties"]) ? requestedSchema["properties"] : {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isObject(property) || !Object.hasOwn(property, "default")) continue;
    const value = property["default"];
    if (fits(property, value)) defaults[name] = Array.isArray(value) ? [...value] : value;
  }
  return defaults;
}

/**
 * A handler's answer to an elicitation with the form's defaults put in for
 * the fields an accepted form-mode answer leaves out. Declined, cancelled and
 * URL-mode answers are returned as they are, and so is every field the answer has.
 */
export function withElicitationDefaults(params: unknown, answer: ElicitResult): ElicitResult {
  if (answer.action !== "accept" || !isObject(params)) return answer;
  // Form mode: "mode" is "form" or absent (client/elicitation#form-mode-elicitation-requests).
  if (params["mode"] !== undefined && params["mode"] !== "form") return answer;
  const defaults = elicitationDefaults(params["requestedSchema"]);
  const content = { ...answer.content };
  let added = false;
  for (const [name, value] of Object.entries(defaults)) {
    if (content[name] !== undefined) continue;
    content[name] = value;
    added = true;
  }
  return added ? { ...answer, content } : answer;
}
