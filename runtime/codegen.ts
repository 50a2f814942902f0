// mcpgen/runtime/codegen: the contract between mcpgen's generator and its
// runtime. Generated code imports this module and nothing else of the runtime;
// the generator reads shapes with the converter's own functions. It is not a
// user API: it changes with the generator, whose package depends on the exact
// runtime version it generates for. What users call is "mcpgen/runtime".
//
// - Checks (generated/<rev>/checks.ts): a Check is (value, failure) => boolean,
//   straight-line code; failure is null when only the answer is wanted.
//   fail, failAt and failMissing record a problem and return false; failNested
//   adds the path segment of a nested check that failed; isObject, ownProperty,
//   codePointLength and isBase64 are the tests checks use (validation.ts).
// - Validators and guards (validators.ts, guards.ts): runCheck runs a check
//   and reports its first problem; passesCheck gives only the answer.
// - Tables (tables.ts, methods.ts, revision.ts, ext/<name>/tables.ts): the
//   types they are declared with, and the message functions a revision's
//   classify, validate* and validateMessage bind to its tables (messages.ts).
// - Shims (generated/shims/): revisionShapes builds a revision's shapes on
//   their first read; convertStep runs one step's plan on a method's params or
//   result, with the rules in shimRules; convertMessage, convertParams and
//   convertResult run the chain of steps (shims.ts).
// - The generator (generator/shims/) plans shortcuts with the converter's
//   resolve, fieldsOf, membersOf and leavesFittingValues, so that a shortcut
//   planned at generation and the walk at run time read shapes alike.
// Checks, validators and guards.
export { Failure, fail, failAt, at as failNested, missing as failMissing, own as ownProperty } from "./validation.js";
export { codePointLength, isBase64, isObject, run as runCheck, test as passesCheck } from "./validation.js";
export type { Check, ValidationResult } from "./validation.js";
// Tables.
export { checkMessage, classifyMessage, validateMethodParams, validateMethodResult, validateType } from "./messages.js";
export type { Classification, Envelope, MessageTables, MessageVerdict } from "./messages.js";
export type { ExtensionTables } from "./extensions.js";
export type { MethodTable, RevisionInfo } from "./table-types.js";
// Shims.
export { ShimError, convertMessage, convertParams, convertResult, convertStep, revisionShapes } from "./shims.js";
export type { ConvertOptions, Converted, RevisionShapes, ShimTables, StepPlan } from "./shims.js";
export { shimRules } from "./shim-rules.js";
// What the generator plans shortcuts with.
export { fieldsOf, membersOf, resolve } from "./shims.js";
export type { DefaultValue, FieldShape, MemberRule, Resolved, Shape, ShortcutPlan } from "./shims.js";
export { leavesFittingValues } from "./shim-rules.js";
