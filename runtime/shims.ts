// Converting messages between protocol revisions. Generated data drives it
// (generated/shims/): each revision's type shapes, and for every adjacent pair
// of revisions an upgrade and a downgrade plan derived from their diff and the
// reviewed shim overlay. This module walks a value along the source and target
// shapes, one step at a time:
// - a field the source declares and the target does not is dropped, unless the
//   plan keeps it (the target's object became open: its index signature takes it);
// - a field the target requires and the value lacks is filled from the plan's
//   default (or the conversion fails: nothing is invented without a rule);
// - a union member or literal the target lacks goes through the plan's rule;
// - everything else is copied, unknown extra properties included.
// Each loss or invention is reported as a change, so that a runtime can log it.
import type { MethodTable } from "./index.js";
import type { Envelope } from "./messages.js";
import { classifyMessage } from "./messages.js";
import { isObject, pointer, test, type Check } from "./validation.js";

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

/** Runs a conversion; a step's ShimError is reported against the whole conversion asked for. */
function asked<T>(options: { from: string; to: string }, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ShimError && (error.from !== options.from || error.to !== options.to)) {
      throw new ShimError(error.reason, options.from, options.to, error.path);
    }
    throw error;
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
}

/** Converts a whole JSON-RPC message, step by step, from one revision to another. */
export function convertMessage(tables: ShimTables, message: unknown, options: ConvertOptions): Converted {
  const changes: ShimChange[] = [];
  let current = message;
  asked(options, () => {
    for (const plan of path(tables, options.from, options.to))
      current = convertMessageStep(tables, plan, current, options.method, changes);
  });
  return { message: current, changes };
}

/** Converts a message, or a method's params or result, in one step (the generated per-step functions). */
export function convertStep(
  rules: ShimTables["rules"],
  plan: StepPlan,
  source: RevisionShapes,
  target: RevisionShapes,
  what: "params" | "result",
  method: string,
  value: unknown,
  changes: ShimChange[] = [],
): Converted {
  requireMethod(target, method, plan, what === "params" ? "/method" : "");
  if (value !== undefined) {
    const shortcut = shortcutFor(rules, plan, source, target, what, method);
    const taken = shortcut ? takeShortcut(shortcut, value, what, changes) : NOT_TAKEN;
    if (taken !== NOT_TAKEN) return { message: taken, changes };
  }
  const tables: ShimTables = { revisions: [source, target], steps: [], rules };
  const walk = new Walk(tables, plan, source, target, changes, `/${what}`);
  const table = what === "params" ? "params" : "results";
  const converted =
    value === undefined ? undefined : walk.convertField(value, source[table][method], target[table][method]);
  return { message: converted, changes };
}

/** Converts a method's params (undefined when absent) between revisions. */
export function convertParams(
  tables: ShimTables,
  method: string,
  params: unknown,
  options: Omit<ConvertOptions, "method">,
): Converted {
  return convertPart(tables, "params", method, params, options);
}

/** Converts a request's result between revisions. */
export function convertResult(
  tables: ShimTables,
  method: string,
  result: unknown,
  options: Omit<ConvertOptions, "method">,
): Converted {
  return convertPart(tables, "result", method, result, options);
}

function convertPart(
  tables: ShimTables,
  what: "params" | "result",
  method: string,
  value: unknown,
  options: Omit<ConvertOptions, "method">,
): Converted {
  const changes: ShimChange[] = [];
  let current = value;
  const steps = route(tables, options.from, options.to);
  try {
    for (const { plan, source, target } of steps)
      current = convertStep(tables.rules, plan, source, target, what, method, current, changes).message;
  } catch (error) {
    if (error instanceof ShimError && (error.from !== options.from || error.to !== options.to))
      throw new ShimError(error.reason, options.from, options.to, error.path);
    throw error;
  }
  return { message: current, changes };
}

type Route = readonly { plan: StepPlan; source: RevisionShapes; target: RevisionShapes }[];

