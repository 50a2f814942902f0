// Streamable HTTP and HTTP+SSE on a real node:http server on loopback: every
// status code the transport answers with, sessions, streams, resumption, and
// interop with the official SDK's StreamableHTTPClientTransport and
// SSEClientTransport.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { serveHttp, type HttpOptions, type HttpServerHandle } from "../../runtime/transports/http.js";
import { RebindingGuard } from "../../runtime/transports/http-guard.js";
import type { IncomingMessage } from "node:http";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import { ACCEPT_BOTH, initializeMessage, openSession, openSse, post, raw } from "./http-support.js";

const quiet = { logger: () => {} };
const handles: HttpServerHandle[] = [];

async function start(options: HttpOptions = {}): Promise<HttpServerHandle> {
  const handle = await serveHttp(buildEverythingServer(quiet), options);
  handles.push(handle);
  return handle;
}

afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

const call = (
  id: number | string,
  name: string,
  args: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

describe("status codes", () => {
  test("initialize gets a session id; a notification 202; a request 200 with JSON", async () => {
    const { url } = await start();
    const init = await post(url, initializeMessage());
    expect(init.status).toBe(200);
    expect(init.headers["content-type"]).toBe("application/json");
    const sessionId = init.headers["mcp-session-id"] as string;
    expect(sessionId).toMatch(/^[\x21-\x7e]{32}$/);
    expect(JSON.parse(init.body).result.protocolVersion).toBe("2025-11-25");
    const initialized = await post(
      url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "Mcp-Session-Id": sessionId },
    );
    expect([initialized.status, initialized.body]).toEqual([202, ""]);
    // An empty body with its length, not an empty chunked one.
    expect([initialized.headers["content-length"], initialized.headers["transfer-encoding"]]).toEqual(["0", undefined]);
    const echoed = await post(url, call(1, "echo", { text: "hi" }), { "Mcp-Session-Id": sessionId });
    expect(echoed.status).toBe(200);
    expect(JSON.parse(echoed.body)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "hi" }] },
    });
  });

  test("a JSON answer declares its length in bytes, not chunked: a result, beyond ASCII, stateless, an error", async () => {
    const declared = (response: { headers: IncomingMessage["headers"]; body: string }) => [
      response.headers["content-length"],
      response.headers["transfer-encoding"],
    ];
    const text = "h\u00e9llo \u2603 \u{1f600}"; // 2-, 3- and 4-byte UTF-8
    const { url } = await start();
    const sessionId = await openSession(url);
    const echoed = await post(url, call(1, "echo", { text }), { "Mcp-Session-Id": sessionId });
    expect(JSON.parse(echoed.body).result.content[0].text).toBe(text);
    expect(declared(echoed)).toEqual([String(Buffer.byteLength(echoed.body)), undefined]);
    expect(Buffer.byteLength(echoed.body)).toBeGreaterThan(echoed.body.length);
    const unknown = await post(url, call(2, "echo", { text }), { "Mcp-Session-Id": "no-such-session" });
    expect(unknown.status).toBe(404);
    expect(declared(unknown)).toEqual([String(Buffer.byteLength(unknown.body)), undefined]);
    const stateless = await start({ sessions: false });
    const alone = await post(stateless.url, call(3, "echo", { text }), { "MCP-Protocol-Version": "2025-11-25" });
    expect(JSON.parse(alone.body).result.content[0].text).toBe(text);
    expect(declared(alone)).toEqual([String(Buffer.byteLength(alone.body)), undefined]);
  });

  test("400: no session id, an unsupported MCP-Protocol-Version, malformed JSON", async () => {
    const { url } = await start();
    const noSession = await post(url, call(1, "echo", { text: "x" }));
    expect(noSession.status).toBe(400);
    // The body was read: the error names the request it refuses (basic#error-responses).
    expect(JSON.parse(noSession.body)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32000, message: "Bad Request: the Mcp-Session-Id header is required (initialize to get one)" },
    });
    const sessionId = await openSession(url);
    const version = await post(url, call(2, "echo", { text: "x" }), {
      "Mcp-Session-Id": sessionId,
      "MCP-Protocol-Version": "1999-01-01",
    });
    expect(version.status).toBe(400);
    expect(JSON.parse(version.body).id).toBe(2);
    expect(JSON.parse(version.body).error.message).toBe(
      "Bad Request: MCP-Protocol-Version 1999-01-01 is not supported (supported: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)",
    );
    const malformed = await post(url, '{"jsonrpc": "2.0", "id": 3,', { "Mcp-Session-Id": sessionId });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body).error).toMatchObject({ code: -32700 });
    // The session goes on.
    expect((await post(url, call(4, "echo", { text: "ok" }), { "Mcp-Session-Id": sessionId })).status).toBe(200);
  });

  test("403: a Host or an Origin not on the allow-list (DNS rebinding); loopback ones pass", async () => {
    const { url, port } = await start();
    for (const headers of <Record<string, string>[]>[
      { Host: "evil.example.com" },
      { Origin: "http://evil.example.com" },
      { Host: `localhost:${port}`, Origin: "https://attacker.test:8443" },
    ]) {
      const refused = await post(url, initializeMessage(), headers);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.message).toMatch(/^Forbidden: (Host|Origin) \S+ is not allowed$/);
    }
    const local = await post(url, initializeMessage(), {
      Host: `localhost:${port}`,
      Origin: `http://localhost:${port}`,
    });
    expect(local.status).toBe(200);
    // The transport remembers the last allowed Host and Origin: others are still refused after them.
    for (const headers of <Record<string, string>[]>[
      { Host: "evil.example.com" },
      { Host: `localhost:${port}`, Origin: "http://evil.example.com" },
    ])
      expect((await post(url, initializeMessage(), headers)).status).toBe(403);
  });

  test("the rebinding guard: a missing Host is refused, also after an allowed one", () => {
    const guard = new RebindingGuard("127.0.0.1", {});
    const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
    expect(guard.refusal(request({}))).toBe("the Host header is missing");
    expect(guard.refusal(request({ host: "127.0.0.1:1" }))).toBeUndefined();
    expect(guard.refusal(request({}))).toBe("the Host header is missing");
    expect(guard.refusal(request({ host: "127.0.0.1:1", origin: "http://localhost:2" }))).toBeUndefined();
    expect(guard.refusal(request({ host: "127.0.0.1:1", origin: "null" }))).toBe("Origin null is not allowed");
  });

  test("404: an unknown session, and a session after DELETE", async () => {
    const { url } = await start();
    const unknown = await post(url, call(1, "echo", { text: "x" }), { "Mcp-Session-Id": "no-such-session" });
    expect(unknown.status).toBe(404);
    // No id: the client must start a new session, not take this as the request's answer.
    expect(JSON.parse(unknown.body).id).toBeUndefined();
    expect(JSON.parse(unknown.body).error).toEqual({
      code: -32001,
      message: "Not Found: session no-such-session does not exist or has ended",
    });
    const sessionId = await openSession(url);
    expect((await raw("DELETE", url, { headers: { "Mcp-Session-Id": sessionId } })).status).toBe(204);
    expect((await post(url, call(2, "echo", { text: "x" }), { "Mcp-Session-Id": sessionId })).status).toBe(404);
    expect((await raw("DELETE", url, { headers: { "Mcp-Session-Id": sessionId } })).status).toBe(404);
  });

  test("405: other methods; GET and DELETE when stateless", async () => {
    const { url } = await start();
    const put = await raw("PUT", url, { headers: { Accept: ACCEPT_BOTH } });
    expect([put.status, put.headers["allow"]]).toEqual([405, "GET, POST, DELETE"]);
    const stateless = await start({ sessions: false });
    expect((await raw("GET", stateless.url, { headers: { Accept: "text/event-stream" } })).status).toBe(405);
    expect((await raw("DELETE", stateless.url)).status).toBe(405);
  });

  test("406: an Accept header without both types; 415: not JSON", async () => {
    const { url } = await start();
    const onlyJson = await post(url, initializeMessage(), { Accept: "application/json" });
    expect(onlyJson.status).toBe(406);
    expect(JSON.parse(onlyJson.body).error.message).toBe(
      "Not Acceptable: the Accept header must list application/json and text/event-stream",
    );
    const sessionId = await openSession(url);
    const get = await raw("GET", url, { headers: { Accept: "application/json", "Mcp-Session-Id": sessionId } });
    expect(get.status).toBe(406);
    // Wildcards cover both types; a header that lacks one is refused right after one that passed.
    for (const [i, [accept, status]] of (<[string, number][]>[
      ["text/*, application/*", 200],
      ["application/json;q=0.9", 406],
      ["*/*", 200],
      ["text/event-stream", 406],
    ]).entries()) {
      const reply = await post(url, call(10 + i, "echo", { text: "x" }), {
        "Mcp-Session-Id": sessionId,
        Accept: accept,
      });
      expect([accept, reply.status]).toEqual([accept, status]);
    }
    const text = await raw("POST", url, {
      headers: { "Content-Type": "text/plain", Accept: ACCEPT_BOTH },
      body: JSON.stringify(initializeMessage()),
    });
    expect(text.status).toBe(415);
    // application/json with parameters or in other case passes; a longer type does not.
    for (const [i, [type, status]] of (<[string, number][]>[
      ["application/json; charset=utf-8", 200],
      ["Application/JSON", 200],
      ["application/jsonx", 415],
    ]).entries()) {
      const reply = await post(url, call(20 + i, "echo", { text: "x" }), {
        "Mcp-Session-Id": sessionId,
        "Content-Type": type,
      });
      expect([type, reply.status]).toEqual([type, status]);
    }
  });

  test("413: a body over the limit, whether declared or streamed", async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const big = JSON.stringify(call(1, "echo", { text: "x".repeat(2000) }));
    const declared = await post(url, big);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.message).toBe("Payload Too Large: the body exceeds 1024 bytes");
    const streamed = await raw("POST", url, {
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, "Transfer-Encoding": "chunked" },
      body: big,
    });
    expect(streamed.status).toBe(413);
  });

  test("500: a failure after the body was read (in its callback) is answered and logged; the server keeps serving", async () => {
    const logged: string[] = [];
    const server = buildEverythingServer({ logger: (level, message) => void logged.push(`${level}: ${message}`) });
    const handle = await serveHttp(server, { sessions: false });
    handles.push(handle);
    const connect = server.connect.bind(server);
    // Stateless POSTs connect a session per request, once the body is in: make that throw once.
    server.connect = () => {
      server.connect = connect;
      throw new Error("no session today");
    };
    const failed = await post(handle.url, call(1, "echo", { text: "a" }), {
      "MCP-Protocol-Version": "2025-11-25",
    });
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body).error.message).toBe("Internal Server Error");
    expect(logged).toContain("error: HTTP POST /mcp failed");
    const next = await post(handle.url, call(2, "echo", { text: "b" }), { "MCP-Protocol-Version": "2025-11-25" });
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body).result.content[0].text).toContain("b");
  });

  test("409: a second standalone stream for one session; 503 past maxSessions when every session is busy", async () => {
    const { url } = await start({ maxSessions: 1 });
    const sessionId = await openSession(url);
    const first = await openSse("GET", url, { Accept: "text/event-stream", "Mcp-Session-Id": sessionId });
    expect(first.status).toBe(200);
    const second = await raw("GET", url, { headers: { Accept: "text/event-stream", "Mcp-Session-Id": sessionId } });
    expect(second.status).toBe(409);
    const tooMany = await post(url, initializeMessage());
    expect([tooMany.status, tooMany.headers["retry-after"]]).toEqual([503, "5"]);
    first.reader.close();
  });

  test("an idle session expires (404), one with an open stream does not", async () => {
    const { url } = await start({ sessionIdleMs: 150 });
    const idle = await openSession(url);
    const watched = await openSession(url);
    const stream = await openSse("GET", url, { Accept: "text/event-stream", "Mcp-Session-Id": watched });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await post(url, call(1, "echo", { text: "x" }), { "Mcp-Session-Id": idle })).status).toBe(404);
    expect((await post(url, call(1, "echo", { text: "x" }), { "Mcp-Session-Id": watched })).status).toBe(200);
    stream.reader.close();
  });
});

