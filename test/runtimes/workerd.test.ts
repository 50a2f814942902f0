// A fetch handler on Cloudflare's workerd (the npm package miniflare, .ci/runtimes, which
// needs Node >= 22: MCPGEN_NODE22 or .ci/node 22): a Worker that makes its
// handler at the module's top level, bundled from the built package by
// rolldown as a Workers bundler would, started on a loopback port, then called
// by the official SDK v2 client pinned to 2026-07-28 and by a 2025 initialize.
// workerd refuses timers at a module's top level: the handler must start none
// until a request comes.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { rolldown } from "rolldown";
import { afterAll, beforeAll, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";
import { runtimesFolder } from "./installed.js";

const dir = join(projectRoot, "dist", "runtimes-test", "workerd");

const WORKER = `import { McpServer } from "mcpgen/server";
import { createFetchHandler } from "mcpgen/fetch";

const server = new McpServer({ name: "clock", version: "1.0.0" });
server.tool("now", {}, () => new Date(0).toISOString());

export default { fetch: createFetchHandler(server) };
`;

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

let child: ChildProcess | undefined;
let url = "";
let output = "";

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "worker.js"), WORKER);
  // miniflare lives in the runtimes' folder (.ci/runtimes), not in the project's dependencies.
  const miniflare = createRequire(join(runtimesFolder(), "package.json")).resolve("miniflare");
  writeFileSync(join(dir, "run.mjs"), RUN.replace('"MINIFLARE"', JSON.stringify(pathToFileURL(miniflare).href)));
  const bundle = await rolldown({
    input: join(dir, "worker.js"),
    platform: "browser",
    external: (id) => id.startsWith("node:"),
    logLevel: "silent",
  });
  await bundle.write({ format: "esm", file: join(dir, "worker.bundle.js"), codeSplitting: false });
  await bundle.close();
  child = spawn(node22(), [join(dir, "run.mjs")], { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"] });
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL after 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const served = /^worker: (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(output);
      if (served) (clearTimeout(timer), resolve(served[1]!));
    };
    child!.stdout!.on("data", read);
    child!.stderr!.on("data", read);
    child!.once("exit", (code) => (clearTimeout(timer), reject(new Error(`exited with ${code}:\n${output}`))));
  });
}, 360_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child!.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
});

test("the official SDK v2 client pinned to 2026-07-28 calls a tool on workerd", async () => {
  const client = new ClientV2({ name: "v2-pin", version: "2.4.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" }, probe: { timeoutMs: 5_000 } },
  } as never);
  try {
    await client.connect(new HttpV2(new URL(url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const result = (await client.callTool({ name: "now", arguments: {} })) as { content: { text?: string }[] };
    expect(result.content[0]?.text).toBe("1970-01-01T00:00:00.000Z");
  } finally {
    await client.close();
  }
});

test("a 2025 initialize opens a session on workerd", async () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "workerd", version: "1" } },
  };
  const opened = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify(initialize),
  });
  expect(opened.status).toBe(200);
  expect(opened.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{32}$/);
  expect(((await opened.json()) as { result: { serverInfo: unknown } }).result.serverInfo).toEqual({
    name: "clock",
    version: "1.0.0",
  });
});
