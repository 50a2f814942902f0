// docs/transports.md's fetch handler and Express blocks, run as written: the
// fetch block compiled in a strict nodenext project and its export called with
// web Requests as a platform would (a 2026-07-28 call, a 2025 initialize, a
// Host not listed); the Express block started on a free loopback port and
// called by mcpgen's client in both eras, as is the fetch handler on node:http
// (toNodeListener).
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, expect, test } from "vitest";
import { Client, StreamableHttpClientTransport } from "mcpgen/client";
import { compile, snippet, workFolder } from "./pages.js";

/** A JSON body, read as the test expects it to be shaped. */
const jsonOf = async (response: Response) => (await response.json()) as Record<string, any>;

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

test("the fetch block answers Requests: a 2026-07-28 call, a 2025 initialize, 403 for a Host not listed", async () => {
  const dir = workFolder("transports-fetch");
  expect(compile(dir, { "fetch.ts": snippet("docs/transports.md", "fetch") })).toBe("exit 0");
  const module = (await import(pathToFileURL(join(dir, "fetch.js")).href)) as {
    handler: ((request: Request) => Promise<Response>) & { close(): void };
    default: { fetch: (request: Request) => Promise<Response> };
  };
  try {
    expect(module.default.fetch).toBe(module.handler);
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "docs", version: "1" },
    };
    const called = await module.default.fetch(
      new Request("https://mcp.example.com/mcp", {
        method: "POST",
        headers: { ...headers, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "now" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "now", _meta: meta } }),
      }),
    );
    expect(called.status).toBe(200);
    expect((await jsonOf(called)).result.content).toEqual([{ type: "text", text: "1970-01-01T00:00:00.000Z" }]);
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "docs", version: "1" } },
    };
    const opened = await module.handler(
      new Request("https://mcp.example.com/mcp", { method: "POST", headers, body: JSON.stringify(initialize) }),
    );
    expect(opened.status).toBe(200);
    expect(opened.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{32}$/);
    const elsewhere = await module.handler(
      new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: JSON.stringify(initialize) }),
    );
    expect([elsewhere.status, (await jsonOf(elsewhere)).error.message]).toEqual([
      403,
      "Forbidden: Host 127.0.0.1 is not allowed",
    ]);
  } finally {
    module.handler.close();
  }
}, 120_000);

/** Compiles `docs/transports.md`'s block `name`, starts it with PORT=0 and returns the URL it prints. */
async function startBlock(name: string): Promise<string> {
  const dir = workFolder(`transports-${name}`);
  expect(compile(dir, { [`${name}.ts`]: snippet("docs/transports.md", name) })).toBe("exit 0");
  const child = spawn(process.execPath, [join(dir, `${name}.js`)], {
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const served = /^serving (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(stdout);
      if (served) resolve(served[1]!);
    });
    child.once("exit", (code) => reject(new Error(`${name}.js exited with ${code}: ${stderr}`)));
  });
}

test.each(["express", "fetch-node"])(
  "the %s block serves mcpgen's client per request and in a 2025-11-25 session",
  async (name) => {
    const url = await startBlock(name);
    for (const revision of [undefined, "2025-11-25"] as const) {
      const client = await Client.connect(new StreamableHttpClientTransport(url), { revision });
      try {
        expect(client.revision.name).toBe(revision ?? "2026-07-28");
        const result = await client.callTool("now");
        expect(result.content).toEqual([{ type: "text", text: "1970-01-01T00:00:00.000Z" }]);
      } finally {
        await client.close();
      }
    }
  },
  120_000,
);
