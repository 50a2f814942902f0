// Streamable HTTP against clients that misbehave or leave at the wrong moment:
// an initialize sent as a notification, a client gone while its token (or the
// event store) was being awaited, a session deleted under a pending POST, a
// malformed notification. Each must get its HTTP status and leave nothing
// behind that would hold a session, a stream or a connection forever.
import { request, type ClientRequest, type ServerResponse } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { McpServer, type AuthInfo } from "../../runtime/server/index.js";
import {
  serveHttp,
  type HttpOptions,
  type HttpServerHandle,
  type ResponseMode,
} from "../../runtime/transports/http.js";
import { InMemoryEventStore, type StoredEvent } from "../../runtime/transports/sse.js";
import { ACCEPT_BOTH, initializeMessage, openSession, openSse, raw, type RawResponse } from "./http-support.js";

const handles: HttpServerHandle[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  for (const handle of handles.splice(0)) await handle.close();
});

/** A promise opened from outside, and one that says it is being waited on. */
function gate() {
  let open!: () => void;
  let arrive!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  cleanups.push(open); // nothing the test started waits past it
  return { open, opened, arrive, arrived };
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function until(test: () => boolean, what: string, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server whose `wait` tool runs until the test opens `released` (and tells it has begun). */
function buildServer() {
  const server = new McpServer({ name: "hostile", version: "1" }, { logger: () => {} });
  const waiting = gate();
  server.tool("wait", {}, async () => {
    waiting.arrive();
    await waiting.opened;
    return "released";
  });
  return { server, waiting };
}

/** Serves `server`; the last response of each request is kept, to see the client leave. */
async function start(server: McpServer, options: HttpOptions = {}) {
  const handle = await serveHttp(server, options);
  handles.push(handle);
  const responses: ServerResponse[] = [];
  handle.httpServer.prependListener("request", (_request, response: ServerResponse) => responses.push(response));
  return { handle, url: handle.url, responses };
}

/** A POST whose answer must come within `ms` (a hang fails the test instead of stalling it). */
function postWithin(url: string, body: unknown, headers: Record<string, string> = {}, ms = 3000) {
  return within<RawResponse>(
    raw("POST", url, {
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    ms,
    `POST ${typeof body === "string" ? body : JSON.stringify(body)}`,
  );
}

/** A GET whose client will leave before the answer: destroy the request returned. */
function leavingGet(url: string, headers: Record<string, string>): ClientRequest {
  const req = request(url, { method: "GET", headers });
  req.on("error", () => {}); // the socket hang-up this test causes
  req.end();
  cleanups.push(() => req.destroy());
  return req;
}

describe("initialize sent as a notification", () => {
  test("400 with -32600 naming the missing id, and no session left behind to fill the cap", async () => {
    const { server } = buildServer();
    const { handle, url } = await start(server, { maxSessions: 2 });
    const notification = { ...initializeMessage("2025-06-18"), id: undefined }; // JSON.stringify drops it
    for (let i = 0; i < 3; i++) {
      const refused = await postWithin(url, notification, {}, 2000);
      expect(refused.status).toBe(400);
      expect(refused.headers["mcp-session-id"]).toBeUndefined();
      expect(JSON.parse(refused.body)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid Request: initialize must be a request with an id" },
      });
    }
    expect(handle.transport.sessionCount).toBe(0);
    expect(server.sessions.size).toBe(0);
    const init = await postWithin(url, initializeMessage("2025-06-18"));
    expect(init.status).toBe(200);
    expect(init.headers["mcp-session-id"]).toMatch(/^[\x21-\x7e]+$/);
  });
});

describe("a client that leaves while its token is verified", () => {
  const info: AuthInfo = { subject: "alice", clientId: "c", issuer: "https://as.example", scopes: [], claims: {} };

  /** Tokens are checked at once, except "slow", which waits for `verifying` to open. */
  async function startProtected() {
    const { server } = buildServer();
    const verifying = gate();
    const started = await start(server, {
      auth: {
        resource: "https://mcp.example/mcp",
        authorizationServers: ["https://as.example"],
        verifier: async (token) => {
          if (token === "slow") {
            verifying.arrive();
            await verifying.opened;
          }
          return info;
        },
      },
    });
    return { ...started, server, verifying };
  }

  /** Opens a request with the slow token, leaves once it is being verified, then lets the verification end. */
  async function leaveDuringVerification(
    url: string,
    responses: ServerResponse[],
    verifying: ReturnType<typeof gate>,
    headers: Record<string, string>,
  ) {
    const req = leavingGet(url, { Accept: "text/event-stream", Authorization: "Bearer slow", ...headers });
    await within(verifying.arrived, 2000, "the token's verification");
    const response = responses.at(-1)!;
    req.destroy();
    await until(() => response.destroyed, "the server to see the client leave");
    verifying.open();
    await sleep(100); // the verification's continuation runs (microtasks only)
  }

  test("HTTP+SSE (2024-11-05): GET /sse opens no session for a client gone", async () => {
    const { handle, url, responses, server, verifying } = await startProtected();
    await leaveDuringVerification(url.replace(/\/mcp$/, "/sse"), responses, verifying, {});
    expect(handle.transport.sessionCount).toBe(0);
    expect(server.sessions.size).toBe(0);
  });

  test("the standalone GET stream is not held by a client gone (a new GET opens it: 200, not 409)", async () => {
    const { url, responses, verifying } = await startProtected();
    const auth = { Authorization: "Bearer fast" };
    const init = await postWithin(url, initializeMessage("2025-06-18"), auth);
    const session = { ...auth, "Mcp-Session-Id": init.headers["mcp-session-id"] as string };
    const initialized = await postWithin(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session);
    expect(initialized.status).toBe(202);
    await leaveDuringVerification(url, responses, verifying, { "Mcp-Session-Id": session["Mcp-Session-Id"] });
    const again = await within(openSse("GET", url, { Accept: "text/event-stream", ...session }), 2000, "GET");
    again.reader.close();
    expect(again.status).toBe(200);
  });
});

test("resumption: a client gone while the event store replays does not hold the stream", async () => {
  // An event store that answers later (as one across processes does), when the test opens `replaying`.
  const memory = new InMemoryEventStore();
  let replaying: ReturnType<typeof gate> | undefined;
  const eventStore = {
    append: (key: string, event: StoredEvent) => memory.append(key, event),
    forget: (key: string) => memory.forget(key),
    replayAfter: async (key: string, sequence: number) => {
      replaying?.arrive();
      await replaying?.opened;
      return memory.replayAfter(key, sequence);
    },
  };
  const { server } = buildServer();
  const { url, responses } = await start(server, { eventStore });
  const sessionId = await openSession(url);
  const headers = { Accept: "text/event-stream", "Mcp-Session-Id": sessionId };
  const first = await within(openSse("GET", url, headers), 2000, "GET");
  server.tool("added", {}, () => "added"); // notifications/tools/list_changed, event s1_1
  await first.reader.until((events) => events.some((event) => event.id === "s1_1"), 2000);
  first.reader.close();
  await until(() => responses.at(-1)!.destroyed, "the server to see the stream close");

  replaying = gate();
  const req = leavingGet(url, { ...headers, "Last-Event-ID": "s1_0" });
  await within(replaying.arrived, 2000, "the replay");
  const response = responses.at(-1)!;
  req.destroy();
  await until(() => response.destroyed, "the server to see the client leave");
  replaying.open();
  await sleep(100);

  const again = await within(openSse("GET", url, headers), 2000, "GET");
  again.reader.close();
  expect(again.status).toBe(200);
});

describe("DELETE while a POST waits for its reply", () => {
  test.each<ResponseMode>(["auto", "json", "sse"])("responseMode %s: the POST gets 404 at once", async (mode) => {
    const { server, waiting } = buildServer();
    const { url } = await start(server, { responseMode: mode });
    const sessionId = await openSession(url);
    const pending = postWithin(
      url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: {} } },
      { "Mcp-Session-Id": sessionId },
    );
    await within(waiting.arrived, 2000, "the tool call");
    const deleted = await raw("DELETE", url, { headers: { "Mcp-Session-Id": sessionId } });
    expect(deleted.status).toBe(204);
    // basic/transports#session-management: a terminated session's requests get 404.
    const answered = await pending;
    expect(answered.status).toBe(404);
    expect(JSON.parse(answered.body)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32001, message: `Not Found: session ${sessionId} ended before this request was answered` },
    });
    waiting.open(); // the abandoned handler ends; nothing more is written
    await sleep(20);
    const next = await postWithin(url, { jsonrpc: "2.0", id: 2, method: "ping" }, { "Mcp-Session-Id": sessionId });
    expect(next.status).toBe(404);
  });
});

