// `mcpgen spec sync | list | pin`: keep the git-ignored cache spec/<rev>/ equal
// to what spec/revisions.json pins.
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import {
  checkFile,
  checkRevisionName,
  formatLock,
  parseLock,
  pinRevision,
  selectRevisions,
  SpecError,
  upstreamFolder,
  type Lock,
  type LockedExtension,
  type LockedFile,
  type LockedRevision,
} from "../lock/lock.js";
import { byCodeUnit } from "../model/order.js";
import { displayPath, listFiles, readOptional, replaceDirectory, writeFileCreatingDirs, type Io } from "./io.js";

export interface SpecPaths {
  lock: string;
  cache: string;
}

export async function readLock(io: Io, paths: SpecPaths): Promise<Lock> {
  let text: string;
  try {
    text = await readFile(paths.lock, "utf8");
  } catch (error) {
    throw new SpecError(`cannot read the lock ${displayPath(io, paths.lock)}: ${(error as Error).message}`);
  }
  return parseLock(text, displayPath(io, paths.lock));
}

export interface SyncOptions {
  /** A folder holding <rev>/schema.ts etc.; undefined means download the pinned URLs. */
  from?: string;
  /** A folder holding <extension>/<its files>; undefined means download the pinned URLs. */
  extensionsFrom?: string;
  revisions: string[];
  /** Extensions to sync; all of them when neither revisions nor extensions are named. */
  extensions?: string[];
  /** Fetch again even when the cache already matches the lock. */
  force: boolean;
  quiet: boolean;
}

/** A pinned set of files and where it lives: a revision (spec/<rev>/) or an extension (spec/ext/<name>/). */
interface Pin {
  /** How messages name it: "2025-11-25", "extension tasks". */
  label: string;
  /** The folder in the cache. */
  dir: string;
  commit: string;
  files: readonly LockedFile[];
}

function revisionPin(paths: SpecPaths, revision: LockedRevision): Pin {
  return {
    label: revision.name,
    dir: join(paths.cache, revision.name),
    commit: revision.commit,
    files: revision.files,
  };
}

function extensionPin(paths: SpecPaths, extension: LockedExtension): Pin {
  return {
    label: `extension ${extension.name}`,
    dir: join(paths.cache, "ext", extension.name),
    commit: extension.commit,
    files: extension.files,
  };
}

/** The extensions named (all when `names` is undefined), in lock order; an unknown name is an error. */
export function selectExtensions(lock: Lock, names: readonly string[] | undefined): LockedExtension[] {
  const pinned = lock.extensions ?? [];
  if (names === undefined) return pinned;
  return names.map((name) => {
    const extension = pinned.find((e) => e.name === name);
    if (!extension)
      throw new SpecError(
        `unknown extension "${name}": spec/revisions.json pins ${pinned.map((e) => e.name).join(", ") || "none"}`,
      );
    return extension;
  });
}

/**
 * Copies each selected revision's and extension's pinned files into the cache.
 * One is written only when every one of its files matches the lock; problems
 * are reported one line each and make the command exit 2.
 */