/** The steps from one revision to another with their shapes, computed once per pair (tables never change). */
const routes = new WeakMap<ShimTables, Map<string, Map<string, Route>>>();

function route(tables: ShimTables, from: string, to: string): Route {
  // Two map lookups and no key built: this runs twice per converted request.
  let byFrom = routes.get(tables);
  if (!byFrom) routes.set(tables, (byFrom = new Map()));
  let byTo = byFrom.get(from);
  if (!byTo) byFrom.set(from, (byTo = new Map()));
  let found = byTo.get(to);
  if (!found) {
    found = path(tables, from, to).map((plan) => ({
      plan,
      source: revision(tables, plan.from),
      target: revision(tables, plan.to),
    }));
    byTo.set(to, found);
  }
  return found;
}

function convertMessageStep(
  tables: ShimTables,
  plan: StepPlan,
  message: unknown,
  method: string | undefined,
  changes: ShimChange[],
): unknown {
  const source = revision(tables, plan.from);
  const target = revision(tables, plan.to);
  const classification = classifyMessage(message, source.envelope);
  const fail = (reason: string, at = "") => new ShimError(reason, plan.from, plan.to, at);
  switch (classification.kind) {
    case "invalid":
      throw fail(`not a valid ${plan.from} message: ${classification.reason}`, classification.path);
    case "batch":
      throw fail("convert the messages of a batch one at a time");
    case "request":
    case "notification": {
      const entry = requireMethod(target, classification.method, plan, "/method");
      if (entry.kind !== classification.kind)
        throw fail(`${classification.method} is a ${entry.kind} in ${plan.to}`, "/method");
      if (entry.inputRequest)
        throw fail(`${classification.method} travels only inside InputRequiredResult in ${plan.to}`, "/method");
      const m = message as Record<string, unknown>;
      const walk = new Walk(tables, plan, source, target, changes, "/params");
      const to = target.params[classification.method];
      if (m["params"] === undefined) {
        if (!entry.paramsRequired) return message;
        // Params the target requires and the message lacks: the plan's default for them.
        return { ...m, params: walk.defaulted(to?.field ?? "params", "") };
      }
      return { ...m, params: walk.convertField(m["params"], source.params[classification.method], to) };
    }
    case "result": {
      if (method === undefined) throw fail("converting a result response needs the method of the request it answers");
      if (requireMethod(target, method, plan, "").inputRequest) {
        throw fail(`${method} results travel only inside the retried request's inputResponses in ${plan.to}`);
      }
      const m = message as Record<string, unknown>;
      const walk = new Walk(tables, plan, source, target, changes, "/result");
      return { ...m, result: walk.convertField(m["result"], source.results[method], target.results[method]) };
    }
    case "error": {
      const m = message as { error: { code: number } } & Record<string, unknown>;
      if (m["id"] === undefined && target.envelope.errorIdRequired)
        throw fail(`an error response needs an id in ${plan.to}`, "/id");
      const mapped = method !== undefined ? plan.errorCodes[method]?.[String(m.error.code)] : undefined;
      if (mapped === undefined) return message;
      changes.push({
        path: "/error/code",
        change: "mapped",
        detail: `${method} error ${m.error.code} is ${mapped} in ${plan.to}`,
      });
      return { ...m, error: { ...m.error, code: mapped } };
    }
  }
}

function requireMethod(target: RevisionShapes, method: string, plan: StepPlan, at: string) {
  const entry = Object.prototype.hasOwnProperty.call(target.methods, method) ? target.methods[method] : undefined;
  if (!entry) throw new ShimError(`${method} does not exist in ${plan.to}`, plan.from, plan.to, at);
  return entry;
}

/** The plans that lead from one revision to another, through every revision between. */
function path(tables: ShimTables, from: string, to: string): StepPlan[] {
  const names = tables.revisions.map((r) => r.revision);
  const a = names.indexOf(from);
  const b = names.indexOf(to);
  if (a < 0 || b < 0)
    throw new ShimError(`unknown revision ${a < 0 ? from : to} (known: ${names.join(", ")})`, from, to, "");
  const plans: StepPlan[] = [];
  for (let i = a; i < b; i++) plans.push(tables.steps[i]!.upgrade);
  for (let i = a; i > b; i--) plans.push(tables.steps[i - 1]!.downgrade);
  return plans;
}

