// `mcpgen diff A B [--format text|markdown|json]`, `mcpgen diff --all`.
import { diffRevisions } from "../diff/diff.js";
import { formatJson, formatMarkdown, formatMatrix, formatText, type DiffFormat } from "../diff/format.js";
import { buildExtension, buildModel, type ExtensionSource, type SchemaSource } from "../generate.js";
import { extensionAsRevision } from "../model/extension.js";
import { SpecError } from "../lock/lock.js";
import type { RevisionModel } from "../model/types.js";
import type { Io } from "./io.js";
import { pinnedExtensionSources, pinnedSources, schemaFileSource } from "./sources.js";
import { readLock, type SpecPaths } from "./spec-commands.js";

export interface DiffOptions extends SpecPaths {
  from?: string;
  to?: string;
  all: boolean;
  format: DiffFormat;
  /** A schema.ts for whichever of A and B the lock does not pin. */
  schema?: string;
  /** Compare the pinned extension of this name (A) with --schema (B), an other version of it. */
  extension?: string;
  /** With --ext: the revision B builds on (default: the pinned extension's base). */
  base?: string;
}

export async function diffCommand(io: Io, options: DiffOptions): Promise<number> {
  if (!["text", "markdown", "json"].includes(options.format)) {
    throw new SpecError(`unknown format "${options.format}" (text, markdown or json)`);
  }
  const lock = await readLock(io, options);
  if (options.extension !== undefined) return diffExtension(io, options, options.extension);
  if (options.all) {
    if (options.from !== undefined)
      throw new SpecError("--all takes no revisions: it compares every pinned revision with every other");
    const names = lock.revisions.map((r) => r.name);
    const models = new Map((await pinnedSources(io, options, lock, names)).map((s) => [s.revision, buildModel(s)]));
    const ordered = [...models.keys()];
    const counts = new Map<string, number>();
    const count = (a: string, b: string) => {
      const key = `${a} ${b}`;
      if (!counts.has(key)) counts.set(key, diffRevisions(models.get(a)!, models.get(b)!).entries.length);
      return counts.get(key)!;
    };
    io.stdout(formatMatrix(ordered, count, options.format));
    return 0;
  }
  if (options.from === undefined || options.to === undefined)
    throw new SpecError("diff needs two revisions: mcpgen diff A B (or --all)");
  const pinned = new Set(lock.revisions.map((r) => r.name));
  const unpinned = [options.from, options.to].filter((r) => !pinned.has(r));
  if (unpinned.length > 0 && options.schema === undefined) {
    throw new SpecError(
      `unknown revision "${unpinned[0]}": spec/revisions.json pins ${[...pinned].join(", ")} (use --schema PATH for a revision it does not pin)`,
    );
  }
  if (options.schema !== undefined && new Set(unpinned).size !== 1) {
    throw new SpecError(
      unpinned.length === 0
        ? `--schema is for a revision the lock does not pin, and both ${options.from} and ${options.to} are pinned`
        : "--schema can stand for one revision only",
    );
  }
  const source = async (name: string): Promise<SchemaSource> =>
    pinned.has(name)
      ? (await pinnedSources(io, options, lock, [name]))[0]!
      : schemaFileSource(io, options.schema!, name);
  const a: RevisionModel = buildModel(await source(options.from));
  const b: RevisionModel = options.to === options.from ? a : buildModel(await source(options.to));
  printDiff(io, options.format, a, b);
  return 0;
}

/** Prints the diff of two models in the chosen format (colour only on a TTY, never with NO_COLOR). */
function printDiff(io: Io, format: DiffFormat, a: RevisionModel, b: RevisionModel): void {
  const diff = diffRevisions(a, b);
  const color = io.stdoutIsTTY && io.env["NO_COLOR"] === undefined;
  io.stdout(
    format === "json"
      ? formatJson(diff, a, b)
      : format === "markdown"
        ? formatMarkdown(diff)
        : formatText(diff, { color }),
  );
}

/** `mcpgen diff --ext NAME --schema PATH [--base REV]`: the pinned extension against another version of it. */
async function diffExtension(io: Io, options: DiffOptions, name: string): Promise<number> {
  const lock = await readLock(io, options);
  const pinned = (lock.extensions ?? []).find((e) => e.name === name);
  if (!pinned)
    throw new SpecError(
      `unknown extension "${name}": spec/revisions.json pins ${(lock.extensions ?? []).map((e) => e.name).join(", ") || "none"}`,
    );
  if (options.schema === undefined || options.from !== undefined || options.all)
    throw new SpecError("diff --ext NAME compares the pinned extension with --schema PATH (and takes no revisions)");
  const baseName = options.base ?? pinned.base;
  const [pinnedBase, otherBase] = await Promise.all(
    [pinned.base, baseName].map(async (rev) => buildModel((await pinnedSources(io, options, lock, [rev]))[0]!)),
  );
  const sources = await pinnedExtensionSources(io, options, lock, [pinned.base]);
  const a = buildExtension(
    sources.find((s) => s.extension === name)!,
    pinnedBase!,
  );
  const file = await schemaFileSource(io, options.schema, baseName);
  const other: ExtensionSource = {
    extension: name,
    identifier: pinned.identifier,
    base: baseName,
    file: file.file,
    text: file.text,
    sha256: file.sha256,
    locked: false,
  };
  const b = buildExtension(other, otherBase!);
  const [viewA, viewB] = [
    extensionAsRevision(a, pinnedBase!, `ext/${name}`),
    extensionAsRevision(b, otherBase!, file.file),
  ];
  printDiff(io, options.format, viewA, viewB);
  return 0;
}
