// generated/shims/: converting messages between revisions.
//   <rev>.ts        the revision's shapes (its types as data, built on their first read) and tables
//   <a>--<b>.ts     one adjacent step: the upgrade and downgrade plans (with each method's
//                   shortcut), how each diff entry is covered (for review), and a function per
//                   message kind and direction
//   index.ts        convert(message, { from, to, method }) over the chain of revisions
// The tables are declared with their runtime types, not `as const`: nothing
// reads their literal types, and literal declarations made shims/*.d.ts 2.5 MB
// of the runtime package.
import { diffRevisions } from "../diff/diff.js";
import type { RevisionModel } from "../model/types.js";
import { planStep, type PlannedStep, type ShimOverlay } from "../shims/plan.js";
import { shapesOf } from "../shims/shapes.js";
import { shortcutsOf } from "../shims/shortcuts.js";
import { printKey } from "./data-literal.js";
import { indentWidth, pad, printWidth } from "./prettier-form.js";
import type { GeneratedFile } from "./printer.js";

const runtime = "mcpgen/runtime";

/** A revision name as part of an identifier: 2025-06-18 → r2025_06_18. */
export const moduleName = (revision: string) => `r${revision.replace(/[^A-Za-z0-9]/g, "_")}`;
export const stepFile = (older: string, newer: string) => `${older}--${newer}`;

