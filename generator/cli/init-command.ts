// `mcpgen init <dir> [--runtime node|bun|deno|workers] [--http]`: a new MCP
// server project on the runtime package (the files are ./init-templates.ts). It writes only into a folder that is
// empty or does not exist yet, so it never overwrites anyone's work.
import { readdir } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { SpecError } from "../lock/lock.js";
import { displayPath, writeFileCreatingDirs, type Io } from "./io.js";
import { commands, packageName, projectFiles, RUNTIMES, type Runtime, type Transport } from "./init-templates.js";

export interface InitCommandOptions {
  /** The project folder, as given (relative to io.cwd). */
  dir: string;
  /** Where the project runs: "node" unless given (a name from RUNTIMES, checked here). */
  runtime?: string;
  /** Node only; the other runtimes serve HTTP. */
  transport: Transport;
  /** The generator's version, which the project's runtime dependency gets. */
  version: string;
}

export async function initCommand(io: Io, options: InitCommandOptions): Promise<number> {
  const runtime = runtimeNamed(options.runtime ?? "node");
  const target = resolve(io.cwd, options.dir);
  const shown = displayPath(io, target);
  const existing = await entriesOf(target, shown);
  if (existing.length > 0) {
    const listed = existing.slice(0, 3).join(", ") + (existing.length > 3 ? ", ..." : "");
    throw new SpecError(`${shown} is not empty (it holds ${listed}): init writes only into an empty or new folder`);
  }
  const name = packageName(basename(target));
  const files = projectFiles({ name, runtime, transport: options.transport, mcpgenVersion: options.version });
  for (const file of files) await writeFileCreatingDirs(join(target, ...file.path.split("/")), file.content);

  const { install, start, test, more } = commands(runtime, options.transport);
  const served = runtime === "node" && options.transport === "stdio" ? "on stdio" : "over Streamable HTTP";
  const steps = [test, start, ...more];
  const width = Math.max(12, ...steps.map((step) => step.run.length + 1));
  const lines = [
    `Created an MCP server ${served}${ON[runtime]} in ${shown} (package ${name}, on mcpgen ${options.version}):`,
    ...files.map((file) => `  ${file.path}`),
    "",
    "Next:",
    ...(shown === "." ? [] : [`  cd ${shellWord(shown)}`]),
    `  ${install}`,
    ...steps.map((step) => `  ${step.run.padEnd(width)} # ${step.what}`),
  ];
  io.stdout(lines.join("\n") + "\n");
  return 0;
}

/** What the first line says of the runtime after the transport. */
const ON: Readonly<Record<Runtime, string>> = {
  node: "",
  bun: " on Bun",
  deno: " on Deno",
  workers: " on Cloudflare Workers",
};

function runtimeNamed(name: string): Runtime {
  const runtime = RUNTIMES.find((known) => known === name);
  if (!runtime) throw new SpecError(`--runtime must be one of ${RUNTIMES.join(", ")}, not ${name}`);
  return runtime;
}

/** The names in folder `dir`, sorted; [] when it does not exist. */
async function entriesOf(dir: string, shown: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return [];
    if (code === "ENOTDIR") throw new SpecError(`${shown} cannot be a folder: a file is in the way`);
    throw error;
  }
}

/** A path as one word for a POSIX shell: quoted when it holds anything but plain characters. */
function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