function revision(tables: ShimTables, name: string): RevisionShapes {
  return tables.revisions.find((r) => r.revision === name)!;
}

const ANY: Shape = { kind: "keyword", keyword: "unknown" };

/**
 * A way around the walk for a method's params or result in one step. A value
 * the target's generated check accepts needs no default (its required fields
 * are there), no member or narrowing rule (those act only on values the target
 * cannot take) and no rename; what remains are the semantic hooks, which run on
 * values that fit too. When the value has nothing where a hook lies below the
 * top-level type and the top-level hooks leave it as it is, the conversion is: drop the
 * top-level fields the source declares and the target does not. This keeps the
 * common case (a small result, a call's params) at one generated check.
 */
interface Shortcut {
  readonly check: Check;
  /** Hooks on the top-level type, run with this context; they must return the value itself. */
  readonly hooks: readonly ShimRule[];
  readonly context: RuleContext;
  /** Top-level fields the source declares and the target does not. */
  readonly drop: readonly string[];
  /** The owner of each dropped field, for the change report. */
  readonly owners: readonly string[];
  /** Paths below the top level the walk would drop, or where a hook would run: a value with any of them takes the walk. */
  readonly nested: readonly (readonly string[])[];
  readonly to: string;
}

const NOT_TAKEN: unique symbol = Symbol("mcpgen.shims.not-taken");
const shortcuts = new WeakMap<
  StepPlan,
  { readonly params: Map<string, Shortcut | null>; readonly result: Map<string, Shortcut | null> }
>();

function shortcutFor(
  rules: ShimTables["rules"],
  plan: StepPlan,
  source: RevisionShapes,
  target: RevisionShapes,
  what: "params" | "result",
  method: string,
): Shortcut | null {
  let byPart = shortcuts.get(plan);
  if (!byPart) shortcuts.set(plan, (byPart = { params: new Map(), result: new Map() }));
  const cache = byPart[what];
  let found = cache.get(method);
  if (found === undefined) {
    found = buildShortcut(rules, plan, source, target, what, method);
    cache.set(method, found);
  }
  return found;
}

function buildShortcut(
  rules: ShimTables["rules"],
  plan: StepPlan,
  source: RevisionShapes,
  target: RevisionShapes,
  what: "params" | "result",
  method: string,
): Shortcut | null {
  const table = what === "params" ? "params" : "results";
  const from = source[table][method];
  const to = target[table][method];
  if (!from || !to) return null;
  // A result union on either side (CallToolResult | InputRequiredResult from 2026-07-28, CallToolResult |
  // CreateTaskResult in 2025-11-25): the shortcut is for the member both sides share, the method's own result.
  const sourceTop = resolve(from.shape, source);
  const sourceMembers = sourceTop.shape.kind === "union" ? membersOf(sourceTop.shape, source) : [sourceTop];
  const targetNames =
    to.shape.kind === "union"
      ? to.shape.members.flatMap((m) => (m.kind === "reference" ? [m.name] : []))
      : to.shape.kind === "reference"
        ? [to.shape.name]
        : [];
  let top: Resolved | undefined;
  let name: string | undefined;
  for (const candidate of targetNames) {
    top = sourceMembers.find((m) => m.name === candidate || plan.renames[m.name ?? ""] === candidate);
    if (top) {
      name = candidate;
      break;
    }
  }
  if (!top || name === undefined) return null;
  const check = target.checks[name];
  if (!check) return null;
  const targetTop: Shape = { kind: "reference", name };
  const hooks = (top.name ? (plan.hooks[top.name] ?? []) : []).map((name) => {
    const rule = rules[name];
    if (!rule) throw new Error(`mcpgen: the shim rule ${name} is not in runtime/shim-rules.ts`);
    return rule;
  });
  const toShape = resolve(targetTop, target).shape;
  const toFields = fieldsOf(toShape.kind === "object" ? toShape : undefined);
  const fromShape = top.shape.kind === "object" ? top.shape : undefined;
  if (!fromShape) return null;
  // Below the top level the walk would drop fields the target lacks; the shortcut is taken only
  // for values that have none of them (and never where one lies under an array or a union).
  const compared = new Set<string>();
  const nested: string[][] = [];
  for (const p of fromShape.properties) {
    const counterpart = toFields.get(p.name);
    if (counterpart && !droppedFields(p.type, counterpart.type, source, target, [p.name], nested, compared))
      return null;
    // A hook below the top level runs in the walk only: a value with something there takes the walk
    // (e.g. tools/call's inputResponses, whose sampling results hold tool results with a hook).
    if (counterpart) hookedPaths(p.type, source, plan, [p.name], nested, new Set());
  }
  const dropped = fromShape.properties.filter((p) => !toFields.has(p.name));
  const context: RuleContext = {
    from: source,
    to: target,
    ...(top.name ? { type: top.name } : {}),
    path: `/${what}`,
    change: () => {
      throw SHORTCUT_CHANGED; // a hook that changes something: take the walk instead
    },
  };
  return {
    check,
    hooks,
    context,
    drop: dropped.map((p) => p.name),
    owners: dropped.map((p) => p.owner),
    nested,
    to: plan.to,
  };
}

