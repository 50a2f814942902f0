// A project where `mcpgen` is the runtime package as a user installs it
// (packages/pack.mjs: the bundled JavaScript), for benchmarks whose figure
// depends on the package's layout (cold start). The tarball is unpacked into
// node_modules/mcpgen and its dependencies (ajv, @cfworker/json-schema) are
// linked from the checkout, so the benchmark needs neither the network nor npm's cache.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";

export interface InstalledProject {
  /** The project's folder, holding a copy of each script given. */
  dir: string;
  remove(): void;
}

/**
 * Packs the runtime and makes a project of it holding copies of `scripts` (each with its name kept);
 * `linked`: more of the checkout's packages the scripts import, linked as the runtime's dependencies are.
 */
export function installedProject(
  root: string,
  scripts: readonly string[],
  linked: readonly string[] = [],
): InstalledProject {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-bench-installed-"));
  let printed: string;
  try {
    // npm's own warnings (a machine's npm config) stay off the benchmark's stderr unless packing fails.
    printed = execFileSync(process.execPath, [join(root, "packages", "pack.mjs"), join(dir, "packs")], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`packages/pack.mjs failed: ${failure.message}\n${failure.stdout ?? ""}${failure.stderr ?? ""}`);
  }
  const tarball = printed.trim().split("\n")[0]!;
  if (!tarball.endsWith(".tgz")) throw new Error(`packages/pack.mjs printed ${printed}`);
  mkdirSync(join(dir, "node_modules"));
  execFileSync("tar", ["xzf", tarball, "-C", join(dir, "node_modules")]);
  renameSync(join(dir, "node_modules", "package"), join(dir, "node_modules", "mcpgen"));
  const manifest = JSON.parse(readFileSync(join(dir, "node_modules", "mcpgen", "package.json"), "utf8"));
  for (const name of [...Object.keys(manifest.dependencies as Record<string, string>), ...linked]) {
    mkdirSync(dirname(join(dir, "node_modules", name)), { recursive: true });
    symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name), "dir");
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "bench", private: true, type: "module" }));
  for (const script of scripts) copyFileSync(script, join(dir, basename(script)));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
