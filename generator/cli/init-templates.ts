// The files `mcpgen init` writes: a server project on the runtime package
// (`mcpgen`), as data, one scaffold per runtime (./init-templates/). Pure
// functions of the options, no file system: ./init-command.ts writes what
// these return. test/cli/init*.test.ts install each scaffold from the packed
// tarball and run its own tests with its runtime, so the code in the templates
// is known to run and pass, not merely to look right.
import * as bun from "./init-templates/bun.js";
import * as deno from "./init-templates/deno.js";
import * as node from "./init-templates/node.js";
import type {
  InitOptions,
  ProjectCommands,
  ProjectFile,
  Runtime,
  Scaffold,
  Transport,
} from "./init-templates/project.js";
import * as workers from "./init-templates/workers.js";

export {
  RUNTIMES,
  type InitOptions,
  type ProjectFile,
  type Runtime,
  type Transport,
} from "./init-templates/project.js";
export { DEV_DEPENDENCIES } from "./init-templates/node.js";
export { BUN_DEV_DEPENDENCIES } from "./init-templates/bun.js";
export { WORKERS_DEV_DEPENDENCIES } from "./init-templates/workers.js";

const SCAFFOLDS: Readonly<Record<Runtime, Scaffold>> = { node, bun, deno, workers };

/** The name used when a folder's name has nothing npm accepts. */
const FALLBACK_NAME = "mcp-server";

/**
 * An npm package name from a folder's name: lower case, characters npm does
 * not accept in a name replaced by "-", no leading "." or "_" (npm refuses
 * them), at most 214 characters.
 */
export function packageName(directoryName: string): string {
  const name = directoryName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[._~-]+/, "")
    .replace(/[-.]+$/, "")
    .slice(0, 214);
  return name || FALLBACK_NAME;
}

/** The project's commands, as its README's first lines and the CLI's next steps show them. */
export function commands(runtime: Runtime, transport: Transport): ProjectCommands {
  return SCAFFOLDS[runtime].commands(transport);
}

/** Every file of a new project, sorted by path. */
export function projectFiles(options: InitOptions): ProjectFile[] {
  return SCAFFOLDS[options.runtime].files(options);
}
