// generated/index.ts: the revisions generated into this folder, and loaders
// for their message tables and the shims.
import type { RevisionModel } from "../model/types.js";
import type { GeneratedFile } from "./printer.js";
import { revisionInfo } from "./revision-file.js";

export function emitRootIndex(file: GeneratedFile, models: readonly RevisionModel[]): void {
  const infos = models.map(revisionInfo);
  const messageTables = file.importType("mcpgen/runtime", "MessageTables");
  const loaders = models
    .map(
      (m) =>
        `${JSON.stringify(m.revision)}: () => import(${JSON.stringify(`./${m.revision}/validators.js`)}).then((m) => m.messageTables),`,
    )
    .join("\n");
  file.print(`
    /** The generated revisions, oldest first; import one as "mcpgen/<name>". */
    export const revisions = ${JSON.stringify(infos, null, 2)} as const satisfies readonly ${file.importType("mcpgen/runtime", "RevisionInfo")}[];

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
  `);
}
