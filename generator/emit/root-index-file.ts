// generated/index.ts: the revisions generated into this folder, and loaders
// for their message tables and the shims.
import { byCodeUnit } from "../model/order.js";
import type { RevisionModel } from "../model/types.js";
import { codegen, type GeneratedFile } from "./printer.js";
import { revisionInfo } from "./revision-file.js";
import { stepFile } from "./shims-files.js";

/** What the root index says of an extension. */
export interface ExtensionEntry {
  extension: string;
  identifier: string;
  base: string;
}

export function emitRootIndex(
  file: GeneratedFile,
  models: readonly RevisionModel[],
  extensions: readonly ExtensionEntry[] = [],
): void {
  const infos = models.map(revisionInfo);
  const messageTables = file.importType(codegen, "MessageTables");
  const loaders = models
    .map(
      (m) =>
        `${JSON.stringify(m.revision)}: () => import(${JSON.stringify(`./${m.revision}/tables.js`)}).then((m) => m.messageTables),`,
    )
    .join("\n");
  const shapes = file.importType(codegen, "RevisionShapes");
  const stepPlan = file.importType(codegen, "StepPlan");
  const shapeLoaders = models
    .map(
      (m) =>
        `${JSON.stringify(m.revision)}: () => import(${JSON.stringify(`./shims/${m.revision}.js`)}).then((m) => m.shapes),`,
    )
    .join("\n");
  const stepLoaders = models
    .slice(1)
    .map((m, i) => {
      const step = stepFile(models[i]!.revision, m.revision);
      return `${JSON.stringify(step)}: () => import(${JSON.stringify(`./shims/${step}.js`)}).then((m) => ({ upgrade: m.upgrade, downgrade: m.downgrade })),`;
    })
    .join("\n");
  file.print(`
    /** The generated revisions, oldest first; import one as "mcpgen/<name>". */
    export const revisions = ${JSON.stringify(infos, null, 2)} as const satisfies readonly ${file.importType(codegen, "RevisionInfo")}[];

    export type RevisionName = (typeof revisions)[number]["name"];

    /**
     * Loads a revision's message tables on first use, so that a process pays
     * only for the revisions its peers speak.
     */
    export const loadMessageTables: { readonly [R in RevisionName]: () => Promise<${messageTables}> } = {
      ${loaders}
    };

    /** Loads the version shims (every revision's shapes): needed only when two peers speak different revisions. */
    export const loadShims = () => import("./shims/index.js");

    /**
     * Loads one revision's shapes for the shims, so that converting between two
     * revisions loads only the revisions on the way.
     */
    export const loadShimShapes: { readonly [R in RevisionName]: () => Promise<${shapes}> } = {
      ${shapeLoaders}
    };

    /** The generated extensions; import one as "mcpgen/ext/<name>". */
    export const extensions = ${JSON.stringify(
      [...extensions]
        .sort((a, b) => byCodeUnit(a.extension, b.extension))
        .map((e) => ({ name: e.extension, identifier: e.identifier, base: e.base })),
      null,
      2,
    )} as const;

    /** Loads an extension's tables (to merge into a revision's with withExtensions), by name. */
    export const loadExtensionTables: { readonly [name: string]: () => Promise<${file.importType(codegen, "ExtensionTables")}> } = {
      ${[...extensions]
        .sort((a, b) => byCodeUnit(a.extension, b.extension))
        .map(
          (e) =>
            `${JSON.stringify(e.extension)}: () => import(${JSON.stringify(`./ext/${e.extension}/tables.js`)}).then((m) => m.extensionTables),`,
        )
        .join("\n")}
    };

    /** Loads one adjacent step's plans, by "<older>--<newer>". */
    export const loadShimStep: { readonly [step: string]: () => Promise<{ upgrade: ${stepPlan}; downgrade: ${stepPlan} }> } = {
      ${stepLoaders}
    };
  `);
}
