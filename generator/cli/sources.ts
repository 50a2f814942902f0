// Schema sources for the commands: a pinned revision from the verified cache,
// or a schema.ts given with --schema.
import { dirname, join, resolve } from "node:path";
import type { ExtensionSource, SchemaSource } from "../generate.js";
import { checkFile, checkRevisionName, sha256, SpecError, type Lock } from "../lock/lock.js";
import { compareRevisions } from "../model/revision-order.js";
import { displayPath, readOptional, type Io } from "./io.js";
import type { SpecPaths } from "./spec-commands.js";

/** Pinned revisions from the cache, each checked against the lock, oldest first. */
export async function pinnedSources(
  io: Io,
  paths: SpecPaths,
  lock: Lock,
  names: readonly string[],
): Promise<SchemaSource[]> {
  const sorted = [...names].sort(compareRevisions);
  return Promise.all(
    sorted.map(async (name): Promise<SchemaSource> => {
      const revision = lock.revisions.find((r) => r.name === name);
      if (!revision)
        throw new SpecError(
          `unknown revision "${name}": spec/revisions.json pins ${lock.revisions.map((r) => r.name).join(", ")}`,
        );
      const path = join(paths.cache, revision.name, "schema.ts");
      const bytes = await readOptional(path);
      const locked = revision.files.find((f) => f.path === "schema.ts")!;
      if (bytes === undefined) {
        throw new SpecError(
          `revision ${revision.name} is not synced (${displayPath(io, path)} is missing): run \`mcpgen spec sync\``,
        );
      }
      const problem = checkFile(locked, bytes, displayPath(io, path));
      if (problem) throw new SpecError(`${problem}; run \`mcpgen spec sync\` to restore the pinned file`);
      return {
        revision: revision.name,
        file: displayPath(io, path),
        text: decode(bytes, path),
        sha256: locked.sha256,
        commit: revision.commit,
        locked: true,
      };
    }),
  );
}

/** A schema.ts the lock does not pin, named `revision`. */
export async function schemaFileSource(io: Io, schema: string, revision: string): Promise<SchemaSource> {
  checkRevisionName(revision);
  const path = resolve(io.cwd, schema);
  const bytes = await readOptional(path);
  if (bytes === undefined) throw new SpecError(`cannot read schema ${displayPath(io, path)}: no such file`);
  return { revision, file: displayPath(io, path), text: decode(bytes, path), sha256: sha256(bytes), locked: false };
}

/**
 * The pinned extensions whose base revision is among `revisions`, each read
 * from the cache (spec/ext/<name>/) and checked against the lock.
 */
export async function pinnedExtensionSources(
  io: Io,
  paths: SpecPaths,
  lock: Lock,
  revisions: readonly string[],
): Promise<ExtensionSource[]> {
  const extensions = (lock.extensions ?? []).filter((e) => revisions.includes(e.base));
  return Promise.all(
    extensions.map(async (extension): Promise<ExtensionSource> => {
      const common = {
        extension: extension.name,
        identifier: extension.identifier,
        base: extension.base,
        commit: extension.commit,
        locked: true,
      };
      if (extension.projectSchema !== undefined) {
        // The project's own transcription: reviewed in git, so no pinned hash.
        const path = join(dirname(paths.lock), ...extension.projectSchema.split("/"));
        const bytes = await readOptional(path);
        if (bytes === undefined)
          throw new SpecError(`extension ${extension.name}: its schema ${displayPath(io, path)} is missing`);
        return { ...common, file: displayPath(io, path), text: decode(bytes, path), sha256: sha256(bytes) };
      }
      const schema = extension.schema!;
      const path = join(paths.cache, "ext", extension.name, ...schema.split("/"));
      const bytes = await readOptional(path);
      const locked = extension.files.find((f) => f.path === schema)!;
      if (bytes === undefined)
        throw new SpecError(
          `extension ${extension.name} is not synced (${displayPath(io, path)} is missing): run \`mcpgen spec sync\``,
        );
      const problem = checkFile(locked, bytes, displayPath(io, path));
      if (problem) throw new SpecError(`${problem}; run \`mcpgen spec sync\` to restore the pinned file`);
      return { ...common, file: displayPath(io, path), text: decode(bytes, path), sha256: locked.sha256 };
    }),
  );
}

function decode(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new SpecError(`${path}: not UTF-8 text`);
  }
}
