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

test("aborting a Request's signal cancels its per-request call in flight", async () => {
  const cancelled: string[] = [];
  const server = new McpServer({ name: "x", version: "1" }, { logger: () => {} });
  server.tool("wait", {}, async (_args, context) => {
    context.progress(1, 2);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      context.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        cancelled.push("wait");
        resolve();
      });
    });
    return "done";
  });
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