export function emitShapes(file: GeneratedFile, model: RevisionModel): void {
  const { types, params, results } = shapesOf(model);
  const shapesType = file.importType(runtime, "RevisionShapes");
  file.printData("const types", types, { returns: `${shapesType}["types"]` });
  file.printData("const params", params, { returns: `${shapesType}["params"]` });
  file.printData("const results", results, { returns: `${shapesType}["results"]` });
  file.print(`
    /**
     * Revision ${model.revision} as the message converter sees it: every type's shape, and each
     * method's params and result. The shapes are built on their first read, by a walk: a
     * conversion a step's shortcut covers needs only the checks.
     */
    export const shapes: ${shapesType} = ${file.importValue(runtime, "revisionShapes")}(
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
  const plan = file.importType(runtime, "StepPlan");
  const convertStep = file.importValue(runtime, "convertStep");
  const rules = file.importValue(runtime, "shimRules");
  const a = file.importValue(`./${older.revision}.js`, "shapes", moduleName(older.revision));
  const b = file.importValue(`./${newer.revision}.js`, "shapes", moduleName(newer.revision));
  const handled = (direction: "upgrade" | "downgrade") =>
    step.coverage
      .filter((c) => c.direction === direction)
      .map((c) => ` * - ${c.id}: ${c.by === "generic" ? "" : `[${c.by}] `}${c.how}`.replace(/\*\//g, "*\\/"));
  const comment = (lines: string[]) => ["/**", ...lines, " */"].join("\n");
  file.printData(`export const upgrade: ${plan}`, step.upgrade, {
    comment: comment([
      ` * ${older.revision} → ${newer.revision}, derived from the diff of the two revisions and`,
      " * generator/overlay/shims.ts. How each diff entry is handled:",
      ...handled("upgrade"),
    ]),
  });
  file.printData(`export const downgrade: ${plan}`, step.downgrade, {
    comment: comment([
      ` * ${newer.revision} → ${older.revision}. How each diff entry is handled:`,
      ...handled("downgrade"),
    ]),
  });
  /** Each method's converters: its params, and its result for a request; the call of each as a list of arguments. */
  const kinds = (
    source: RevisionModel,
    target: RevisionModel,
    direction: "upgrade" | "downgrade",
    from: string,
    to: string,
  ): Converters[] =>
    source.methods
      .filter((m) => target.methods.some((t) => t.name === m.name))
      .map((m) => {
        const call = (what: string) => [rules, direction, from, to, JSON.stringify(what), JSON.stringify(m.name), what];
        return {
          method: m.name,
          members: [
            { name: "params", callee: convertStep, args: call("params") },
            ...(m.result ? [{ name: "result", callee: convertStep, args: call("result") }] : []),
          ],
        };
      });
  const declarations: [string, Converters[]][] = [
    [
      `/** Per message kind, ${older.revision} → ${newer.revision}: each method's params, and each request's result. */\nexport const upgradeMessages`,
      kinds(older, newer, "upgrade", a, b),
    ],
    [
      `/** Per message kind, ${newer.revision} → ${older.revision}. */\nexport const downgradeMessages`,
      kinds(newer, older, "downgrade", b, a),
    ],
  ];
  file.print(declarations.map(([head, converters]) => `${head} = ${convertersSource(converters)};`).join("\n\n"), () =>
    declarations.map(([head, converters]) => `${head} = ${convertersLaidOut(converters)};`).join("\n\n"),
  );
}

/** A method's converter functions: `(what: unknown) => callee(...args)` for each member. */
export interface Converters {
  method: string;
  members: { name: string; callee: string; args: string[] }[];
}

/** The object of converters on one line a method (prettier's input). */
export function convertersSource(converters: readonly Converters[]): string {
  const member = (m: Converters["members"][number]) =>
    `${m.name}: (${m.name}: unknown) => ${m.callee}(${m.args.join(", ")})`;
  return `{\n${converters.map((c) => `${JSON.stringify(c.method)}: { ${c.members.map(member).join(", ")} },`).join("\n")}\n}`;
}

/**
 * The object of converters as prettier prints it: a method's object on one
 * line when it fits, else a member a line; a member that does not fit puts
 * its arrow's body on the next line, and a body that does not fit there
 * either takes an argument a line.
 */
export function convertersLaidOut(converters: readonly Converters[]): string {
  const lines = ["{"];
  for (const { method, members } of converters) {
    const key = printKey(method);
    const flat = members.map((m) => `${m.name}: (${m.name}: unknown) => ${m.callee}(${m.args.join(", ")})`);
    const oneLine = `${key}: { ${flat.join(", ")} },`;
    if (indentWidth + oneLine.length <= printWidth) {
      lines.push(pad(indentWidth) + oneLine);
      continue;
    }
    lines.push(`${pad(indentWidth)}${key}: {`);
    members.forEach((m, i) => {
      const at = 2 * indentWidth;
      if (at + flat[i]!.length + 1 <= printWidth) return lines.push(`${pad(at)}${flat[i]},`);
      lines.push(`${pad(at)}${m.name}: (${m.name}: unknown) =>`);
      const body = `${m.callee}(${m.args.join(", ")}),`;
      if (at + indentWidth + body.length <= printWidth) return lines.push(pad(at + indentWidth) + body);
      lines.push(`${pad(at + indentWidth)}${m.callee}(`, ...m.args.map((arg) => `${pad(at + 2 * indentWidth)}${arg},`));
      return lines.push(`${pad(at + indentWidth)}),`);
    });
    lines.push(`${pad(indentWidth)}},`);
  }
  lines.push("}");
  return lines.join("\n");
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
  const options = file.importType(runtime, "ConvertOptions");
  const converted = file.importType(runtime, "Converted");
  file.print(`
    export { ShimError } from "mcpgen/runtime";

    /** The revisions convert() knows, oldest first. */
    export const revisions = ${JSON.stringify(models.map((m) => m.revision))} as const;

    /** Every revision's shapes and every adjacent step's plans. */
    export const shimTables: ${file.importType(runtime, "ShimTables")} = {
      revisions: [${shapes.join(", ")}],
      steps: [${steps.join(", ")}],
      rules: ${file.importValue(runtime, "shimRules")},
    };

    /**
     * Converts a whole JSON-RPC message (request, notification, result or error
     * response) from one revision to another. For a response, \`method\` names the
     * request it answers. Returns the message and what was dropped, defaulted or
     * mapped on the way; throws ShimError when the target cannot express it.
     */
    export function convert(message: unknown, options: ${options}): ${converted} {
      return ${file.importValue(runtime, "convertMessage")}(shimTables, message, options);
    }

    /** Converts a method's params (undefined when the message has none). */
    export function convertParams(method: string, params: unknown, options: Omit<${options}, "method">): ${converted} {
      return ${file.importValue(runtime, "convertParams", "convertParamsWith")}(shimTables, method, params, options);
    }

    /** Converts a request's result. */
    export function convertResult(method: string, result: unknown, options: Omit<${options}, "method">): ${converted} {
      return ${file.importValue(runtime, "convertResult", "convertResultWith")}(shimTables, method, result, options);
    }
  `);
}
