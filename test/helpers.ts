import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterAll } from "vitest";
import type { Io } from "../generator/cli/io.js";
import type { ExtensionSource, SchemaSource } from "../generator/generate.js";
import { parseLock, sha256 } from "../generator/lock/lock.js";

export const projectRoot = resolve(import.meta.dirname, "..");
export const lockPath = join(projectRoot, "spec", "revisions.json");
export const lock = parseLock(readFileSync(lockPath, "utf8"), "spec/revisions.json");
export const pinnedRevisions = lock.revisions.map((r) => r.name);

/** The pinned schema of a revision, read from the spec cache that `npm run generate` fills. */
export function pinnedSource(revision: string): SchemaSource {
  const file = join(projectRoot, "spec", revision, "schema.ts");
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run the README's first command (npm run generate) before the tests`);
  }
  const bytes = readFileSync(file);
  const entry = lock.revisions.find((r) => r.name === revision)!;
  const expected = entry.files.find((f) => f.path === "schema.ts")!.sha256;
  if (sha256(bytes) !== expected) throw new Error(`${file} does not match the lock; run \`mcpgen spec sync\``);
  return {
    revision,
    file: `spec/${revision}/schema.ts`,
    text: bytes.toString("utf8"),
    sha256: expected,
    commit: entry.commit,
    locked: true,
  };
}

/** A schema written by a test: an unpinned revision unless `locked` is set. */
export function snippetSource(text: string, options: { revision?: string; locked?: boolean } = {}): SchemaSource {
  return {
    revision: options.revision ?? "test",
    file: "snippet.ts",
    text,
    sha256: sha256(text),
    locked: options.locked ?? false,
  };
}

// The folders tempDir made in this test file. One hook, registered while the
// file is collected, removes them: a hook registered from inside a test or a
// beforeAll (where most tempDir calls are) is never run, and such folders were
// left in /tmp by every run.
const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder, removed when the test file finishes. */
export function tempDir(prefix = "mcpgen-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export interface CapturedIo extends Io {
  out: string;
  err: string;
}

/** An Io that records what the CLI prints. */
export function captureIo(
  options: { cwd?: string; env?: Record<string, string>; fetch?: typeof fetch; stdin?: string } = {},
): CapturedIo {
  const io: CapturedIo = {
    out: "",
    err: "",
    stdout: (text) => {
      io.out += text;
    },
    stderr: (text) => {
      io.err += text;
    },
    env: options.env ?? {},
    cwd: options.cwd ?? projectRoot,
    stdoutIsTTY: false,
    fetch: options.fetch ?? (() => Promise.reject(new Error("tests do not reach the network"))),
    readStdin: async () => options.stdin ?? "",
  };
  return io;
}

/**
 * Type-checks files with the project's TypeScript in strict mode and returns
 * the diagnostics as "file(line,col): message" lines ([] when clean).
 * `mcpgen/runtime` and `mcpgen/runtime/codegen` resolve to the runtime sources, as in the project.
 */
export function typeCheck(rootNames: string[]): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    types: [],
    paths: {
      "mcpgen/runtime": [join(projectRoot, "runtime", "index.ts")],
      "mcpgen/runtime/codegen": [join(projectRoot, "runtime", "codegen.ts")],
    },
  };
  const program = ts.createProgram(rootNames, options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file || d.start === undefined) return message;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName}(${line + 1},${character + 1}): ${message}`;
  });
}

/** A module of the project's generated/<rev>/ (TypeScript, loaded through vitest). */
export async function importGenerated<T = Record<string, unknown>>(revision: string, module: string): Promise<T> {
  const path = join(projectRoot, "generated", revision, `${module}.ts`);
  if (!existsSync(path)) throw new Error(`${path} is missing: run the README's first command (npm run generate)`);
  return (await import(/* @vite-ignore */ path)) as T;
}

/** The pinned schema of an extension, read from the spec cache (spec/ext/<name>/) that `npm run generate` fills, or the project's transcription. */
export function pinnedExtensionSource(name: string): ExtensionSource {
  const entry = (lock.extensions ?? []).find((e) => e.name === name);
  if (!entry) throw new Error(`spec/revisions.json pins no extension ${name}`);
  const common = {
    extension: name,
    identifier: entry.identifier,
    base: entry.base,
    commit: entry.commit,
    locked: true,
  };
  if (entry.projectSchema !== undefined) {
    const bytes = readFileSync(join(projectRoot, "spec", entry.projectSchema));
    return { ...common, file: `spec/${entry.projectSchema}`, text: bytes.toString("utf8"), sha256: sha256(bytes) };
  }
  const file = join(projectRoot, "spec", "ext", name, ...entry.schema!.split("/"));
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run the README's first command (npm run generate) before the tests`);
  }
  const bytes = readFileSync(file);
  const expected = entry.files.find((f) => f.path === entry.schema)!.sha256;
  if (sha256(bytes) !== expected) throw new Error(`${file} does not match the lock; run \`mcpgen spec sync\``);
  return { ...common, file: `spec/ext/${name}/${entry.schema}`, text: bytes.toString("utf8"), sha256: expected };
}
