// The way around the walk for a method's params or result (see Shortcut).
import type { RevisionShapes, RuleContext, ShimChange, ShimTables, ShimRule, StepPlan } from "./shim-data.js";
import { escape } from "./shim-shapes.js";
import { isObject, test, type Check } from "./validation.js";

/**
 * A way around the walk for a method's params or result in one step: the
 * step's generated ShortcutPlan (generator/shims/shortcuts.ts says when one
 * exists) with its check and rules looked up. Taking it reads neither
 * revision's shapes, so a session whose conversions all take shortcuts never
 * builds them. This keeps the common case (a small result, a call's params)
 * at one generated check.
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
    found = materialize(rules, plan, source, target, what, method);
    cache.set(method, found);
  }
  return found;
}

function materialize(
  rules: ShimTables["rules"],
  plan: StepPlan,
  source: RevisionShapes,
  target: RevisionShapes,
  what: "params" | "result",
  method: string,
): Shortcut | null {
  const planned = plan.shortcuts?.[what];
  const facts = planned && Object.hasOwn(planned, method) ? planned[method] : undefined;
  const check = facts ? target.checks[facts.check] : undefined;
  if (!facts || !check) return null;
  const hooks = facts.hooks.map((name) => {
    const rule = rules[name];
    if (!rule) throw new Error(`mcpgen: the shim rule ${name} is not in runtime/shim-rules.ts`);
    return rule;
  });
  const context: RuleContext = {
    from: source,
    to: target,
    ...(facts.type !== undefined ? { type: facts.type } : {}),
    path: `/${what}`,
    change: () => {
      throw SHORTCUT_CHANGED; // a hook that changes something: take the walk instead
    },
  };
  return {
    check,
    hooks,
    context,
    drop: facts.drop.map((d) => d.field),
    owners: facts.drop.map((d) => d.owner),
    nested: facts.nested,
    to: plan.to,
  };
}

// A sentinel, thrown and caught here only; not an Error, whose stack V8 captures when it is made
// (and Node 22's startup snapshot builder crashes on an Error in the heap whose stack was never read).
const SHORTCUT_CHANGED = Symbol("mcpgen.shims.shortcut-changed");

export function takeShortcut(
  shortcut: Shortcut,
  value: unknown,
  what: "params" | "result",
  changes: ShimChange[],
): unknown {
  if (!isObject(value) || !test(shortcut.check, value)) return NOT_TAKEN;
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
