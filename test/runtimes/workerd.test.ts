// A fetch handler on Cloudflare's workerd (test/runtimes/workerd.ts): a Worker
// that makes its handler at the module's top level, bundled from the built
// package, started by miniflare on a loopback port, then called by the
// official SDK v2 client pinned to 2026-07-28 and by a 2025 initialize.
// workerd refuses timers at a module's top level: the handler must start none
// until a request comes. The bundle must reach no node: module: a Worker
// without nodejs_compat has none.
import { writeFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";
import { callTool } from "./clients.js";
import { bundleWorker, startWorker, type RunningWorker } from "./workerd.js";

const dir = join(projectRoot, "dist", "runtimes-test", "workerd");
const entry = join(projectRoot, "dist", "runtimes-test", "workerd-entry", "worker.js");

const WORKER = `import { McpServer } from "mcpgen/server";
import { createFetchHandler } from "mcpgen/fetch";

const server = new McpServer({ name: "clock", version: "1.0.0" });
server.tool("now", {}, () => new Date(0).toISOString());
server.tool(
  "forecast",
  { inputSchema: { type: "object", properties: { days: { type: "integer", maximum: 7 } } } },
  ({ days }) => \`sunny for \${days} days\`,
);
// pattern is beyond the subset mcpgen judges without a JSON Schema library: interpreted on Workers.
server.tool(
  "city",
  { inputSchema: { type: "object", properties: { code: { type: "string", pattern: "^[A-Z]{3}$" } }, required: ["code"] } },
  ({ code }) => \`city \${code}\`,
);

export default { fetch: createFetchHandler(server) };
`;

let worker: RunningWorker | undefined;

beforeAll(async () => {
  mkdirSync(join(entry, ".."), { recursive: true });
  writeFileSync(entry, WORKER);
  worker = await startWorker(entry, dir);
}, 360_000);

afterAll(async () => {
  await worker?.stop();
  rmSync(join(entry, ".."), { recursive: true, force: true });
});

test("the Worker's bundle (mcpgen/server and mcpgen/fetch) reaches no node: module", async () => {
  const out = join(projectRoot, "dist", "runtimes-test", "workerd-bundle");
  try {
    expect(await bundleWorker(entry, out)).toEqual([]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("the official SDK v2 client pinned to 2026-07-28 calls a tool on workerd", async () => {
  expect(await callTool("v2 pinned to 2026-07-28", worker!.url, "now")).toEqual({
    revision: "2026-07-28",
    server: "clock",
    text: "1970-01-01T00:00:00.000Z",
  });
});

test("a 2025 initialize opens a session on workerd", async () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "workerd", version: "1" } },
  };
  const opened = await fetch(worker!.url, {
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

test("a tool's arguments are checked on workerd, where ajv cannot run: a tool error names what broke the schema", async () => {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "workerd", version: "1" },
  };
  const call = (name: string, args: Record<string, unknown>) =>
    fetch(worker!.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name, arguments: args, _meta: meta },
      }),
    }).then((response) => response.json() as Promise<Record<string, any>>);
  expect((await call("forecast", { days: 2 })).result.content).toEqual([{ type: "text", text: "sunny for 2 days" }]);
  expect((await call("city", { code: "OSL" })).result.content).toEqual([{ type: "text", text: "city OSL" }]);
  // server/tools#error-handling: invalid arguments are a tool execution error the model can read.
  const refused = await call("forecast", { days: 9 });
  expect(refused.result?.isError, JSON.stringify(refused)).toBe(true);
  expect(refused.result.content[0].text).toMatch(/^Invalid arguments for tool forecast: \/days: .*7/);
  const unmatched = await call("city", { code: "oslo" });
  expect(unmatched.result?.isError, JSON.stringify(unmatched)).toBe(true);
  expect(unmatched.result.content[0].text).toMatch(/^Invalid arguments for tool city: \/code: .*pattern/);
});
