// toNodeListener: a fetch handler from createFetchHandler served on node:http
// and behind Express, beside the handler itself. (The HTTP cases every adapter
// passes run in http-adapters.test.ts.) Here: the sessions are the handler's,
// whichever entry a request comes through; a body parser in front gets a 500
// naming the cause or, with the parsed body passed, the answer (never a hang);
// a handler mcpgen did not make is refused at once.
import express from "express";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { McpServer } from "../../runtime/server/index.js";
import { createFetchHandler, toNodeListener, type FetchHandler } from "../../runtime/transports/fetch.js";

const HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "node-listener-test", version: "1" },
};
const perRequestCall = {
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name: "echo", arguments: { text: "hi" }, _meta: meta },
};
const PER_REQUEST_HEADERS = {
  ...HEADERS,
  "MCP-Protocol-Version": "2026-07-28",
  "Mcp-Method": "tools/call",
  "Mcp-Name": "echo",
};

/** The per-request call, given 5 s to be answered (a hang fails the test). */
const postCall = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: PER_REQUEST_HEADERS,
    body: JSON.stringify(perRequestCall),
    signal: AbortSignal.timeout(5_000),
  });

function echoHandler(): FetchHandler {
  const server = new McpServer({ name: "x", version: "1" }, { logger: () => {} });
  server.tool(
    "echo",
    { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return createFetchHandler(server);
}

const servers: { http: Server; handler: FetchHandler }[] = [];
afterEach(async () => {
  for (const { http, handler } of servers.splice(0)) {
    handler.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
});

async function listen(
  handler: FetchHandler,
  listener: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<string> {
  const http = createServer(listener);
  servers.push({ http, handler });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

test("a session opened through toNodeListener is the handler's: the fetch handler continues it", async () => {
  const handler = echoHandler();
  const url = await listen(handler, toNodeListener(handler));
  const init = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  expect(init.status).toBe(200);
  await init.text();
  const session = init.headers.get("mcp-session-id")!;
  expect(handler.sessionCount).toBe(1);
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "on" } } };
  const continued = await handler(
    new Request(url, {
      method: "POST",
      headers: { ...HEADERS, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify(call),
    }),
  );
  expect(continued.status).toBe(200);
  expect(((await continued.json()) as any).result.content).toEqual([{ type: "text", text: "on" }]);
});

test("behind express.json(), mounted as is: Express's `next` is no body, a 500 names the cause (no hang)", async () => {
  const handler = echoHandler();
  const app = express();
  app.use(express.json());
  app.post("/mcp", toNodeListener(handler));
  const url = await listen(handler, app);
  const unread = await postCall(url);
  expect(unread.status).toBe(500);
  expect(await unread.text()).toContain("pass the body it parsed, listener(req, res, req.body)");
});

test("behind express.json(), the parsed body passed is answered", async () => {
  const handler = echoHandler();
  const listener = toNodeListener(handler);
  const app = express();
  app.use(express.json());
  app.post("/mcp", (req, res) => listener(req, res, req.body));
  const url = await listen(handler, app);
  const answered = await postCall(url);
  expect(answered.status).toBe(200);
  const body = (await answered.json()) as any;
  expect([body.id, body.result.content]).toEqual([7, [{ type: "text", text: "hi" }]]);
});

test("a fetch handler mcpgen did not make is refused when the listener is made", () => {
  const foreign = Object.assign(async () => new Response("x"), { sessionCount: 0, close() {} });
  expect(() => toNodeListener(foreign as FetchHandler)).toThrow(/createFetchHandler.*@hono\/node-server/);
});