const SHORTCUT_CHANGED = new Error("mcpgen.shims.shortcut-changed");

function takeShortcut(shortcut: Shortcut, value: unknown, what: "params" | "result", changes: ShimChange[]): unknown {
  if (!isObject(value) || !test(shortcut.check, value)) return NOT_TAKEN;
  for (const path of shortcut.nested) if (hasPath(value, path)) return NOT_TAKEN;
  try {
    for (const hook of shortcut.hooks) if (hook(value, shortcut.context) !== value) return NOT_TAKEN;
  } catch (error) {
    if (error === SHORTCUT_CHANGED) return NOT_TAKEN;
    throw error;
  }
  let dropping = false;
  for (let i = 0; i < shortcut.drop.length; i++) {
    const key = shortcut.drop[i]!;
    if (value[key] === undefined) continue;
    dropping = true;
    changes.push({
      path: `/${what}/${escape(key)}`,
      change: "dropped",
      detail: `${shortcut.owners[i]}.${key} does not exist in ${shortcut.to}`,
    });
  }
  if (!dropping) return value;
  // A copy without the dropped members (delete would turn the object into a slow dictionary).
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (!shortcut.drop.includes(key)) out[key] = value[key];
  return out;
}

/**
 * Where, below a value of `from`, the walk would drop a declared field `to`
 * lacks: each such field's path of keys, collected into `out`. Returns false
 * when one lies under an array or a union, where a path cannot name it.
 */
function droppedFields(
  from: Shape,
  to: Shape,
  source: RevisionShapes,
  target: RevisionShapes,
  path: readonly string[],
  out: string[][],
  compared: Set<string>,
  underCollection = false,
): boolean {
  if (from.kind === "reference") {
    // A named type compared once per shortcut; recursion through it would only repeat the answer.
    const key = `${from.name} ${path.length} ${underCollection}`;
    if (compared.has(key)) return true;
    compared.add(key);
  }
  const f = resolve(from, source).shape;
  const t = resolve(to, target).shape;
  if (f.kind === "object" && t.kind === "object") {
    const targetFields = fieldsOf(t);
    for (const p of f.properties) {
      const counterpart = targetFields.get(p.name);
      if (!counterpart) {
        if (underCollection) return false;
        out.push([...path, p.name]);
        continue;
      }
      if (!droppedFields(p.type, counterpart.type, source, target, [...path, p.name], out, compared, underCollection))
        return false;
    }
    return true;
  }
  if (f.kind === "union" && t.kind === "union") {
    const targetMembers = membersOf(t, target);
    for (const member of membersOf(f, source)) {
      const counterpart = member.name ? targetMembers.find((m) => m.name === member.name) : undefined;
      if (counterpart && !droppedFields(member.shape, counterpart.shape, source, target, path, out, compared, true))
        return false;
    }
    return true;
  }
  if (f.kind === "array" && t.kind === "array")
    return droppedFields(f.element, t.element, source, target, path, out, compared, true);
  return true;
}

