// Converting messages between protocol revisions. Generated data drives it
// (generated/shims/): each revision's type shapes, and for every adjacent pair
// of revisions an upgrade and a downgrade plan derived from their diff and the
// reviewed shim overlay. A value is walked along the source and target shapes
// (shim-walk.ts), one step at a time, unless the step's shortcut for the method
// (planned by the generator, taken in shim-shortcuts.ts) shows the walk would
// change nothing but top-level fields; the shapes are built on a walk's first
// read (revisionShapes). The walk:
// - a field the source declares and the target does not is dropped, unless the
//   plan keeps it (the target's object became open: its index signature takes it);
// - a field the target requires and the value lacks is filled from the plan's
//   default (or the conversion fails: nothing is invented without a rule);
// - a union member or literal the target lacks goes through the plan's rule;
// - everything else is copied, unknown extra properties included.
// Each loss or invention is reported as a change, so that a runtime can log it.
import { classifyMessage } from "./messages.js";
import {
  ShimError,
  type ConvertOptions,
  type Converted,
  type RevisionShapes,
  type ShimChange,
  type ShimTables,
  type StepPlan,
} from "./shim-data.js";
import { NOT_TAKEN, shortcutFor, takeShortcut, type Shortcut } from "./shim-shortcuts.js";
import { Walk } from "./shim-walk.js";
import type { Check } from "./validation.js";

export * from "./shim-data.js";
export {
  fieldsOf,
  fits,
  membersOf,
  resolve,
  revisionShapes,
  type Resolved,
  type ShapeBuilders,
} from "./shim-shapes.js";

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
    if (taken !== NOT_TAKEN) return { message: taken, changes, checked: shortcut!.check };
  }
  return { message: walkPart(rules, plan, source, target, what, method, value, changes), changes };
}

/** A method's params or result walked along the source and target shapes in one step (no shortcut). */
function walkPart(
  rules: ShimTables["rules"],
  plan: StepPlan,
  source: RevisionShapes,
  target: RevisionShapes,
  what: "params" | "result",
  method: string,
  value: unknown,
  changes: ShimChange[],
): unknown {
  if (value === undefined) return undefined;
  const tables: ShimTables = { revisions: [source, target], steps: [], rules };
  const walk = new Walk(tables, plan, source, target, changes, `/${what}`);
  const table = what === "params" ? "params" : "results";
  return walk.convertField(value, source[table][method], target[table][method]);
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
  const steps = stepsOf(tables, what, method, options.from, options.to);
  // One step (adjacent revisions, a 2025-11-25 client of a 2026-07-28 handler): its errors name the
  // conversion asked for already.
  if (steps.length === 1) return convertSteps(tables.rules, what, method, value, steps);
  try {
    return convertSteps(tables.rules, what, method, value, steps);
  } catch (error) {
    if (error instanceof ShimError && (error.from !== options.from || error.to !== options.to))
      throw new ShimError(error.reason, options.from, options.to, error.path);
    throw error;
  }
}

/** A method's params or result through its steps, each by its shortcut when it applies, else walked. */
function convertSteps(
  rules: ShimTables["rules"],
  what: "params" | "result",
  method: string,
  value: unknown,
  steps: readonly PartStep[],
): Converted {
  const changes: ShimChange[] = [];
  let current = value;
  // What the last step checked is what the message passed at the target revision.
  let checked: Check | undefined;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.missing !== undefined) throw new ShimError(step.missing, step.plan.from, step.plan.to, step.missingAt);
    checked = undefined;
    if (current !== undefined && step.shortcut) {
      const taken = takeShortcut(step.shortcut, current, what, changes);
      if (taken !== NOT_TAKEN) {
        current = taken;
        checked = step.shortcut.check;
        continue;
      }
    }
    current = walkPart(rules, step.plan, step.source, step.target, what, method, current, changes);
  }
  return checked ? { message: current, changes, checked } : { message: current, changes };
}

interface RouteStep {
  readonly plan: StepPlan;
  readonly source: RevisionShapes;
  readonly target: RevisionShapes;
}

/** The steps between two revisions, with what each needs to convert one method's params or result. */
interface Route {
  readonly steps: readonly RouteStep[];
  readonly parts: {
    readonly params: Map<string, readonly PartStep[]>;
    readonly result: Map<string, readonly PartStep[]>;
  };
}

/** A step of a method's params or result: its shortcut, or why the method cannot go that way. */
interface PartStep extends RouteStep {
  readonly shortcut: Shortcut | null;
  /** The target revision lacks the method: converting through this step fails with this reason, at missingAt. */
  readonly missing: string | undefined;
  readonly missingAt: string;
}

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
    found = {
      steps: path(tables, from, to).map((plan) => ({
        plan,
        source: revision(tables, plan.from),
        target: revision(tables, plan.to),
      })),
      parts: { params: new Map(), result: new Map() },
    };
    byTo.set(to, found);
  }
  return found;
}

/** The last steps asked for in one direction, and what they were asked for. */
interface LastSteps {
  tables: ShimTables | undefined;
  from: string;
  to: string;
  method: string;
  steps: readonly PartStep[];
}

const lastParams: LastSteps = { tables: undefined, from: "", to: "", method: "", steps: [] };
const lastResult: LastSteps = { tables: undefined, from: "", to: "", method: "", steps: [] };

/**
 * A method's params or result steps between two revisions. A server converts
 * the same method between the same two revisions call after call (a session's
 * up and down are one pair), so the last answer per direction is kept: four
 * comparisons instead of the WeakMap and three Map lookups of route and partSteps.
 */
function stepsOf(
  tables: ShimTables,
  what: "params" | "result",
  method: string,
  from: string,
  to: string,
): readonly PartStep[] {
  const last = what === "params" ? lastParams : lastResult;
  if (last.tables === tables && last.method === method && last.from === from && last.to === to) return last.steps;
  const steps = partSteps(tables.rules, route(tables, from, to), what, method);
  last.tables = tables;
  last.from = from;
  last.to = to;
  last.method = method;
  last.steps = steps;
  return steps;
}

/** A method's steps along a route, resolved on its first conversion (one Map lookup after that). */
function partSteps(
  rules: ShimTables["rules"],
  found: Route,
  what: "params" | "result",
  method: string,
): readonly PartStep[] {
  const cache = found.parts[what];
  let steps = cache.get(method);
  if (!steps) {
    steps = found.steps.map((step) => {
      const exists = Object.hasOwn(step.target.methods, method);
      return {
        ...step,
        shortcut: exists ? shortcutFor(rules, step.plan, step.source, step.target, what, method) : null,
        missing: exists ? undefined : `${method} does not exist in ${step.plan.to}`,
        missingAt: what === "params" ? "/method" : "",
      };
    });
    cache.set(method, steps);
  }
  return steps;
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
  const entry = Object.hasOwn(target.methods, method) ? target.methods[method] : undefined;
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
