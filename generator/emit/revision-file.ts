// generated/<rev>/revision.ts and generated/<rev>/index.ts.
import type { RevisionModel } from "../model/types.js";
import { codegen, type GeneratedFile } from "./printer.js";

/** Names revision.ts exports; a schema declaring one of them cannot be generated (E_NAME_COLLISION). */
export const revisionFileExports = ["revision"] as const;

export function emitRevision(file: GeneratedFile, model: RevisionModel): void {
  const info = revisionInfo(model);
  file.print(`
    /** What this folder was generated from, and the revision's protocol-level facts. */
    export const revision = ${JSON.stringify(info, null, 2)} as const satisfies ${file.importType(codegen, "RevisionInfo")};
  `);
}

export function emitRevisionIndex(file: GeneratedFile): void {
  file.print(`
    export * from "./types.js";
    export * from "./methods.js";
    export * from "./revision.js";
    export * from "./tables.js";
    export * from "./validators.js";
    export * from "./guards.js";
  `);
}

/** The fields of RevisionInfo (runtime/index.ts), in its order. */
export function revisionInfo(model: RevisionModel) {
  return {
    name: model.revision,
    protocolVersion: model.facts.protocolVersion,
    jsonrpcVersion: model.facts.jsonrpcVersion,
    lifecycle: model.facts.lifecycle,
    batching: model.facts.batching,
    extensions: model.facts.extensions,
    inputRequests: model.facts.inputRequests ?? null,
    beforeInitialized: model.facts.beforeInitialized ?? null,
    errorCodes: model.facts.errorCodes ?? {},
    schemaSha256: model.source.sha256,
    commit: model.source.commit ?? null,
  };
}
