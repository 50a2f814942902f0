// generated/shims/: converting messages between revisions.
//   <rev>.ts        the revision's shapes (its types as data, built on their first read) and tables
//   <a>--<b>.ts     one adjacent step: the upgrade and downgrade plans (with each method's
//                   shortcut), how each diff entry is covered (for review), and a function per
//                   message kind and direction
//   index.ts        convert(message, { from, to, method }) over the chain of revisions
// The shapes and plans are data: JSON.parse of one string each, declared with
// their runtime types (nothing reads their literal types).
import { diffRevisions } from "../diff/diff.js";
import type { RevisionModel } from "../model/types.js";
import { planStep, type PlannedStep, type ShimOverlay } from "../shims/plan.js";
import { shapesOf } from "../shims/shapes.js";
import { shortcutsOf } from "../shims/shortcuts.js";
import { codegen, type GeneratedFile } from "./printer.js";

/** A revision name as part of an identifier: 2025-06-18 → r2025_06_18. */
export const moduleName = (revision: string) => `r${revision.replace(/[^A-Za-z0-9]/g, "_")}`;
export const stepFile = (older: string, newer: string) => `${older}--${newer}`;

export function emitShapes(file: GeneratedFile, model: RevisionModel): void {
  const { types, params, results } = shapesOf(model);
  const shapesType = file.importType(codegen, "RevisionShapes");
  file.printJson("const types", types, { returns: `${shapesType}["types"]` });
  file.printJson("const params", params, { returns: `${shapesType}["params"]` });
  file.printJson("const results", results, { returns: `${shapesType}["results"]` });
  file.print(`
    /**
     * Revision ${model.revision} as the message converter sees it: every type's shape, and each
     * method's params and result. The shapes are built on their first read, by a walk: a
     * conversion a step's shortcut covers needs only the checks.
     */
    export const shapes: ${shapesType} = ${file.importValue(codegen, "revisionShapes")}(
      {
        revision: ${JSON.stringify(model.revision)},
        protocolVersion: ${JSON.stringify(model.facts.protocolVersion)},
        envelope: ${file.importValue(`../${model.revision}/tables.js`, "envelope")},
        methods: ${file.importValue(`../${model.revision}/methods.js`, "methods")},
        checks: ${file.importValue(`../${model.revision}/tables.js`, "messageTables")}.checks,
      },
      { types, params, results },
    );
  `);
}

/** Plans one adjacent step, with each direction's shortcuts; the caller decides what uncovered entries mean. */
export function planAdjacent(older: RevisionModel, newer: RevisionModel, overlay: ShimOverlay): PlannedStep {
  const step = planStep(older, newer, diffRevisions(older, newer), overlay);
  const [a, b] = [shapesOf(older), shapesOf(newer)];
  const shared = (source: RevisionModel, target: RevisionModel) =>
    source.methods.filter((m) => target.methods.some((t) => t.name === m.name)).map((m) => m.name);
  return {
    ...step,
    upgrade: { ...step.upgrade, shortcuts: shortcutsOf(step.upgrade, a, b, shared(older, newer)) },
    downgrade: { ...step.downgrade, shortcuts: shortcutsOf(step.downgrade, b, a, shared(newer, older)) },
  };
}