/**
 * Where, below a value of `shape`, a type with a hook of the plan lies: each
 * such place's path of keys, into `out`. Under an array, a union, an index
 * signature or a recursive type a path cannot name the place, so the path of
 * the collection itself is given (a value with anything there takes the walk).
 */
function hookedPaths(
  shape: Shape,
  source: RevisionShapes,
  plan: StepPlan,
  path: readonly string[],
  out: string[][],
  visiting: Set<string>,
): void {
  const reachesHook = (s: Shape) => {
    const reached = new Set<string>();
    reachableTypes(s, source, reached);
    for (const name of reached) if (plan.hooks[name]) return true;
    return false;
  };
  if (shape.kind === "reference") {
    if (plan.hooks[shape.name] || (visiting.has(shape.name) && reachesHook(shape))) {
      out.push([...path]);
      return;
    }
    if (visiting.has(shape.name)) return;
    const named = source.types[shape.name];
    if (!named) return;
    visiting.add(shape.name);
    hookedPaths(named, source, plan, path, out, visiting);
    visiting.delete(shape.name);
    return;
  }
  if (shape.kind === "object") {
    for (const p of shape.properties) hookedPaths(p.type, source, plan, [...path, p.name], out, visiting);
    if (shape.indexSignature && reachesHook(shape.indexSignature)) out.push([...path]);
    return;
  }
  if (reachesHook(shape)) out.push([...path]);
}

/** Whether a value has a member at a path of keys. */
function hasPath(value: Record<string, unknown>, path: readonly string[]): boolean {
  let node: unknown = value;
  for (const key of path) {
    if (!isObject(node) || node[key] === undefined) return false;
    node = node[key];
  }
  return true;
}

/** Every type name a shape reaches through references, fields, members and elements. */
function reachableTypes(shape: Shape, revision: RevisionShapes, seen: Set<string>): void {
  switch (shape.kind) {
    case "reference": {
      if (seen.has(shape.name)) return;
      seen.add(shape.name);
      const named = revision.types[shape.name];
      if (named) reachableTypes(named, revision, seen);
      return;
    }
    case "union":
    case "intersection":
      for (const member of shape.members) reachableTypes(member, revision, seen);
      return;
    case "array":
      reachableTypes(shape.element, revision, seen);
      return;
    case "tuple":
      for (const element of shape.elements) reachableTypes(element, revision, seen);
      return;
    case "object":
      for (const p of shape.properties) reachableTypes(p.type, revision, seen);
      if (shape.indexSignature) reachableTypes(shape.indexSignature, revision, seen);
      return;
    default:
      return;
  }
}

/** One value's walk along a source shape and a target shape, within one step. */
class Walk {
  constructor(
    private readonly tables: ShimTables,
    private readonly plan: StepPlan,
    private readonly source: RevisionShapes,
    private readonly target: RevisionShapes,
    private readonly changes: ShimChange[],
    /** Pointer of the converted value within the message ("/params", "/result"). */
    private readonly base: string,
  ) {}

  /** The plan's default for a field the target requires and the value lacks; a ShimError when there is none. */
  defaulted(key: string, at: string): unknown {
    const fallback = this.plan.defaults[key];
    if (!fallback)
      throw new ShimError(
        `${key} is required in ${this.plan.to} and the ${this.plan.from} value has none`,
        this.plan.from,
        this.plan.to,
        this.base + at,
      );
    if ("refuse" in fallback) throw new ShimError(fallback.refuse, this.plan.from, this.plan.to, this.base + at);
    const value = this.materialize(fallback);
    this.change("defaulted", `${key} is required in ${this.plan.to}: set to ${JSON.stringify(value)}`, at);
    return value;
  }