describe("a malformed message in a 2025 session", () => {
  test.each<ResponseMode>(["auto", "sse"])(
    "responseMode %s: 400 with -32600, and the session serves on",
    async (mode) => {
      const { server } = buildServer();
      const { url } = await start(server, { responseMode: mode });
      const sessionId = await openSession(url, "2025-06-18");
      const headers = { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-06-18" };
      // A notification whose params are not an object: not a message the server can accept.
      const notification = await postWithin(url, { jsonrpc: "2.0", method: "notifications/x", params: [1] }, headers);
      expect(notification.status).toBe(400);
      expect(notification.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(notification.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
      expect(JSON.parse(notification.body).error.message).toMatch(/params/);
      const ping = await postWithin(url, { jsonrpc: "2.0", id: 1, method: "ping" }, headers);
      expect(ping.status).toBe(200);
    },
  );
});

test("a body that is not UTF-8 is 400 with -32700 naming the byte, not decoded with U+FFFD; the server goes on", async () => {
  const { server } = buildServer();
  const { url } = await start(server);
  const before =
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b';
  const body = Buffer.concat([Buffer.from(before), Buffer.from([0xc3, 0x28]), Buffer.from('","version":"1"}}}')]);
  const refused = await within(
    raw("POST", url, { headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH }, body }),
    3000,
    "POST",
  );
  expect(refused.status).toBe(400);
  expect(refused.headers["mcp-session-id"]).toBeUndefined();
  expect(JSON.parse(refused.body)).toEqual({
    jsonrpc: "2.0",
    error: { code: -32700, message: `Parse error: not UTF-8 at byte offset ${before.length}` },
  });
  expect((await postWithin(url, initializeMessage("2025-11-25"))).status).toBe(200);
});
