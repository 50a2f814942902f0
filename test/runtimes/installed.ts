// Where the runtimes under test are: .ci/runtimes installs the npm packages
// bun, deno and miniflare into the CI cache (not the project's dependencies,
// so that `npm ci` stays lean) and prints the folder; MCPGEN_RUNTIMES names
// one already installed.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { projectRoot } from "../helpers.js";

let folder: string | undefined;

/** The folder whose node_modules holds bun, deno and miniflare. */
export function runtimesFolder(): string {
  if (folder) return folder;
  if (process.env["MCPGEN_RUNTIMES"]) return (folder = process.env["MCPGEN_RUNTIMES"]);
  const installed = spawnSync("bash", [join(projectRoot, ".ci", "runtimes")], { encoding: "utf8", timeout: 300_000 });
  if (installed.status !== 0) throw new Error(`.ci/runtimes failed: ${installed.stderr}`);
  return (folder = installed.stdout.trim());
}

/** A runtime's executable (bun, deno). */
export const runtimeBin = (name: string): string => join(runtimesFolder(), "node_modules", ".bin", name);
