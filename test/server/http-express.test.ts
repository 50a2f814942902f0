// StreamableHttpTransport.handle mounted in a real Express app: behind
// express.json() it takes the parsed body (an initialize is answered, a session
// works, never a hang); without a parser it reads the stream itself; behind a
// parser with no parsed body handed over it answers 500 naming the cause.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, expect, test } from "vitest";
import { StreamableHttpTransport } from "../../runtime/transports/http.js";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import { initializeMessage, openSse, post, raw } from "./http-support.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function listen(mount: (app: express.Express, transport: StreamableHttpTransport) => void): Promise<string> {
  const transport = new StreamableHttpTransport(buildEverythingServer({ logger: () => {} }));
  const app = express();
  mount(app, transport);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  stops.push(async () => {
    transport.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const echo = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo", arguments: { text: "via express" } },
});

test("behind express.json(), the parsed body is taken: initialize answered, the session serves calls and its stream", async () => {
  const url = await listen((app, transport) => {
    app.use(express.json());
    app.all("/mcp", (req, res) => transport.handle(req, res, req.body));
  });
  const init = await post(url, initializeMessage());
  expect(init.status).toBe(200);
  const sessionId = init.headers["mcp-session-id"] as string;
  expect(JSON.parse(init.body).result.serverInfo).toBeDefined();
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, { "Mcp-Session-Id": sessionId });
  const called = await post(url, echo(1), { "Mcp-Session-Id": sessionId });
  expect(JSON.parse(called.body).result.content).toEqual([{ type: "text", text: "via express" }]);
  const stream = await openSse("GET", url, { Accept: "text/event-stream", "Mcp-Session-Id": sessionId });
  expect(stream.status).toBe(200);
  stream.reader.close();
});

test("a parsed body is bounded by maxBodyBytes as a read one is (413)", async () => {
  const transport = new StreamableHttpTransport(buildEverythingServer({ logger: () => {} }), { maxBodyBytes: 200 });
  const url = await listen((app) => {
    app.use(express.json());
    app.all("/mcp", (req, res) => transport.handle(req, res, req.body));
  });
  const big = { ...echo(1), params: { name: "echo", arguments: { text: "x".repeat(500) } } };
  const response = await post(url, big);
  expect([response.status, JSON.parse(response.body).error.message]).toEqual([
    413,
    "Payload Too Large: the body exceeds 200 bytes",
  ]);
  transport.close();
});

test("without a body parser, handle reads the stream itself", async () => {
  const url = await listen((app, transport) => app.all("/mcp", (req, res) => transport.handle(req, res)));
  const init = await post(url, initializeMessage());
  expect([init.status, typeof init.headers["mcp-session-id"]]).toEqual([200, "string"]);
});

test("behind express.json() without the parsed body: 500 naming the cause at once, not a hang", async () => {
  const url = await listen((app, transport) => {
    app.use(express.json());
    app.all("/mcp", (req, res) => transport.handle(req, res));
  });
  const started = Date.now();
  const response = await post(url, initializeMessage());
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(response.status).toBe(500);
  expect(JSON.parse(response.body).error.message).toBe(
    "Internal Server Error: the request body was already read before the MCP transport got the request; a body parser such as express.json() ran first: pass the body it parsed, transport.handle(req, res, req.body)",
  );
  // The server goes on serving.
  const again = await raw("GET", url.replace(/\/mcp$/, "/elsewhere"));
  expect(again.status).toBe(404);
});