  /** Converts a message's params or result. */
  convertField(value: unknown, from: FieldShape | undefined, to: FieldShape | undefined): unknown {
    return this.convert(value, from?.shape ?? ANY, to?.shape ?? ANY, "", to?.field ?? "");
  }

  /**
   * Converts a value of shape `from` (source) to shape `to` (target). `field`
   * is the target field key the value is for, which narrowing rules go by.
   */
  convert(value: unknown, from: Shape, to: Shape, at: string, field = ""): unknown {
    const source = this.resolve(from, this.source);
    const target = this.resolve(to, this.target);
    if (source.shape.kind === "union" && target.shape.kind !== "union") {
      // A union reaching a single type: as a union conversion whose target has one member.
      return this.union(value, source, { shape: { kind: "union", members: [to] } }, at, field);
    }
    let current = value;
    for (const hook of source.name ? (this.plan.hooks[source.name] ?? []) : [])
      current = this.rule(hook, current, at, source.name);
    const narrowing = field ? this.plan.narrowing[field] : undefined;
    if (narrowing) {
      const fitsAlready = fits(current, target.shape, this.target);
      if (!fitsAlready) return this.memberRule(narrowing, field, current, at);
    }
    if (isAny(target.shape)) return current;
    switch (target.shape.kind) {
      case "union":
        return this.union(current, source, target, at, field);
      case "object":
        return this.object(current, source.shape, target.shape, at, field);
      case "array":
        return this.array(current, source.shape, target.shape, at, field);
      default:
        return this.leaf(current, source, target, at);
    }
  }

  private union(value: unknown, source: Resolved, target: Resolved, at: string, field: string): unknown {
    const sourceMembers = source.shape.kind === "union" ? this.members(source.shape, this.source) : [source];
    const targetMembers = this.members(target.shape as Shape & { kind: "union" }, this.target);
    const member = sourceMembers.find((m) => is(value, m, this.source)) ?? sourceMembers[0]!;
    // The same member by name (or renamed), else a member that takes the value as it is.
    const name = member.name && (this.plan.renames[member.name] ?? member.name);
    const counterpart =
      (name ? targetMembers.find((m) => m.name === name) : undefined) ??
      targetMembers.find((m) => is(value, m, this.target));
    // By name where there is one, so that hooks on the member's type run.
    const shape = (r: Resolved): Shape => (r.name ? { kind: "reference", name: r.name } : r.shape);
    if (counterpart) return this.convert(value, shape(member), shape(counterpart), at, field);
    const key = member.name ?? JSON.stringify(value);
    return this.memberRule(this.plan.members[key], key, value, at);
  }

