// Each step's shortcuts: for a method's params or result, whether a value the
// target's generated check accepts converts by dropping top-level fields alone,
// and what then to drop, which hooks to run and which deeper paths send a value
// to the walk instead. Computed here from the two revisions' shapes, so that a
// conversion the shortcut covers needs neither revision's shapes at run time
// (runtime/shim-shortcuts.ts applies them; the shapes load only for a walk).
import {
  fieldsOf,
  leavesFittingValues,
  membersOf,
  resolve,
  type FieldShape,
  type Resolved,
  type Shape,
  type ShortcutPlan,
  type StepPlan,
} from "mcpgen/runtime/codegen";

/** One revision's shapes, as generator/shims/shapes.ts builds them. */
export interface ShapeSet {
  readonly types: { readonly [name: string]: Shape };
  readonly params: { readonly [method: string]: FieldShape };
  readonly results: { readonly [method: string]: FieldShape };
}

/** The plan's shortcuts for every method both revisions have, by part and method (sorted); a method without one is absent. */
export function shortcutsOf(
  plan: StepPlan,
  source: ShapeSet,
  target: ShapeSet,
  methods: readonly string[],
): NonNullable<StepPlan["shortcuts"]> {
  const params: Record<string, ShortcutPlan> = {};
  const result: Record<string, ShortcutPlan> = {};
  for (const method of [...methods].sort()) {
    const forParams = shortcutFor(plan, source, target, "params", method);
    if (forParams) params[method] = forParams;
    const forResult = shortcutFor(plan, source, target, "result", method);
    if (forResult) result[method] = forResult;
  }
  return { params, result };
}

/**
 * A value the target's generated check accepts needs no default (its required
 * fields are there), no member or narrowing rule (those act only on values the
 * target cannot take) and no rename; what remains are the semantic hooks, which
 * run on values that fit too. When the value has nothing where a hook lies below
 * the top-level type and the top-level hooks leave it as it is, the conversion
 * is: drop the top-level fields the source declares and the target does not.
 */
function shortcutFor(
  plan: StepPlan,
  source: ShapeSet,
  target: ShapeSet,
  what: "params" | "result",
  method: string,
): ShortcutPlan | null {
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
  // Every schema type has a generated check (generated/<rev>/tables.ts), the judge the shortcut needs.
  if (!top || name === undefined || !Object.prototype.hasOwnProperty.call(target.types, name)) return null;
  const toShape = resolve({ kind: "reference", name }, target).shape;
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
  return {
    check: name,
    ...(top.name ? { type: top.name } : {}),
    // A hook that leaves every value the target's check accepts as it is need not run (runtime/shim-rules.ts).
    hooks: (top.name ? (plan.hooks[top.name] ?? []) : []).filter((rule) => !leavesFittingValues[rule]?.(toShape)),
    drop: fromShape.properties.filter((p) => !toFields.has(p.name)).map((p) => ({ field: p.name, owner: p.owner })),
    nested,
  };
}

/**
 * Where, below a value of `from`, the walk would drop a declared field `to`
 * lacks: each such field's path of keys, collected into `out`. Returns false
 * when one lies under an array or a union, where a path cannot name it.
 */
function droppedFields(
  from: Shape,
  to: Shape,
  source: ShapeSet,
  target: ShapeSet,
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
  source: ShapeSet,
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

/** Every type name a shape reaches through references, fields, members and elements. */
function reachableTypes(shape: Shape, revision: ShapeSet, seen: Set<string>): void {
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
