// A Worker on Cloudflare's workerd as a user deploys one: its entry bundled from
// the built package by rolldown (as wrangler's bundler would: browser platform,
// node: modules left to the runtime) and started by miniflare (.ci/runtimes; it
// needs Node >= 22: MCPGEN_NODE22 or .ci/node 22) on a free loopback port.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { rolldown } from "rolldown";
import { projectRoot } from "../helpers.js";
import { runtimesFolder } from "./installed.js";

/** What miniflare is given besides the bundle (Durable Object bindings, for one). */
export interface WorkerOptions {
  durableObjects?: Record<string, string>;
  compatibilityDate?: string;
  compatibilityFlags?: string[];
}

// Miniflare on a free loopback port; prints the URL, disposes of workerd on SIGTERM.
const RUN = `import { readFileSync } from "node:fs";
import { Miniflare } from "MINIFLARE";

const mf = new Miniflare({
  modules: true,
  script: readFileSync(new URL("./worker.bundle.js", import.meta.url), "utf8"),
  compatibilityDate: "2026-07-01",
  compatibilityFlags: ["nodejs_compat"],
  host: "127.0.0.1",
  port: 0,
  ...JSON.parse(process.argv[2]),
});
const url = await mf.ready;
console.log("worker: " + new URL("/mcp", url).href);
process.on("SIGTERM", () => void mf.dispose().then(() => process.exit(0)));
`;

function node22(): string {
  if (process.env["MCPGEN_NODE22"]) return process.env["MCPGEN_NODE22"];
  const found = spawnSync("bash", [join(projectRoot, ".ci", "node"), "22"], { encoding: "utf8", timeout: 300_000 });
  if (found.status !== 0) throw new Error(`.ci/node 22 failed: ${found.stderr}`);
  return found.stdout.trim();
}

/**
 * Bundles `entry` (a file inside the package, so that "mcpgen/..." resolves to
 * this build) into `dir`/worker.bundle.js. Returns the node: modules the
 * bundle reaches: a Worker without nodejs_compat has none of them.
 */
export async function bundleWorker(entry: string, dir: string): Promise<string[]> {
  const named = new Set<string>();
  const bundle = await rolldown({
    input: entry,
    platform: "browser",
    external: (id) => (id.startsWith("node:") ? (named.add(id), true) : false),
    logLevel: "silent",
  });
  const { output } = await bundle.write({ format: "esm", file: join(dir, "worker.bundle.js"), codeSplitting: false });
  await bundle.close();
  for (const chunk of output)
    if (chunk.type === "chunk")
      for (const id of [...chunk.imports, ...chunk.dynamicImports]) if (id.startsWith("node:")) named.add(id);
  return [...named].sort();
}

/** A Worker served by miniflare: its /mcp URL, what it printed, and how to stop it. */
export interface RunningWorker {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Bundles `entry` into a fresh `dir` and starts it; rejects if miniflare exits first or takes 60 s. */
export async function startWorker(entry: string, dir: string, options: WorkerOptions = {}): Promise<RunningWorker> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const nodeModules = await bundleWorker(entry, dir);
  if (nodeModules.length > 0) throw new Error(`${entry} reaches ${nodeModules.join(", ")}`);
  // miniflare lives in the runtimes' folder (.ci/runtimes), not in the project's dependencies.
  const miniflare = createRequire(join(runtimesFolder(), "package.json")).resolve("miniflare");
  writeFileSync(join(dir, "run.mjs"), RUN.replace('"MINIFLARE"', JSON.stringify(pathToFileURL(miniflare).href)));
  const child: ChildProcess = spawn(node22(), [join(dir, "run.mjs"), JSON.stringify(options)], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL after 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const served = /^worker: (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(output);
      if (served) (clearTimeout(timer), resolve(served[1]!));
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`exited with ${code}:\n${output}`))));
  });
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