export async function syncSpec(io: Io, paths: SpecPaths, options: SyncOptions): Promise<number> {
  const lock = await readLock(io, paths);
  const onlyNamed = options.revisions.length > 0 || (options.extensions?.length ?? 0) > 0;
  const revisions = onlyNamed && options.revisions.length === 0 ? [] : selectRevisions(lock, options.revisions);
  const extensions = selectExtensions(lock, onlyNamed ? (options.extensions ?? []) : undefined);
  const pins = [
    ...revisions.map((r) => ({
      pin: revisionPin(paths, r),
      source: options.from && resolve(io.cwd, options.from, r.name),
    })),
    ...extensions.map((e) => ({
      pin: extensionPin(paths, e),
      source: options.extensionsFrom && resolve(io.cwd, options.extensionsFrom, e.name),
    })),
  ];
  let failed = 0;
  for (const { pin, source } of pins) {
    if (!options.force && (await pinStatus(io, pin)).status === "verified") {
      if (!options.quiet) io.stderr(`up to date ${pin.label} (${pin.files.length} files verified in the cache)\n`);
      continue;
    }
    const started = performance.now();
    const fetched = await fetchPin(io, pin, source);
    const problems = fetched.flatMap(
      ({ file, bytes, where, failure }) => failure ?? checkFile(file, bytes, where) ?? [],
    );
    if (problems.length > 0) {
      for (const problem of problems) io.stderr(`mcpgen: spec sync: ${problem}\n`);
      failed++;
      continue;
    }
    await replaceDirectory(
      pin.dir,
      fetched.map(({ file, bytes }) => ({ path: file.path, content: bytes! })),
    );
    if (!options.quiet) {
      const from = source === undefined ? "the pinned upstream URLs" : displayPath(io, source);
      io.stderr(
        `synced ${pin.label} (${fetched.length} files) from ${from} in ${Math.round(performance.now() - started)} ms\n`,
      );
    }
  }
  if (failed > 0)
    io.stderr(`mcpgen: spec sync: ${failed} of ${pins.length} not synced; the cache keeps their previous contents\n`);
  return failed > 0 ? 2 : 0;
}

interface FetchedFile {
  file: LockedFile;
  bytes: Uint8Array | undefined;
  /** Where the bytes came from, for messages. */
  where: string;
  /** Set when the bytes could not be obtained at all (HTTP error, network). */
  failure?: string;
}

async function fetchPin(io: Io, pin: Pin, source: string | undefined): Promise<FetchedFile[]> {
  if (source !== undefined) {
    return Promise.all(
      pin.files.map(async (file) => {
        const path = resolve(source, ...file.path.split("/"));
        return { file, bytes: await readOptional(path), where: displayPath(io, path) };
      }),
    );
  }
  // A few downloads at a time: examples are many small files.
  const results: FetchedFile[] = [];
  const queue = [...pin.files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await download(io, file));
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return results.sort((a, b) => byCodeUnit(a.file.path, b.file.path));
}

async function download(io: Io, file: LockedFile): Promise<FetchedFile> {
  try {
    const response = await io.fetch(file.url, { signal: AbortSignal.timeout(30_000) });
    if (response.status === 404) return { file, bytes: undefined, where: file.url };
    if (!response.ok)
      return { file, bytes: undefined, where: file.url, failure: `${file.url}: HTTP ${response.status}` };
    return { file, bytes: new Uint8Array(await response.arrayBuffer()), where: file.url };
  } catch (error) {
    return {
      file,
      bytes: undefined,
      where: file.url,
      failure: `${file.url}: download failed: ${(error as Error).message}`,
    };
  }
}

export type CacheStatus = "verified" | "not synced" | "incomplete" | "modified";

export interface RevisionStatus {
  name: string;
  commit: string;
  files: number;
  status: CacheStatus;
  /** The files that are missing or differ from the lock. */
  problems: string[];
}

/** How the cache of each pinned revision and extension (named "ext/<name>") compares with the lock. */
export async function cacheStatus(io: Io, paths: SpecPaths, lock: Lock): Promise<RevisionStatus[]> {
  return Promise.all([
    ...lock.revisions.map(async (revision) => ({
      ...(await pinStatus(io, revisionPin(paths, revision))),
      name: revision.name,
    })),
    ...(lock.extensions ?? []).map(async (extension) => ({
      ...(await pinStatus(io, extensionPin(paths, extension))),
      name: `ext/${extension.name}`,
    })),
  ]);
}

async function pinStatus(io: Io, pin: Pin): Promise<RevisionStatus> {
  const problems: string[] = [];
  let missing = 0;
  for (const file of pin.files) {
    const path = join(pin.dir, ...file.path.split("/"));
    const bytes = await readOptional(path);
    if (bytes === undefined) missing++;
    const problem = checkFile(file, bytes, displayPath(io, path));
    if (problem) problems.push(problem);
  }
  const status: CacheStatus =
    missing === pin.files.length
      ? "not synced"
      : missing > 0
        ? "incomplete"
        : problems.length > 0
          ? "modified"
          : "verified";
  return { name: pin.label, commit: pin.commit, files: pin.files.length, status, problems };
}

