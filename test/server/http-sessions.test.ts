// Abandoned sessions must not lock new clients out: at the session cap a new
// initialize evicts the least recently active idle session, never one with a
// connected stream or work in flight, and only when every session is busy is
// it refused (503 + Retry-After). Per-session bounds refuse the item beyond
// them with an error that names the limit.
import { Agent } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, test } from "vitest";
import { McpServer, type ServerOptions } from "../../runtime/server/index.js";
import { serveHttp, type HttpOptions, type HttpServerHandle } from "../../runtime/transports/http.js";
import { InMemoryEventStore } from "../../runtime/transports/sse.js";
import { inProcess } from "./support.js";
import { ACCEPT_BOTH, initializeMessage, openSession, openSse, raw, type RawResponse } from "./http-support.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function until(test: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const handles: HttpServerHandle[] = [];
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

/** A server whose `wait` tool runs until `release()`. */
function buildServer(options: ServerOptions = {}) {
  const server = new McpServer({ name: "sessions", version: "1" }, { logger: () => {}, ...options });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  server.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) =>
    String(text),
  );
  server.tool("wait", {}, async () => {
    await released;
    return "released";
  });
  return { server, release };
}

async function start(options: HttpOptions, server = buildServer().server): Promise<HttpServerHandle> {
  const handle = await serveHttp(server, options);
  handles.push(handle);
  return handle;
}

function postKeepAlive(url: string, message: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw("POST", url, {
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers },
    body: JSON.stringify(message),
    agent,
  });
}

/** `count` initialize POSTs that never come back, 16 at a time; their session ids. */
async function abandon(url: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 16) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(16, count - i) }, () => postKeepAlive(url, initializeMessage())),
    );
    for (const response of batch) {
      expect(response.status).toBe(200);
      ids.push(response.headers["mcp-session-id"] as string);
    }
  }
  return ids;
}

const echo = (id: number, text = "hi") => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo", arguments: { text } },
});

