// The message converter's data contract (what generated/shims/ holds: each
// revision's shapes, each step's plans) and its vocabulary: the changes a
// conversion reports, the error it throws, the rules it calls.
import type { MethodTable } from "./table-types.js";
import type { Envelope } from "./messages.js";
import type { Check } from "./validation.js";

/** A type as the converter sees it: the model's type expressions, without docs. */
export type Shape =
  | { readonly kind: "keyword"; readonly keyword: string }
  | { readonly kind: "literal"; readonly value: string | number | boolean }
  | { readonly kind: "reference"; readonly name: string }
  | { readonly kind: "union"; readonly members: readonly Shape[] }
  | { readonly kind: "intersection"; readonly members: readonly Shape[] }
  | { readonly kind: "array"; readonly element: Shape }
  | { readonly kind: "tuple"; readonly elements: readonly Shape[] }
  | { readonly kind: "object"; readonly properties: readonly ShapeProperty[]; readonly indexSignature?: Shape };

export interface ShapeProperty {
  readonly name: string;
  readonly optional: boolean;
  readonly type: Shape;
  /** Where the field is declared: "Result", or "RequestParams._meta" for a field of an inline type. Defaults are keyed by `${owner}.${name}`. */
  readonly owner: string;
}

/** Everything the converter needs to know of one revision. */
export interface RevisionShapes {
  readonly revision: string;
  readonly protocolVersion: string;
  readonly envelope: Envelope;
  readonly methods: MethodTable;
  /** Every schema type's shape, interfaces flattened with their inherited fields. */
  readonly types: { readonly [name: string]: Shape };
  /** Every schema type's generated check: the exact judge of which member of a union a value is. */
  readonly checks: { readonly [name: string]: Check };
  /** Per method: its params, and what a result response carries. */
  readonly params: { readonly [method: string]: FieldShape };
  readonly results: { readonly [method: string]: FieldShape };
}

/** A message's params or result: its shape and its field key (what narrowing rules go by). */
export interface FieldShape {
  readonly field: string;
  readonly shape: Shape;
}

/** A default for a field the target requires: a JSON value, or a fact of the conversion. */
export type DefaultValue =
  | { readonly value: unknown }
  | { readonly context: "protocolVersion" }
  | { readonly object: { readonly [field: string]: DefaultValue } }
  /** No value can stand in: a value lacking the field cannot be converted, for this reason. */
  | { readonly refuse: string };

/** What to do with a union member or literal the target lacks. */
export type MemberRule = { readonly rule: string } | { readonly refuse: string };

/** One direction of one adjacent step, e.g. 2025-06-18 → 2025-11-25. */
export interface StepPlan {
  readonly from: string;
  readonly to: string;
  /** By "Owner.field" of the target: values for required fields the source may lack. */
  readonly defaults: { readonly [field: string]: DefaultValue };
  /** By member name (a type name, or a literal as JSON): members the target lacks. */
  readonly members: { readonly [member: string]: MemberRule };
  /**
   * By field key of the target ("Owner.field", with "[key]" for an index
   * signature's values and "[]" for array items): a type that narrows; the rule
   * makes a value that does not fit fit, or refuses.
   */
  readonly narrowing: { readonly [field: string]: MemberRule };
  /** By source type name: semantic rules (runtime/shim-rules.ts) applied to a value before it is converted. */
  readonly hooks: { readonly [type: string]: readonly string[] };
  /** By method: error codes to map in its error responses. */
  readonly errorCodes: { readonly [method: string]: { readonly [code: string]: number } };
  /** Types renamed on the way, source name → target name. */
  readonly renames: { readonly [from: string]: string };
  /**
   * By "Owner.field" of the source: fields the target no longer declares but
   * whose object's index signature takes them (a type made open on the way up),
   * carried as index-signature entries instead of dropped.
   */
  readonly kept?: readonly string[];
  /**
   * By method: where a params or result value converts without the walk (the
   * generator's generator/shims/shortcuts.ts; runtime/shim-shortcuts.ts takes
   * them). Absent for a method: every value takes the walk.
   */
  readonly shortcuts?: {
    readonly params: { readonly [method: string]: ShortcutPlan };
    readonly result: { readonly [method: string]: ShortcutPlan };
  };
}

/**
 * A method's params or result in one step, for values the target's generated
 * check of `check` accepts: run the hooks (which must leave the value as it is),
 * drop the top-level fields the target lacks. A value with anything at a
 * `nested` path takes the walk instead.
 */
export interface ShortcutPlan {
  /** The target type whose generated check the value must pass. */
  readonly check: string;
  /** The source type the value is of (the hooks' context), when it has a name. */
  readonly type?: string;
  /** Rules of runtime/shim-rules.ts on the top-level type. */
  readonly hooks: readonly string[];
  /** Top-level fields the source declares and the target does not, and where each is declared. */
  readonly drop: readonly { readonly field: string; readonly owner: string }[];
  /** Paths of keys below the top level where the walk would drop a field or run a hook. */
  readonly nested: readonly (readonly string[])[];
}

export interface ShimChange {
  /** JSON pointer into the converted message. */
  readonly path: string;
  readonly change: "dropped" | "defaulted" | "mapped";
  readonly detail: string;
}

/** A message, or part of one, that the target revision cannot express. */
export class ShimError extends Error {
  override name = "ShimError";
  constructor(
    /** Why, without the revisions: "server/discover does not exist in 2025-11-25". */
    readonly reason: string,
    readonly from: string,
    readonly to: string,
    /** JSON pointer to what could not be converted. */
    readonly path: string,
  ) {
    super(`cannot convert from ${from} to ${to}${path ? ` at ${path}` : ""}: ${reason}`);
  }
}

/** A semantic rule: returns the value to use (or DROP to leave it out of its array). */
export type ShimRule = (value: unknown, context: RuleContext) => unknown;

export interface RuleContext {
  readonly from: RevisionShapes;
  readonly to: RevisionShapes;
  /** The source type the value is of, when it has a name. */
  readonly type?: string;
  readonly path: string;
  /** Records a change the rule made, at the value's path or below it (`below` is a pointer suffix). */
  change(change: ShimChange["change"], detail: string, below?: string): void;
}

/** Returned by a member rule to leave an item out of the array it is in. */
export const DROP: unique symbol = Symbol("mcpgen.shims.drop");

export interface ShimTables {
  /** Every revision, oldest first. */
  readonly revisions: readonly RevisionShapes[];
  /** For each adjacent pair, in order: the plan up (older → newer) and down. */
  readonly steps: readonly { readonly upgrade: StepPlan; readonly downgrade: StepPlan }[];
  readonly rules: { readonly [name: string]: ShimRule };
}

export interface ConvertOptions {
  from: string;
  to: string;
  /** For a response: the method of the request it answers. */
  method?: string;
}

export interface Converted {
  message: unknown;
  changes: ShimChange[];
  /**
   * The target revision's generated check the message was found to pass on
   * the way (the shortcut checks a value before it takes it; a walked value
   * has none): a caller about to run that same check need not run it again.
   */
  checked?: Check;
}