export async function listSpec(io: Io, paths: SpecPaths, options: { json: boolean }): Promise<number> {
  const statuses = await cacheStatus(io, paths, await readLock(io, paths));
  if (options.json) {
    io.stdout(`${JSON.stringify(statuses, null, 2)}\n`);
  } else {
    for (const s of statuses) {
      io.stdout(
        `${s.name.padEnd(12)} ${s.status.padEnd(11)} ${String(s.files).padStart(4)} files  commit ${s.commit.slice(0, 12)}\n`,
      );
      for (const problem of s.problems.slice(0, 3)) io.stdout(`  ${problem}\n`);
    }
  }
  return 0;
}

export interface PinOptions {
  revision: string;
  /** A folder holding <revision>/schema.ts, schema.json and examples/. */
  from: string;
  commit: string;
  /** The folder of the upstream repository the files are in at `commit` (default: see pinRevision). */
  path?: string;
  /**
   * The lock a new lock file starts as (the one mcpgen ships), when paths.lock
   * does not exist yet; its project transcriptions are copied beside the new one.
   */
  template: string;
}

/** Adds or replaces a revision in the lock from a folder of upstream files (<dir>/<rev>/schema.ts, ...). */
export async function pinSpec(io: Io, paths: SpecPaths, options: PinOptions): Promise<number> {
  checkRevisionName(options.revision);
  const created = (await readOptional(paths.lock)) === undefined;
  const lock = await readLock(io, created ? { ...paths, lock: options.template } : paths);
  const dir = resolve(io.cwd, options.from, options.revision);
  const revisionFiles = (await listFiles(dir)).filter(
    (p) => p === "schema.ts" || p === "schema.json" || p.startsWith("examples/"),
  );
  if (revisionFiles.length === 0)
    throw new SpecError(
      `${displayPath(io, dir)} holds no schema.ts, schema.json or examples/: --from names the folder that holds ${options.revision}/`,
    );
  const files = await Promise.all(
    revisionFiles.map(async (path) => ({ path, bytes: (await readOptional(join(dir, path)))! })),
  );
  const updated = pinRevision(lock, options.revision, options.commit, files, options.path);
  if (created) {
    // The transcriptions a lock names live beside it (projectSchema is relative to the lock's folder); one
    // already there is the project's own and stays.
    const transcriptions = (lock.extensions ?? []).flatMap((e) => (e.projectSchema ? [e.projectSchema] : []));
    for (const path of transcriptions) {
      const target = join(dirname(paths.lock), ...path.split("/"));
      if ((await readOptional(target)) !== undefined) continue;
      const source = join(dirname(options.template), ...path.split("/"));
      const bytes = await readOptional(source);
      if (bytes === undefined)
        throw new SpecError(`${displayPath(io, source)}, named by ${displayPath(io, options.template)}, is missing`);
      await writeFileCreatingDirs(target, bytes);
    }
    const beside = transcriptions.length > 0 ? ` (and ${transcriptions.join(", ")} beside it)` : "";
    io.stderr(`created ${displayPath(io, paths.lock)} from ${displayPath(io, options.template)}${beside}\n`);
  }
  await writeFileCreatingDirs(paths.lock, formatLock(updated));
  const entry = updated.revisions.find((r) => r.name === options.revision)!;
  const before = lock.revisions.find((r) => r.name === options.revision);
  const changed = before
    ? `, ${entry.files.filter((f) => !before.files.includes(f)).length} new or changed, ${
        before.files.filter((b) => !entry.files.some((f) => f.path === b.path)).length
      } removed`
    : "";
  const folder = upstreamFolder(updated, entry) ?? "unknown";
  io.stderr(
    `pinned ${options.revision} (${files.length} files${changed}; upstream folder ${folder}) in ${displayPath(io, paths.lock)}\n`,
  );
  return 0;
}