describe("eviction at the session cap", () => {
  test("1000 abandoned sessions, then a new client (the official SDK) initializes and calls a tool", async () => {
    const handle = await start({}); // the default cap: 1000
    const abandoned = await abandon(handle.url, 1000);
    expect(handle.transport.sessionCount).toBe(1000);

    const client = new Client({ name: "late", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    const result = await client.callTool({ name: "echo", arguments: { text: "still served" } });
    expect(result.content).toEqual([{ type: "text", text: "still served" }]);
    await client.close();
    // The least recently active one made room; it is gone (404), the next oldest is not.
    const evicted = await postKeepAlive(handle.url, echo(1), { "Mcp-Session-Id": abandoned[0]! });
    expect(evicted.status).toBe(404);
    const kept = await postKeepAlive(handle.url, echo(1), { "Mcp-Session-Id": abandoned[1]! });
    expect(kept.status).toBe(200);
  });

  test("the least recently active idle session makes room, not the oldest one", async () => {
    const handle = await start({ maxSessions: 3 });
    const first = await openSession(handle.url);
    const second = await openSession(handle.url);
    const third = await openSession(handle.url);
    // The first becomes the most recently active: the second is now the idlest.
    expect((await postKeepAlive(handle.url, echo(1), { "Mcp-Session-Id": first })).status).toBe(200);
    expect((await postKeepAlive(handle.url, initializeMessage())).status).toBe(200);
    expect((await postKeepAlive(handle.url, echo(2), { "Mcp-Session-Id": second })).status).toBe(404);
    expect((await postKeepAlive(handle.url, echo(3), { "Mcp-Session-Id": first })).status).toBe(200);
    // The third was idler than the first: it goes next.
    expect((await postKeepAlive(handle.url, initializeMessage())).status).toBe(200);
    expect((await postKeepAlive(handle.url, echo(4), { "Mcp-Session-Id": third })).status).toBe(404);
    expect((await postKeepAlive(handle.url, echo(5), { "Mcp-Session-Id": first })).status).toBe(200);
  });

  test("a session with an open stream or a request in flight is never evicted; 503 + Retry-After when all are busy", async () => {
    const { server, release } = buildServer();
    const handle = await start({ maxSessions: 3 }, server);
    const streaming = await openSession(handle.url);
    const stream = await openSse("GET", handle.url, { Accept: "text/event-stream", "Mcp-Session-Id": streaming });
    expect(stream.status).toBe(200);
    const working = await openSession(handle.url);
    const waiting = postKeepAlive(
      handle.url,
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "wait", arguments: {} } },
      { "Mcp-Session-Id": working },
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // the call is in flight
    const idle = await openSession(handle.url);

    // Full: the new one evicts the idle session, the oldest busy ones stay.
    const fourth = await postKeepAlive(handle.url, initializeMessage());
    expect(fourth.status).toBe(200);
    expect((await postKeepAlive(handle.url, echo(2), { "Mcp-Session-Id": idle })).status).toBe(404);
    // The fourth is idle too (it never sent anything else): the next evicts it.
    const fifth = await postKeepAlive(handle.url, initializeMessage());
    expect(fifth.status).toBe(200);
    // Make the fifth busy as well: now every session is, and a new one is refused.
    const fifthId = fifth.headers["mcp-session-id"] as string;
    const fifthStream = await openSse("GET", handle.url, { Accept: "text/event-stream", "Mcp-Session-Id": fifthId });
    const refused = await postKeepAlive(handle.url, initializeMessage());
    expect([refused.status, refused.headers["retry-after"]]).toEqual([503, "5"]);
    expect(JSON.parse(refused.body).error.message).toMatch(/every session is busy/);

    // The busy ones were never touched.
    expect((await postKeepAlive(handle.url, echo(3), { "Mcp-Session-Id": streaming })).status).toBe(200);
    release();
    expect(JSON.parse((await waiting).body).result.content[0].text).toBe("released");
    // The work done, that session is idle and may now make room.
    stream.reader.close();
    fifthStream.reader.close();
    expect((await postKeepAlive(handle.url, initializeMessage())).status).toBe(200);
  });

  test("the HTTP+SSE endpoint counts against the same cap and may evict an idle Streamable HTTP session", async () => {
    const handle = await start({ maxSessions: 1 });
    const idle = await openSession(handle.url);
    const sse = await openSse("GET", handle.url.replace(/\/mcp$/, "/sse"), { Accept: "text/event-stream" });
    expect(sse.status).toBe(200);
    expect((await postKeepAlive(handle.url, echo(1), { "Mcp-Session-Id": idle })).status).toBe(404);
    // The SSE session holds its stream open: it is busy, so nothing more fits.
    const refused = await postKeepAlive(handle.url, initializeMessage());
    expect(refused.status).toBe(503);
    sse.reader.close();
  });

  test("memory returns near its baseline once abandoned sessions are gone", async () => {
    const store = new InMemoryEventStore();
    const { server } = buildServer();
    const handle = await start({ maxSessions: 500, eventStore: store }, server);
    await abandon(handle.url, 10); // warm-up: revision tables loaded, code compiled
    gc();
    const baseline = process.memoryUsage().heapUsed;
    // 500 abandoned sessions, then 500 more that evict every one of them, then those end too.
    await abandon(handle.url, 500);
    const replacing = await abandon(handle.url, 500);
    gc();
    const peak = process.memoryUsage().heapUsed;
    for (const id of replacing)
      expect((await raw("DELETE", handle.url, { headers: { "Mcp-Session-Id": id }, agent })).status).toBe(204);
    expect(handle.transport.sessionCount).toBe(0);
    expect(server.sessions.size).toBe(0);
    expect(store.size).toBe(0);
    gc();
    const after = process.memoryUsage().heapUsed;
    // Sessions cost a few KB each: 500 of them are visible at the peak, and gone after.
    expect(peak - baseline).toBeGreaterThan(0);
    expect(after - baseline).toBeLessThan(Math.max(2 * 1024 * 1024, (peak - baseline) / 2));
  });
});

describe("per-session bounds", () => {
  test("server-to-client requests beyond pendingClientRequests are refused, naming the limit", async () => {
    const server = new McpServer(
      { name: "bounds", version: "1" },
      { logger: () => {}, sessionLimits: { pendingClientRequests: 2 } },
    );
    server.tool("ask_three", {}, async (_args, context) => {
      const asks = [0, 1, 2].map((i) =>
        context.request("roots/list", undefined).then(
          () => `ok ${i}`,
          (error: Error) => `refused ${i}: ${error.message}`,
        ),
      );
      return (await Promise.all(asks)).join("\n");
    });
    const client = await inProcess(server);
    client.answer = () => ({ roots: [] });
    await client.initialize("2025-11-25", { roots: {} });
    const response = await client.request("tools/call", { name: "ask_three", arguments: {} });
    expect(response["result"]["content"][0]["text"]).toBe(
      "ok 0\nok 1\nrefused 2: roots/list: 2 requests to the client already wait for its answer",
    );
    client.close();
  });

  test("requests beyond inflightRequests get an error naming the limit; the session goes on", async () => {
    const server = new McpServer(
      { name: "bounds", version: "1" },
      { logger: () => {}, sessionLimits: { inflightRequests: 2 } },
    );
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.tool("wait", {}, async () => {
      await released;
      return "done";
    });
    const client = await inProcess(server);
    await client.initialize("2025-11-25");
    const first = client.request("tools/call", { name: "wait", arguments: {} });
    const second = client.request("tools/call", { name: "wait", arguments: {} });
    const third = await client.request("tools/call", { name: "wait", arguments: {} });
    expect(third["error"]).toEqual({
      code: -32603,
      message: "Server busy: 2 requests are already in flight in this session",
    });
    release();
    expect((await first)["result"]["content"][0]["text"]).toBe("done");
    expect((await second)["result"]["content"][0]["text"]).toBe("done");
    expect((await client.request("ping"))["result"]).toEqual({});
    client.close();
  });

  test("requests whose messages would pass inflightLength get an error naming it; a lone one always passes", async () => {
    const server = new McpServer(
      { name: "bounds", version: "1" },
      { logger: () => {}, sessionLimits: { inflightLength: 20_000 } },
    );
    // Each call waits for the gate open when it started; release() opens it and sets a new one.
    let release!: () => void;
    let released!: Promise<void>;
    const closeGate = () => (released = new Promise<void>((resolve) => (release = resolve)));
    closeGate();
    let started = 0;
    server.tool("wait", {}, async () => {
      started++;
      await released;
      return "done";
    });
    const client = await inProcess(server);
    await client.initialize("2025-11-25");
    /** A tools/call of `wait` whose line is `length` characters long (padding in `_meta`). */
    const call = (id: number, length: number) => {
      const line = (pad: string) =>
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "wait", arguments: {}, _meta: { pad } },
        });
      client.expect(id, "tools/call");
      const answer = client.response(id);
      client.write(line("x".repeat(length - line("").length)));
      return answer;
    };
    const lone = call(100, 30_000); // over the limit, but nothing else is in flight
    await until(() => started === 1, "the lone call to start");
    const refused = await call(101, 200);
    expect(refused["error"]).toEqual({
      code: -32603,
      message:
        "Server busy: the requests in flight in this session came in 30000 characters of messages, and this one's 200 would pass the limit of 20000",
    });
    release();
    expect((await lone)["result"]["content"][0]["text"]).toBe("done");

    closeGate();
    const first = call(11, 8000);
    const second = call(12, 8000);
    await until(() => started === 3, "two calls to start");
    const third = await call(13, 8000);
    expect(third["error"]["message"]).toBe(
      "Server busy: the requests in flight in this session came in 16000 characters of messages, and this one's 8000 would pass the limit of 20000",
    );
    const small = call(14, 3000); // what fits is taken
    await until(() => started === 4, "the small call to start");
    release();
    for (const answered of [await first, await second, await small])
      expect(answered["result"]["content"][0]["text"]).toBe("done");

    expect((await client.request("ping"))["result"]).toEqual({});
    client.close();

    // A batch's length is shared among its requests: 10,000 each of three here, so the third passes
    // 20,000. (2025-03-26 is the one revision with batches.)
    const batching = await inProcess(server, "2025-03-26");
    await batching.initialize("2025-03-26");
    const batchLine = (pad: string) =>
      JSON.stringify(
        ["b1", "b2", "b3"].map((id, i) => ({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "wait", arguments: {}, _meta: { pad: i === 0 ? pad : "" } },
        })),
      );
    for (const id of ["b1", "b2", "b3"]) batching.expect(id, "tools/call");
    const batchAnswered = batching.next((m) => m["id"] === "b3");
    batching.write(batchLine("x".repeat(30_000 - batchLine("").length)));
    await batchAnswered;
    const batchReply = batching.received.at(-1) as Record<string, any>[];
    expect(
      [...batchReply]
        .sort((a, b) => a["id"].localeCompare(b["id"]))
        .map((m) => [m["id"], m["error"]?.["message"] ?? m["result"]["content"][0]["text"]]),
    ).toEqual([
      ["b1", "done"],
      ["b2", "done"],
      [
        "b3",
        "Server busy: the requests in flight in this session came in 20000 characters of messages, and this one's 10000 would pass the limit of 20000",
      ],
    ]);
    expect((await batching.request("ping"))["result"]).toEqual({});
    batching.close();
  });

  test("resources/subscribe beyond the subscriptions bound is -32602 naming it", async () => {
    const server = new McpServer(
      { name: "bounds", version: "1" },
      { logger: () => {}, sessionLimits: { subscriptions: 1 } },
    );
    server.resource("file:///a", { name: "a" }, () => "a");
    server.resourceTemplate("file:///{name}", { name: "any" }, (uri) => uri);
    const client = await inProcess(server);
    await client.initialize("2025-11-25");
    expect((await client.request("resources/subscribe", { uri: "file:///a" }))["result"]).toEqual({});
    const refused = await client.request("resources/subscribe", { uri: "file:///b" });
    expect(refused["error"]["code"]).toBe(-32602);
    expect(refused["error"]["message"]).toMatch(/at most 1 subscriptions per session/);
    client.close();
  });

  test("resources/subscribe with a URI longer than the bound is -32602 naming it (a session keeps what it subscribed to)", async () => {
    const server = new McpServer(
      { name: "bounds", version: "1" },
      { logger: () => {}, sessionLimits: { uriLength: 20 } },
    );
    server.resourceTemplate("file:///{name}", { name: "any" }, (uri) => uri);
    const client = await inProcess(server);
    await client.initialize("2025-11-25");
    expect((await client.request("resources/subscribe", { uri: "file:///abcdefghijkl" }))["result"]).toEqual({});
    const refused = await client.request("resources/subscribe", { uri: "file:///abcdefghijklm" });
    expect(refused["error"]).toMatchObject({
      code: -32602,
      message: expect.stringContaining("the uri is 21 characters long, over this server's 20"),
    });
    client.close();
  });

  test("an invalid bound is refused at construction", () => {
    expect(() => new McpServer({ name: "x", version: "1" }, { sessionLimits: { inflightRequests: 0 } })).toThrow(
      "sessionLimits.inflightRequests must be a positive integer, not 0",
    );
  });
});

