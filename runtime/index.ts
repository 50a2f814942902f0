// The runtime contract: what generated code may import from "mcpgen/runtime".
// Keep it small and stable; generated files are data and types built on it.
export * from "./validation.js";
export * from "./messages.js";
export * from "./json.js";
export * from "./shims.js";
export * from "./extensions.js";
export { leavesFittingValues, shimRules } from "./shim-rules.js";

export type { CapabilityRequirement, Direction, MethodEntry, MethodTable, RevisionInfo } from "./revision-facts.js";
