// The CLI's side of the world: streams, environment and the file system. The
// generator itself never touches any of these.
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { byCodeUnit } from "../model/order.js";

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdoutIsTTY: boolean;
  fetch: typeof fetch;
  /** All of standard input, as UTF-8 text. */
  readStdin(): Promise<string>;
}

/** A file's bytes, or undefined when it does not exist. */
export async function readOptional(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Every file under `dir`, as "/"-separated paths relative to it, sorted; [] when dir does not exist. */
export async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort(byCodeUnit);
}

/**
 * Replaces directory `target` with exactly `files`. They are written to a
 * sibling first and swapped in with a rename, so a failure leaves the old
 * directory as it was.
 */
export async function replaceDirectory(
  target: string,
  files: readonly { path: string; content: string | Uint8Array }[],
): Promise<void> {
  const staging = `${target}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  for (const file of files) {
    const path = join(staging, ...file.path.split("/"));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
  await mkdir(staging, { recursive: true });
  await rm(target, { recursive: true, force: true });
  await mkdir(dirname(target), { recursive: true });
  await rename(staging, target);
}

export async function writeFileCreatingDirs(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

/** A path as the user should see it: relative to the working directory, "/"-separated. */
export function displayPath(io: Io, path: string): string {
  return relative(io.cwd, resolve(io.cwd, path)).split(sep).join("/") || ".";
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === "ENOENT";
}
