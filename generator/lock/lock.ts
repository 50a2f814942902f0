// spec/revisions.json, the lock: which upstream files each revision is made of,
// where to fetch them and their sha256. Pure: the CLI does the reading, fetching
// and writing; this module decides what is acceptable.
import { createHash } from "node:crypto";
import { byCodeUnit } from "../model/order.js";
import { compareRevisions } from "../model/revision-order.js";

export interface LockedFile {
  /** Path inside the revision's folder, "/"-separated: "schema.ts", "examples/CallToolRequest/x.json". */
  path: string;
  url: string;
  sha256: string;
}

export interface LockedRevision {
  name: string;
  /** The upstream commit the files were taken from. */
  commit: string;
  files: LockedFile[];
}

/**
 * An extension (2026-07-28 and later: negotiated in `capabilities.extensions`),
 * pinned like a revision: its own repository, commit and files. Its schema.ts
 * imports the types of a base revision, which it is generated against.
 */
export interface LockedExtension {
  /** Folder and import name: spec/ext/<name>/, generated/ext/<name>/, mcpgen/ext/<name>. */
  name: string;
  /** The key in `capabilities.extensions`, e.g. "io.modelcontextprotocol/tasks". */
  identifier: string;
  /** The pinned revision whose types the schema imports. */
  base: string;
  repository: string;
  commit: string;
  /** The path, among `files`, of the extension's schema.ts, when its upstream publishes one. */
  schema?: string;
  /**
   * When its upstream publishes no schema.ts: the project's transcription of
   * the prose, a path relative to the lock's folder (e.g. "extensions/skills/schema.ts").
   */
  projectSchema?: string;
  files: LockedFile[];
}

export interface Lock {
  upstream: { repository: string; rawBaseUrl: string };
  revisions: LockedRevision[];
  /** Absent in a lock that pins no extension. */
  extensions?: LockedExtension[];
}

/** A problem with the lock or with files checked against it; the CLI exits 2 on it. */
export class SpecError extends Error {
  override name = "SpecError";
}

/** Files every revision must have; examples/ is optional. */
export const requiredFiles = ["schema.ts", "schema.json"] as const;