test("the in-memory event store bounds the size of what it keeps, per stream and in all, the oldest going first", () => {
  const store = new InMemoryEventStore({ maxCharsPerStream: 1000, maxChars: 2500 });
  const message = (n: number, size: number) =>
    JSON.stringify({ n, pad: "x".repeat(size) })
      .padEnd(size, " ")
      .slice(0, size);
  for (let i = 1; i <= 10; i++) store.append("a", { sequence: i, message: message(i, 300) });
  // 1000 per stream: the last three of 300 are kept.
  expect(store.replayAfter("a", 0).map((e) => e.sequence)).toEqual([8, 9, 10]);
  expect(store.storedChars).toBe(900);
  // A single event over the stream's bound is kept alone (its stream is resumable up to it).
  store.append("b", { sequence: 1, message: message(1, 1200) });
  expect(store.replayAfter("b", 0).map((e) => e.sequence)).toEqual([1]);
  expect(store.storedChars).toBe(2100);
  // 2500 in all: a third stream's events push the oldest stream out.
  store.append("c", { sequence: 1, message: message(1, 600) });
  expect(store.replayAfter("a", 0)).toEqual([]);
  expect(store.storedChars).toBe(1800);
  store.forget("b");
  expect(store.storedChars).toBe(600);
  expect(store.size).toBe(1);
});