  private object(value: unknown, from: Shape, to: Shape & { kind: "object" }, at: string, field: string): unknown {
    if (!isObject(value)) return value;
    const fromShape = this.objectShape(from, this.source);
    const fromFields = fieldsOf(fromShape);
    const toFields = fieldsOf(to);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const targetField = toFields.get(key);
      const sourceField = fromFields.get(key);
      const child = `${at}/${escape(key)}`;
      if (targetField) {
        const converted = this.convert(
          value[key],
          sourceField?.type ?? fromShape?.indexSignature ?? ANY,
          targetField.type,
          child,
          `${targetField.owner}.${key}`,
        );
        if (converted !== DROP) out[key] = converted;
      } else if (sourceField && !(to.indexSignature && this.plan.kept?.includes(`${sourceField.owner}.${key}`))) {
        this.change("dropped", `${sourceField.owner}.${key} does not exist in ${this.plan.to}`, child);
      } else if (to.indexSignature) {
        // Not declared by the target: an index-signature entry (or a field the plan keeps, e.g.
        // 2025-11-25's Tool.outputSchema.type under 2026-07-28's open schema object).
        const converted = this.convert(
          value[key],
          sourceField?.type ?? fromShape?.indexSignature ?? ANY,
          to.indexSignature,
          child,
          `${field}[key]`,
        );
        if (converted !== DROP) out[key] = converted;
      } else {
        out[key] = value[key]; // an extension: interfaces are open
      }
    }
    for (const field of to.properties) {
      if (field.optional || out[field.name] !== undefined) continue;
      out[field.name] = this.defaulted(`${field.owner}.${field.name}`, `${at}/${escape(field.name)}`);
    }
    return out;
  }

  private array(value: unknown, from: Shape, to: Shape & { kind: "array" }, at: string, field: string): unknown {
    if (!Array.isArray(value)) return value;
    const fromShape = this.resolve(from, this.source).shape;
    const element = fromShape.kind === "array" ? fromShape.element : ANY;
    const out: unknown[] = [];
    for (const item of value) {
      const converted = this.convert(item, element, to.element, `${at}/${out.length}`, `${field}[]`);
      if (converted !== DROP) out.push(converted);
    }
    return out;
  }

  private leaf(value: unknown, source: Resolved, target: Resolved, at: string): unknown {
    if (fits(value, target.shape, this.target)) return value;
    const key = typeof value === "object" ? (source.name ?? "value") : JSON.stringify(value);
    return this.memberRule(this.plan.members[key], key, value, at);
  }

  private memberRule(rule: MemberRule | undefined, key: string, value: unknown, at: string): unknown {
    if (!rule)
      throw new ShimError(`${key} has no counterpart in ${this.plan.to}`, this.plan.from, this.plan.to, this.base + at);
    if ("refuse" in rule) throw new ShimError(rule.refuse, this.plan.from, this.plan.to, this.base + at);
    return this.rule(rule.rule, value, at);
  }

  private rule(name: string, value: unknown, at: string, type?: string): unknown {
    const rule = this.tables.rules[name];
    if (!rule) throw new Error(`mcpgen: the shim rule ${name} is not in runtime/shim-rules.ts`);
    return rule(value, {
      from: this.source,
      to: this.target,
      ...(type ? { type } : {}),
      path: this.base + at,
      change: (change, detail, below = "") => this.change(change, detail, at + below),
    });
  }

  private change(change: ShimChange["change"], detail: string, at: string): void {
    this.changes.push({ path: this.base + at, change, detail });
  }

  private materialize(value: DefaultValue): unknown {
    if ("value" in value) return JSON.parse(JSON.stringify(value.value)); // defaults are JSON values
    if ("context" in value) return this.target.protocolVersion;
    if ("refuse" in value) throw new ShimError(value.refuse, this.plan.from, this.plan.to, this.base);
    return Object.fromEntries(Object.entries(value.object).map(([k, v]) => [k, this.materialize(v)]));
  }

  private resolve(shape: Shape, revision: RevisionShapes): Resolved {
    return resolve(shape, revision);
  }

  private members(union: Shape & { kind: "union" }, revision: RevisionShapes): Resolved[] {
    return membersOf(union, revision);
  }

  private objectShape(shape: Shape, revision: RevisionShapes): (Shape & { kind: "object" }) | undefined {
    const r = resolve(shape, revision).shape;
    return r.kind === "object" ? r : undefined;
  }
}

const fieldMaps = new WeakMap<Shape, Map<string, ShapeProperty>>();
const noFields = new Map<string, ShapeProperty>();

/** An object shape's fields by name (cached: shapes are immutable). */
function fieldsOf(shape: (Shape & { kind: "object" }) | undefined): Map<string, ShapeProperty> {
  if (!shape) return noFields;
  let fields = fieldMaps.get(shape);
  if (!fields) fieldMaps.set(shape, (fields = new Map(shape.properties.map((p) => [p.name, p]))));
  return fields;
}

const unionMembers = new WeakMap<RevisionShapes, WeakMap<Shape, Resolved[]>>();