const sha256Pattern = /^[0-9a-f]{64}$/;
const commitPattern = /^[0-9a-f]{40}$/;
const revisionNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Throws unless `name` can serve as a revision and folder name. */
export function checkRevisionName(name: string): void {
  if (!revisionNamePattern.test(name))
    throw new SpecError(`"${name}" is not a valid revision name (letters, digits, ".", "_", "-")`);
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Parses and checks the lock's shape; every error names the lock file and the offending entry. */
export function parseLock(text: string, file: string): Lock {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SpecError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  const fail = (pointer: string, problem: string): never => {
    throw new SpecError(`${file}: ${pointer}: ${problem}`);
  };
  if (!isObject(data)) return fail("/", "expected an object");
  const upstream = data["upstream"];
  if (!isObject(upstream) || typeof upstream["repository"] !== "string" || typeof upstream["rawBaseUrl"] !== "string") {
    return fail("/upstream", 'expected { "repository": string, "rawBaseUrl": string }');
  }
  const revisions = data["revisions"];
  if (!Array.isArray(revisions)) return fail("/revisions", "expected an array");
  const readFiles = (files: unknown, at: string): LockedFile[] => {
    if (!Array.isArray(files)) return fail(`${at}/files`, "expected an array");
    return files.map((entry: unknown, j): LockedFile => {
      const fileAt = `${at}/files/${j}`;
      if (!isObject(entry)) return fail(fileAt, "expected an object");
      const { path, url, sha256: hash } = entry;
      if (typeof path !== "string" || !isSafeRelativePath(path))
        return fail(`${fileAt}/path`, "expected a relative path without '..'");
      if (typeof url !== "string" || !/^https?:\/\//.test(url)) return fail(`${fileAt}/url`, "expected an http(s) URL");
      if (typeof hash !== "string" || !sha256Pattern.test(hash))
        return fail(`${fileAt}/sha256`, "expected 64 lowercase hex digits");
      return { path, url, sha256: hash };
    });
  };
  const seen = new Set<string>();
  const parsed = revisions.map((revision: unknown, i): LockedRevision => {
    const at = `/revisions/${i}`;
    if (!isObject(revision)) return fail(at, "expected an object");
    const { name, commit, files } = revision;
    if (typeof name !== "string" || !revisionNamePattern.test(name))
      return fail(`${at}/name`, "expected a revision name");
    if (seen.has(name)) return fail(`${at}/name`, `revision ${name} is listed twice`);
    seen.add(name);
    if (typeof commit !== "string" || !commitPattern.test(commit))
      return fail(`${at}/commit`, "expected a 40-digit commit hash");
    const lockedFiles = readFiles(files, at);
    for (const required of requiredFiles) {
      if (!lockedFiles.some((f) => f.path === required)) fail(`${at}/files`, `revision ${name} has no ${required}`);
    }
    return { name, commit, files: lockedFiles };
  });
  const extensions = data["extensions"];
  if (extensions !== undefined && !Array.isArray(extensions)) return fail("/extensions", "expected an array");
  const extensionNames = new Set<string>();
  const parsedExtensions = (extensions ?? []).map((extension: unknown, i): LockedExtension => {
    const at = `/extensions/${i}`;
    if (!isObject(extension)) return fail(at, "expected an object");
    const { name, identifier, base, repository, commit, schema, projectSchema, files } = extension;
    if (typeof name !== "string" || !revisionNamePattern.test(name))
      return fail(`${at}/name`, 'expected an extension name (letters, digits, ".", "_", "-")');
    if (extensionNames.has(name)) return fail(`${at}/name`, `extension ${name} is listed twice`);
    extensionNames.add(name);
    if (typeof identifier !== "string" || identifier === "")
      return fail(`${at}/identifier`, 'expected the capability key, e.g. "io.modelcontextprotocol/tasks"');
    if (typeof base !== "string" || !seen.has(base))
      return fail(`${at}/base`, `expected a revision this lock pins (${[...seen].join(", ")})`);
    if (typeof repository !== "string" || !/^https?:\/\//.test(repository))
      return fail(`${at}/repository`, "expected an http(s) URL");
    if (typeof commit !== "string" || !commitPattern.test(commit))
      return fail(`${at}/commit`, "expected a 40-digit commit hash");
    const lockedFiles = readFiles(files, at);
    if ((schema === undefined) === (projectSchema === undefined))
      return fail(at, 'expected either "schema" (an upstream file) or "projectSchema" (the project\'s transcription)');
    if (schema !== undefined && (typeof schema !== "string" || !lockedFiles.some((f) => f.path === schema)))
      return fail(`${at}/schema`, "expected the path of one of its files (its schema.ts)");
    if (projectSchema !== undefined && (typeof projectSchema !== "string" || !isSafeRelativePath(projectSchema)))
      return fail(`${at}/projectSchema`, "expected a relative path without '..' (from the lock's folder)");
    return {
      name,
      identifier,
      base,
      repository,
      commit,
      ...(schema !== undefined ? { schema: schema as string } : {}),
      ...(projectSchema !== undefined ? { projectSchema: projectSchema as string } : {}),
      files: lockedFiles,
    };
  });
  return {
    upstream: { repository: upstream["repository"], rawBaseUrl: upstream["rawBaseUrl"] },
    revisions: parsed,
    ...(extensions !== undefined ? { extensions: parsedExtensions } : {}),
  };
}

export function formatLock(lock: Lock): string {
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/** The revisions named (all when none are), in lock order; an unknown name is an error listing the known ones. */
export function selectRevisions(lock: Lock, names: readonly string[] = []): LockedRevision[] {
  if (names.length === 0) return lock.revisions;
  return names.map((name) => {
    const revision = lock.revisions.find((r) => r.name === name);
    if (!revision) {
      throw new SpecError(
        `unknown revision "${name}": spec/revisions.json pins ${lock.revisions.map((r) => r.name).join(", ")}`,
      );
    }
    return revision;
  });
}

/**
 * Checks one file's bytes against the lock. Returns the one-line problem, naming
 * where the file was read from and the expected and actual hashes, or undefined
 * when the file is as pinned.
 */
export function checkFile(file: LockedFile, bytes: Uint8Array | undefined, where: string): string | undefined {
  if (bytes === undefined) return `${where}: missing (expected sha256 ${file.sha256})`;
  const actual = sha256(bytes);
  if (actual !== file.sha256) return `${where}: sha256 mismatch: expected ${file.sha256}, actual ${actual}`;
  return undefined;
}

/**
 * Where a pinned revision's files are in the upstream repository at its
 * commit: the folder its schema.ts URL names ("schema/draft"), or undefined
 * when that URL is not under the lock's rawBaseUrl.
 */
export function upstreamFolder(lock: Lock, revision: LockedRevision): string | undefined {
  const schema = revision.files.find((f) => f.path === "schema.ts");
  const prefix = `${lock.upstream.rawBaseUrl}/`;
  if (!schema?.url.startsWith(prefix) || !schema.url.endsWith("/schema.ts")) return undefined;
  // <rawBaseUrl>/<commit>/<folder>/schema.ts
  const folder = schema.url.slice(prefix.length, -"/schema.ts".length).split("/").slice(1).join("/");
  return folder === "" ? undefined : folder;
}

/**
 * A lock entry for a revision from files at hand (`mcpgen spec pin`): paths
 * sorted, hashes computed, each URL the file at `commit` in `folder` of the
 * upstream repository (default: where the revision was pinned before, else
 * schema/<name>). Re-pinning from the same folder keeps the entry of every
 * file whose hash did not change, URL included: that URL still serves the
 * same bytes, and the lock's diff shows only what changed upstream.
 */
export function pinRevision(
  lock: Lock,
  name: string,
  commit: string,
  files: readonly { path: string; bytes: Uint8Array }[],
  folder?: string,
): Lock {
  checkRevisionName(name);
  if (!commitPattern.test(commit)) throw new SpecError(`"${commit}" is not a 40-digit commit hash`);
  if (folder !== undefined && !isSafeRelativePath(folder))
    throw new SpecError(`"${folder}" is not a folder of the upstream repository (a relative path without '..')`);
  for (const required of requiredFiles) {
    if (!files.some((f) => f.path === required)) throw new SpecError(`revision ${name}: ${required} is missing`);
  }
  const previous = lock.revisions.find((r) => r.name === name);
  const previousFolder = previous && upstreamFolder(lock, previous);
  const at = folder ?? previousFolder ?? `schema/${name}`;
  const entry: LockedRevision = {
    name,
    commit,
    files: [...files]
      .sort((a, b) => byCodeUnit(a.path, b.path))
      .map((f) => {
        const hash = sha256(f.bytes);
        // Pinned from another folder, every URL follows the files to where they are now.
        const unchanged = at === previousFolder && previous!.files.find((p) => p.path === f.path && p.sha256 === hash);
        if (unchanged) return unchanged;
        return { path: f.path, url: `${lock.upstream.rawBaseUrl}/${commit}/${at}/${f.path}`, sha256: hash };
      }),
  };
  const revisions = [...lock.revisions.filter((r) => r.name !== name), entry].sort((a, b) =>
    compareRevisions(a.name, b.name),
  );
  return { ...lock, revisions };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSafeRelativePath(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !path.split("/").some((segment) => segment === ".." || segment === "");
}
