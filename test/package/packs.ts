// The two published packages, packed the way a release packs them
// (packages/pack.mjs), and empty projects that install them. The tests that
// use this start from `npm test`'s build of dist/ (from the generated/ that
// generate.test.ts checks is current).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot, tempDir } from "../helpers.js";

export const npm = process.platform === "win32" ? "npm.cmd" : "npm";

export interface Tarballs {
  /** mcpgen: the runtime (generated revisions, runtime, server, transports, client). */
  runtime: string;
  /** mcpgen-generator: the CLI. */
  generator: string;
}

/** Packs both packages into a fresh temporary folder. */
export function packPackages(): Tarballs {
  if (!existsSync(join(projectRoot, "dist", "generated", "index.js")))
    throw new Error("dist/ is not built: run the README's commands");
  const out = tempDir("mcpgen-packs-");
  const printed = execFileSync(process.execPath, [join(projectRoot, "packages", "pack.mjs"), out], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [runtime, generator] = printed.trim().split("\n");
  if (!runtime?.endsWith(".tgz") || !generator?.endsWith(".tgz"))
    throw new Error(`packages/pack.mjs printed ${printed}`);
  return { runtime, generator };
}

/**
 * A new project (package.json with "type": "module", plus `extra` fields) in a
 * temporary folder, with `packages` installed by npm: tarballs, or names that
 * npm's cache already holds (the install prefers it: CI's network is the npm
 * registry only, and the tests should not depend on it when they need not).
 */
export function newProject(packages: readonly string[], extra: Record<string, unknown> = {}): string {
  const dir = tempDir("mcpgen-project-");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "project", private: true, type: "module", ...extra }),
  );
  execFileSync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...packages], {
    cwd: dir,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return dir;
}