export function emitStep(file: GeneratedFile, older: RevisionModel, newer: RevisionModel, step: PlannedStep): void {
  const plan = file.importType(codegen, "StepPlan");
  const convertStep = file.importValue(codegen, "convertStep");
  const rules = file.importValue(codegen, "shimRules");
  const a = file.importValue(`./${older.revision}.js`, "shapes", moduleName(older.revision));
  const b = file.importValue(`./${newer.revision}.js`, "shapes", moduleName(newer.revision));
  const handled = (direction: "upgrade" | "downgrade") =>
    step.coverage
      .filter((c) => c.direction === direction)
      .map((c) => ` * - ${c.id}: ${c.by === "generic" ? "" : `[${c.by}] `}${c.how}`.replace(/\*\//g, "*\\/"));
  const comment = (lines: string[]) => ["/**", ...lines, " */"].join("\n");
  file.printJson(`export const upgrade: ${plan}`, step.upgrade, {
    comment: comment([
      ` * ${older.revision} → ${newer.revision}, derived from the diff of the two revisions and`,
      " * generator/overlay/shims.ts. How each diff entry is handled:",
      ...handled("upgrade"),
    ]),
  });
  file.printJson(`export const downgrade: ${plan}`, step.downgrade, {
    comment: comment([
      ` * ${newer.revision} → ${older.revision}. How each diff entry is handled:`,
      ...handled("downgrade"),
    ]),
  });
  /** Each method's converters (its params, and its result for a request), an object a method. */
  const converters = (
    source: RevisionModel,
    target: RevisionModel,
    direction: "upgrade" | "downgrade",
    from: string,
    to: string,
  ): string =>
    source.methods
      .filter((m) => target.methods.some((t) => t.name === m.name))
      .map((m) => {
        const member = (what: string) =>
          `${what}: (${what}: unknown) => ${convertStep}(${rules}, ${direction}, ${from}, ${to}, ${JSON.stringify(what)}, ${JSON.stringify(m.name)}, ${what}),`;
        return `${JSON.stringify(m.name)}: {\n${member("params")}\n${m.result ? `${member("result")}\n` : ""}},`;
      })
      .join("\n");
  file.print(`
    /** Per message kind, ${older.revision} → ${newer.revision}: each method's params, and each request's result. */
    export const upgradeMessages = {
      ${converters(older, newer, "upgrade", a, b)}
    };
  `);
  file.print(`
    /** Per message kind, ${newer.revision} → ${older.revision}. */
    export const downgradeMessages = {
      ${converters(newer, older, "downgrade", b, a)}
    };
  `);
}

export function emitShimIndex(file: GeneratedFile, models: readonly RevisionModel[]): void {
  const shapes = models.map((m) => file.importValue(`./${m.revision}.js`, "shapes", moduleName(m.revision)));
  const steps = models.slice(1).map((newer, i) => {
    const older = models[i]!;
    const module = `./${stepFile(older.revision, newer.revision)}.js`;
    const suffix = `${moduleName(older.revision)}_${moduleName(newer.revision)}`;
    const up = file.importValue(module, "upgrade", `upgrade_${suffix}`);
    const down = file.importValue(module, "downgrade", `downgrade_${suffix}`);
    return `{ upgrade: ${up}, downgrade: ${down} }`;
  });
  const options = file.importType(codegen, "ConvertOptions");
  const converted = file.importType(codegen, "Converted");
  file.print(`
    export { ShimError } from "mcpgen/runtime/codegen";

    /** The revisions convert() knows, oldest first. */
    export const revisions = ${JSON.stringify(models.map((m) => m.revision))} as const;

    /** Every revision's shapes and every adjacent step's plans. */
    export const shimTables: ${file.importType(codegen, "ShimTables")} = {
      revisions: [${shapes.join(", ")}],
      steps: [${steps.join(", ")}],
      rules: ${file.importValue(codegen, "shimRules")},
    };

    /**
     * Converts a whole JSON-RPC message (request, notification, result or error
     * response) from one revision to another. For a response, \`method\` names the
     * request it answers. Returns the message and what was dropped, defaulted or
     * mapped on the way; throws ShimError when the target cannot express it.
     */
    export function convert(message: unknown, options: ${options}): ${converted} {
      return ${file.importValue(codegen, "convertMessage")}(shimTables, message, options);
    }

    /** Converts a method's params (undefined when the message has none). */
    export function convertParams(method: string, params: unknown, options: Omit<${options}, "method">): ${converted} {
      return ${file.importValue(codegen, "convertParams", "convertParamsWith")}(shimTables, method, params, options);
    }

    /** Converts a request's result. */
    export function convertResult(method: string, result: unknown, options: Omit<${options}, "method">): ${converted} {
      return ${file.importValue(codegen, "convertResult", "convertResultWith")}(shimTables, method, result, options);
    }
  `);
}
