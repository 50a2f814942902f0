// mcpgen/runtime: what a user's code calls beside a revision's own exports
// (mcpgen/<rev>): validation results, classifying and checking a message
// against a revision's tables (with extensions merged in), parsing JSON with
// the position of an error, the types the shims report with, and the types of
// the generated tables. Generated code imports mcpgen/runtime/codegen instead.
export type { ValidationError, ValidationResult } from "./validation.js";
export {
  checkMessage,
  classifyMessage,
  validateMethodParams,
  validateMethodResult,
  validateType,
  type Classification,
  type Envelope,
  type MessageTables,
  type MessageVerdict,
  type RequestId,
} from "./messages.js";
export { parseJson, type ParsedJson } from "./json.js";
export { withExtensions, type ExtensionTables } from "./extensions.js";
export { ShimError, type ConvertOptions, type Converted, type ShimChange } from "./shim-data.js";
export type { CapabilityRequirement, Direction, MethodEntry, MethodTable, RevisionInfo } from "./table-types.js";