/** A union's members, unions among them spread, each resolved (cached). */
function membersOf(union: Shape & { kind: "union" }, revision: RevisionShapes): Resolved[] {
  let cache = unionMembers.get(revision);
  if (!cache) unionMembers.set(revision, (cache = new WeakMap()));
  let members = cache.get(union);
  if (!members) {
    members = union.members.flatMap((m) => {
      const r = resolve(m, revision);
      return r.shape.kind === "union" ? membersOf(r.shape, revision) : [r];
    });
    cache.set(union, members);
  }
  return members;
}

interface Resolved {
  shape: Shape;
  /** The last type name on the way (for union members and hooks). */
  name?: string;
}

/** Per revision, per shape object: what resolve() found. Shapes are immutable data, so this never goes stale. */
const resolved = new WeakMap<RevisionShapes, WeakMap<Shape, Resolved>>();

/** Follows references; an intersection of object types becomes one object. */
export function resolve(shape: Shape, revision: RevisionShapes): Resolved {
  let cache = resolved.get(revision);
  if (!cache) resolved.set(revision, (cache = new WeakMap()));
  let found = cache.get(shape);
  if (!found) cache.set(shape, (found = resolveUncached(shape, revision)));
  return found;
}

function resolveUncached(shape: Shape, revision: RevisionShapes, seen = 0): Resolved {
  let name: string | undefined;
  let current = shape;
  while (current.kind === "reference" && seen++ < 64) {
    name = current.name;
    current = revision.types[current.name] ?? ANY;
  }
  if (current.kind === "intersection") {
    const parts = current.members.map((m) => resolve(m, revision).shape);
    if (parts.every((p) => p.kind === "object")) {
      const properties: ShapeProperty[] = [];
      let indexSignature: Shape | undefined;
      for (const part of parts as (Shape & { kind: "object" })[]) {
        for (const p of part.properties) if (!properties.some((q) => q.name === p.name)) properties.push(p);
        indexSignature ??= part.indexSignature;
      }
      current = { kind: "object", properties, ...(indexSignature ? { indexSignature } : {}) };
    }
  }
  return { shape: current, ...(name ? { name } : {}) };
}

function isAny(shape: Shape): boolean {
  return shape.kind === "keyword" && (shape.keyword === "unknown" || shape.keyword === "any");
}

/** Whether a value is of a union member: by the generated check of a named type, else structurally. */
function is(value: unknown, member: Resolved, revision: RevisionShapes): boolean {
  const check = member.name ? revision.checks[member.name] : undefined;
  return check ? test(check, value) : fits(value, member.shape, revision);
}

/** Whether a value already has a shape (structurally: for anonymous types; named ones go by their checks). */
export function fits(value: unknown, shape: Shape, revision: RevisionShapes, depth = 0): boolean {
  if (depth > 64) return true;
  const s = resolve(shape, revision).shape;
  switch (s.kind) {
    case "keyword":
      switch (s.keyword) {
        case "string":
        case "number":
        case "boolean":
          return typeof value === s.keyword;
        case "null":
          return value === null;
        case "object":
          return isObject(value);
        case "never":
        case "undefined":
          return false;
        default:
          return true;
      }
    case "literal":
      return value === s.value;
    case "union":
      return s.members.some((m) => fits(value, m, revision, depth + 1));
    case "intersection":
      return s.members.every((m) => fits(value, m, revision, depth + 1));
    case "array":
      return Array.isArray(value) && value.every((item) => fits(item, s.element, revision, depth + 1));
    case "tuple":
      return (
        Array.isArray(value) &&
        value.length === s.elements.length &&
        s.elements.every((e, i) => fits(value[i], e, revision, depth + 1))
      );
    case "object": {
      if (!isObject(value)) return false;
      for (const p of s.properties) {
        const v = value[p.name];
        if (v === undefined ? !p.optional : !fits(v, p.type, revision, depth + 1)) return false;
      }
      if (!s.indexSignature) return true;
      return Object.keys(value).every(
        (k) => s.properties.some((p) => p.name === k) || fits(value[k], s.indexSignature!, revision, depth + 1),
      );
    }
    case "reference":
      return true;
  }
}

function escape(key: string): string {
  return pointer([key]).slice(1);
}
