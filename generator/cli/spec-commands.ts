// `mcpgen spec sync | list | pin`: keep the git-ignored cache spec/<rev>/ equal
// to what spec/revisions.json pins.
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  checkFile,
  checkRevisionName,
  formatLock,
  parseLock,
  pinRevision,
  selectRevisions,
  SpecError,
  type Lock,
  type LockedFile,
  type LockedRevision,
} from "../lock/lock.js";
import { byCodeUnit } from "../model/order.js";
import { displayPath, listFiles, readOptional, replaceDirectory, type Io } from "./io.js";

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
  revisions: string[];
  /** Fetch again even when the cache already matches the lock. */
  force: boolean;
  quiet: boolean;
}

/**
 * Copies each selected revision's pinned files into the cache. A revision is
 * written only when every one of its files matches the lock; problems are
 * reported one line each and make the command exit 2.
 */
export async function syncSpec(io: Io, paths: SpecPaths, options: SyncOptions): Promise<number> {
  const lock = await readLock(io, paths);
  const selected = selectRevisions(lock, options.revisions);
  const source = options.from === undefined ? "the pinned upstream URLs" : displayPath(io, options.from);
  const statuses = await cacheStatus(io, paths, { ...lock, revisions: selected });
  let failed = 0;
  for (const revision of selected) {
    if (!options.force && statuses.find((s) => s.name === revision.name)?.status === "verified") {
      if (!options.quiet)
        io.stderr(`up to date ${revision.name} (${revision.files.length} files verified in the cache)\n`);
      continue;
    }
    const started = performance.now();
    const fetched = await fetchRevision(io, revision, options.from);
    const problems = fetched.flatMap(
      ({ file, bytes, where, failure }) => failure ?? checkFile(file, bytes, where) ?? [],
    );
    if (problems.length > 0) {
      for (const problem of problems) io.stderr(`mcpgen: spec sync: ${problem}\n`);
      failed++;
      continue;
    }
    await replaceDirectory(
      join(paths.cache, revision.name),
      fetched.map(({ file, bytes }) => ({ path: file.path, content: bytes! })),
    );
    if (!options.quiet) {
      io.stderr(
        `synced ${revision.name} (${fetched.length} files) from ${source} in ${Math.round(performance.now() - started)} ms\n`,
      );
    }
  }
  if (failed > 0)
    io.stderr(
      `mcpgen: spec sync: ${failed} of ${selected.length} revisions not synced; the cache keeps their previous contents\n`,
    );
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

async function fetchRevision(io: Io, revision: LockedRevision, from: string | undefined): Promise<FetchedFile[]> {
  if (from !== undefined) {
    return Promise.all(
      revision.files.map(async (file) => {
        const path = resolve(io.cwd, from, revision.name, ...file.path.split("/"));
        return { file, bytes: await readOptional(path), where: displayPath(io, path) };
      }),
    );
  }
  // A few downloads at a time: examples are many small files.
  const results: FetchedFile[] = [];
  const queue = [...revision.files];
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

/** How the cache of each pinned revision compares with the lock. */
export async function cacheStatus(io: Io, paths: SpecPaths, lock: Lock): Promise<RevisionStatus[]> {
  return Promise.all(
    lock.revisions.map(async (revision): Promise<RevisionStatus> => {
      const dir = join(paths.cache, revision.name);
      const problems: string[] = [];
      let missing = 0;
      for (const file of revision.files) {
        const path = join(dir, ...file.path.split("/"));
        const bytes = await readOptional(path);
        if (bytes === undefined) missing++;
        const problem = checkFile(file, bytes, displayPath(io, path));
        if (problem) problems.push(problem);
      }
      const status: CacheStatus =
        missing === revision.files.length
          ? "not synced"
          : missing > 0
            ? "incomplete"
            : problems.length > 0
              ? "modified"
              : "verified";
      return { name: revision.name, commit: revision.commit, files: revision.files.length, status, problems };
    }),
  );
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

/** Adds or replaces a revision in the lock from a folder of upstream files (<dir>/<rev>/schema.ts, ...). */
export async function pinSpec(
  io: Io,
  paths: SpecPaths,
  options: { revision: string; from: string; commit: string },
): Promise<number> {
  const lock = await readLock(io, paths);
  checkRevisionName(options.revision);
  const dir = resolve(io.cwd, options.from, options.revision);
  const revisionFiles = (await listFiles(dir)).filter(
    (p) => p === "schema.ts" || p === "schema.json" || p.startsWith("examples/"),
  );
  const files = await Promise.all(
    revisionFiles.map(async (path) => ({ path, bytes: (await readOptional(join(dir, path)))! })),
  );
  const updated = pinRevision(lock, options.revision, options.commit, files);
  await writeFile(paths.lock, formatLock(updated));
  io.stderr(`pinned ${options.revision} (${files.length} files) in ${displayPath(io, paths.lock)}\n`);
  return 0;
}