describe("streams", () => {
  test("a request whose handler reports progress is answered on an SSE stream: priming event, progress, response", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const { status, headers, reader } = await openSse(
      "POST",
      url,
      { "Content-Type": "application/json", Accept: ACCEPT_BOTH, "Mcp-Session-Id": sessionId },
      JSON.stringify(call("p1", "slow", { steps: 3 }, { progressToken: "t" })),
    );
    expect([status, headers["content-type"]]).toEqual([200, "text/event-stream"]);
    await reader.until(() => reader.ended);
    expect(reader.events[0]).toMatchObject({ id: "s1_0", data: "", retry: 1000 });
    const messages = reader.messages();
    expect(messages.map((m) => m["method"] ?? `response ${m["id"]}`)).toEqual([
      "notifications/progress",
      "notifications/progress",
      "notifications/progress",
      "response p1",
    ]);
    expect(reader.events.slice(1).map((e) => e.id)).toEqual(["s1_1", "s1_2", "s1_3", "s1_4"]);
  });

  test("after a dropped stream, GET with Last-Event-ID replays what was missed and carries the rest", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const posted = await openSse(
      "POST",
      url,
      { "Content-Type": "application/json", Accept: ACCEPT_BOTH, "Mcp-Session-Id": sessionId },
      JSON.stringify(call("long", "slow", { steps: 20 }, { progressToken: 9 })),
    );
    await posted.reader.until((events) => events.length >= 3); // priming + two progress events
    const lastSeen = posted.reader.events.at(-1)!.id!;
    posted.reader.close(); // the connection drops; the request goes on (disconnection is not cancellation)
    await new Promise((resolve) => setTimeout(resolve, 60));
    const resumed = await openSse("GET", url, {
      Accept: "text/event-stream",
      "Mcp-Session-Id": sessionId,
      "Last-Event-ID": lastSeen,
    });
    expect(resumed.status).toBe(200);
    await resumed.reader.until(() => resumed.reader.ended);
    const progress = [...posted.reader.messages(), ...resumed.reader.messages()]
      .filter((m) => m["method"] === "notifications/progress")
      .map((m) => m["params"]["progress"]);
    expect(progress).toEqual(Array.from({ length: 20 }, (_, i) => i + 1)); // none lost, none twice
    expect(resumed.reader.messages().at(-1)).toMatchObject({
      id: "long",
      result: { content: [{ text: "done after 20 steps" }] },
    });
    // An id of no stream of this session is refused.
    const bogus = await raw("GET", url, {
      headers: { Accept: "text/event-stream", "Mcp-Session-Id": sessionId, "Last-Event-ID": "s99_1" },
    });
    expect(bogus.status).toBe(400);
  });

  test("list_changed travels on the standalone GET stream", async () => {
    const { url } = await start();
    const sessionId = await openSession(url);
    const standalone = await openSse("GET", url, { Accept: "text/event-stream", "Mcp-Session-Id": sessionId });
    await post(url, call(1, "add_tool"), { "Mcp-Session-Id": sessionId });
    await standalone.reader.until(() => standalone.reader.messages().length > 0);
    expect(standalone.reader.messages()).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
    standalone.reader.close();
  });

  test('responseMode "json" answers with JSON even when the handler reports progress; "sse" always streams', async () => {
    const json = await start({ responseMode: "json" });
    const jsonSession = await openSession(json.url);
    const answered = await post(json.url, call(1, "slow", { steps: 2 }, { progressToken: 1 }), {
      "Mcp-Session-Id": jsonSession,
    });
    expect(answered.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answered.body).result.content[0].text).toBe("done after 2 steps");
    const sse = await start({ responseMode: "sse" });
    const sseSession = await openSession(sse.url);
    const streamed = await post(sse.url, call(1, "echo", { text: "x" }), { "Mcp-Session-Id": sseSession });
    expect(streamed.headers["content-type"]).toBe("text/event-stream");
    expect(streamed.body).toMatch(
      /^id: s1_0\nretry: 1000\ndata: \n\nid: s1_1\ndata: \{"jsonrpc":"2.0","id":1,"result":/,
    );
  });

  test("stateless: no session id; every POST stands alone, at the version its header names", async () => {
    const { url } = await start({ sessions: false });
    const init = await post(url, initializeMessage("2025-06-18"));
    expect(init.status).toBe(200);
    expect(init.headers["mcp-session-id"]).toBeUndefined();
    const listed = await post(
      url,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "MCP-Protocol-Version": "2025-06-18" },
    );
    expect(JSON.parse(listed.body).result.tools.length).toBeGreaterThan(5);
    // Without the header, 2025-03-26 is assumed: structured content does not exist there.
    const added = await post(url, call(3, "add", { a: 1, b: 2 }));
    expect(JSON.parse(added.body).result).toEqual({ content: [{ type: "text", text: '{"sum":3}' }] });
    const sampled = await post(url, call(4, "sample"));
    expect(JSON.parse(sampled.body).result.isError).toBe(true); // no session to carry the client's answer
    // A version the server does not serve: 400, naming it (basic/transports#protocol-version-header).
    const unsupported = await post(url, call(5, "add", { a: 1, b: 2 }), { "MCP-Protocol-Version": "1999-01-01" });
    expect(unsupported.status).toBe(400);
    expect(JSON.parse(unsupported.body).error.message).toMatch(
      /^Bad Request: MCP-Protocol-Version 1999-01-01 is not supported/,
    );
  });
});

