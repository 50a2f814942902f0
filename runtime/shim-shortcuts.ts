// The way around the walk for a method's params or result (see Shortcut).
import type { RevisionShapes, RuleContext, Shape, ShimChange, ShimRule, ShimTables, StepPlan } from "./shim-data.js";
import { escape, fieldsOf, membersOf, resolve, type Resolved } from "./shim-shapes.js";
import { isObject, test, type Check } from "./validation.js";

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
export interface Shortcut {
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

export const NOT_TAKEN: unique symbol = Symbol("mcpgen.shims.not-taken");
const shortcuts = new WeakMap<
  StepPlan,
  { readonly params: Map<string, Shortcut | null>; readonly result: Map<string, Shortcut | null> }
>();

export function shortcutFor(
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

export function takeShortcut(
  shortcut: Shortcut,
  value: unknown,
  what: "params" | "result",
  changes: ShimChange[],
): unknown {
  if (!isObject(value) || !test(shortcut.check, value)) return NOT_TAKEN;
  // Indexed loops, and no try block without hooks: this runs twice a converted request (counted: ~150 instructions a call).
  const { nested, hooks } = shortcut;
  for (let i = 0; i < nested.length; i++) if (hasPath(value, nested[i]!)) return NOT_TAKEN;
  if (hooks.length > 0) {
    try {
      for (let i = 0; i < hooks.length; i++) if (hooks[i]!(value, shortcut.context) !== value) return NOT_TAKEN;
    } catch (error) {
      if (error === SHORTCUT_CHANGED) return NOT_TAKEN;
      throw error;
    }
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
  for (let i = 0; i < path.length; i++) {
    if (!isObject(node)) return false;
    node = node[path[i]!];
    if (node === undefined) return false;
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
