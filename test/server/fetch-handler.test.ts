// What only the fetch adapter has: a Request's signal as the connection (its
// abort cancels a per-request call in flight), a body already read by
// something before the handler (500 naming the cause, not a wait), and Host
// taken from the URL where the platform keeps the authority only there.
import { expect, test } from "vitest";
import { McpServer } from "../../runtime/server/index.js";
import { createFetchHandler } from "../../runtime/transports/fetch.js";

/** A JSON body, read as the test expects it to be shaped. */
const jsonOf = async (response: Response) => (await response.json()) as Record<string, any>;

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "fetch-test", version: "1" },
};

function callRequest(name: string, init: RequestInit = {}, url = "http://127.0.0.1/mcp"): Request {
  return new Request(url, {
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
      params: { name, arguments: {}, _meta: { ...meta, progressToken: "p" } },
    }),
    ...init,
  });
}

/** A server whose tool `name` waits until cancelled (reporting progress first if `progress`). */
function waitingServer(name: string, progress: boolean) {
  const cancelled: string[] = [];
  const server = new McpServer({ name: "x", version: "1" }, { logger: () => {} });
  server.tool(name, {}, async (_args, context) => {
    if (progress) context.progress(1, 2);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      context.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        cancelled.push(name);
        resolve();
      });
    });
    return "done";
  });
  return { server, cancelled };
}

test("aborting a Request's signal cancels its per-request call in flight", async () => {
  const { server, cancelled } = waitingServer("wait", true);
  const handler = createFetchHandler(server);
  try {
    const abort = new AbortController();
    const response = await handler(callRequest("wait", { signal: abort.signal }));
    expect([response.status, response.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("notifications/progress");
    abort.abort();
    await expect.poll(() => cancelled, { timeout: 5_000 }).toEqual(["wait"]);
  } finally {
    handler.close();
  }
});

test("a body read before the handler got the Request: 500 naming the cause", async () => {
  const server = new McpServer({ name: "x", version: "1" }, { logger: () => {} });
  server.tool("now", {}, () => "now");
  const handler = createFetchHandler(server);
  try {
    const request = callRequest("now");
    await request.text();
    const response = await handler(request);
    expect([response.status, (await jsonOf(response)).error.message]).toEqual([
      500,
      "Internal Server Error: the request body was already read before the MCP transport got the request; pass the Request before anything reads its body",
    ]);
    // Host comes from the URL when no Host field is given: an allowed one passes, another is 403.
    const answered = await handler(callRequest("now"));
    expect(answered.status).toBe(200);
    const elsewhere = await handler(callRequest("now", {}, "http://evil.example/mcp"));
    expect(elsewhere.status).toBe(403);
  } finally {
    handler.close();
  }
});

test("aborting a Request's signal cancels a call whose JSON answer is still to come", async () => {
  const { server, cancelled } = waitingServer("slow", false);
  const handler = createFetchHandler(server);
  try {
    const abort = new AbortController();
    const plain = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "slow",
      },
      // No progress token: nothing is streamed, the answer is one JSON body when the tool ends.
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", _meta: meta } }),
      signal: abort.signal,
    });
    const answered = handler(plain);
    await new Promise((resolve) => setTimeout(resolve, 100));
    abort.abort();
    await expect.poll(() => cancelled, { timeout: 5_000 }).toEqual(["slow"]);
    expect((await answered).status).toBe(499);
  } finally {
    handler.close();
  }
});

test("a body longer than its declared Content-Length is still bounded by maxBodyBytes: 413", async () => {
  const server = new McpServer({ name: "x", version: "1" }, { logger: () => {} });
  server.tool("now", {}, () => "now");
  const handler = createFetchHandler(server, { maxBodyBytes: 1024 });
  try {
    const request = callRequest("now", {
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Content-Length": "10",
        "MCP-Protocol-Version": "2026-07-28",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { pad: "x".repeat(2048) } }),
    });
    const response = await handler(request);
    expect([response.status, await response.text()]).toEqual([413, expect.stringContaining("exceeds 1024 bytes")]);
  } finally {
    handler.close();
  }
});