describe("the official SDK client", () => {
  let handle: HttpServerHandle;
  beforeAll(async () => {
    handle = await serveHttp(buildEverythingServer(quiet));
  });
  afterAll(async () => {
    await handle.close();
  });

  test("StreamableHTTPClientTransport: lists and calls tools, gets logs and answers sampling over SSE", async () => {
    const client = new Client({ name: "sdk-http", version: "1.0.0" }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "from the SDK client" },
      model: "m",
    }));
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.level);
    });
    const transport = new StreamableHTTPClientTransport(new URL(handle.url));
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{32}$/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("echo");
    expect((await client.callTool({ name: "echo", arguments: { text: "over http" } })).content).toEqual([
      { type: "text", text: "over http" },
    ]);
    expect((await client.callTool({ name: "add", arguments: { a: 2, b: 5 } })).structuredContent).toEqual({ sum: 7 });
    const progress: number[] = [];
    await client.callTool({ name: "slow", arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(progress).toEqual([1, 2, 3]);
    await client.callTool({ name: "log" });
    expect(logs).toEqual(["debug", "info", "warning", "error"]);
    const sampled = await client.callTool({ name: "sample", arguments: { q: "?" } });
    expect(sampled.content).toEqual([{ type: "text", text: "model said: from the SDK client" }]);
    await transport.terminateSession();
    expect(handle.transport.sessionCount).toBe(0);
    await client.close();
  });

  test("SSEClientTransport (2024-11-05 HTTP+SSE): connects to /sse and calls tools", async () => {
    const client = new Client({ name: "sdk-sse", version: "1.0.0" });
    const transport = new SSEClientTransport(new URL(handle.url.replace(/\/mcp$/, "/sse")));
    await client.connect(transport);
    expect(handle.transport.sessionCount).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("echo");
    expect((await client.callTool({ name: "echo", arguments: { text: "legacy" } })).content).toEqual([
      { type: "text", text: "legacy" },
    ]);
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handle.transport.sessionCount).toBe(0);
  });
});
