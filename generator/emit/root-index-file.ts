// generated/index.ts: the revisions generated into this folder.
import type { RevisionModel } from "../model/types.js";
import type { GeneratedFile } from "./printer.js";
import { revisionInfo } from "./revision-file.js";

export function emitRootIndex(file: GeneratedFile, models: readonly RevisionModel[]): void {
  const infos = models.map(revisionInfo);
  file.print(`
    /** The generated revisions, oldest first; import one as "mcpgen/<name>". */
    export const revisions = ${JSON.stringify(infos, null, 2)} as const satisfies readonly ${file.importType("mcpgen/runtime", "RevisionInfo")}[];

    export type RevisionName = (typeof revisions)[number]["name"];
  `);
}
