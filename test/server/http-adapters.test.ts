// One set of HTTP cases run against both adapters of the transport: serveHttp
// (node:http) and the fetch handler (createFetchHandler) served from node:http
// through a Request/Response bridge, and through toNodeListener. The same status codes, error bodies,
// sessions, streams and resumption, 2026-07-28 per-request calls, the
// 2024-11-05 HTTP+SSE endpoints, and the auth challenges, from either.
import { afterEach, describe, expect, test } from "vitest";
import type { McpServer } from "../../runtime/server/index.js";
import { serveHttp, type HttpOptions } from "../../runtime/transports/http.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createFetchHandler, toNodeListener } from "../../runtime/transports/fetch.js";
import { InvalidTokenError } from "../../runtime/transports/auth.js";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import { serveFetchOnNode } from "../fixtures/fetch-on-node.js";
import { ACCEPT_BOTH, initializeMessage, openSession, openSse, post, raw } from "./http-support.js";

interface Served {
  readonly url: string;
  close(): Promise<void>;
}

const adapters: [string, (server: McpServer, options: HttpOptions) => Promise<Served>][] = [
  ["serveHttp", (server, options) => serveHttp(server, options)],
  [
    "the fetch handler",
    async (server, options) => {
      const handler = createFetchHandler(server, options);
      const served = await serveFetchOnNode(handler, options.path);
      return {
        url: served.url,
        close: async () => {
          handler.close();
          await served.close();
        },
      };
    },
  ],
  [
    "the fetch handler behind toNodeListener",
    async (server, options) => {
      const handler = createFetchHandler(server, options);
      const http = createServer(toNodeListener(handler));
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
      return {
        url: `http://127.0.0.1:${(http.address() as AddressInfo).port}${options.path ?? "/mcp"}`,
        close: async () => {
          handler.close();
          http.closeAllConnections();
          await new Promise<void>((resolve) => http.close(() => resolve()));
        },
      };
    },
  ],
];

const running: Served[] = [];
afterEach(async () => {
  for (const served of running.splice(0)) await served.close();
});

const call = (id: number | string, name: string, args: Record<string, unknown> = {}, meta?: object) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

const errorOf = (body: string) => JSON.parse(body).error as { code: number; message: string };

const RESOURCE = "http://127.0.0.1/mcp";
const ISSUER = "https://issuer.example";

describe.each(adapters)("%s", (_name, serve) => {
  async function start(options: HttpOptions = {}): Promise<string> {
    const served = await serve(buildEverythingServer({ logger: () => {} }), options);
    running.push(served);
    return served.url;
  }

  test("initialize opens a session; a notification is 202; a call 200; DELETE 204, then 404", async () => {
    const url = await start();
    const init = await post(url, initializeMessage());
    expect(init.status).toBe(200);
    const sessionId = init.headers["mcp-session-id"] as string;
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(init.body).result.protocolVersion).toBe("2025-11-25");
    const initialized = await post(
      url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        "Mcp-Session-Id": sessionId,
      },
    );
    expect([initialized.status, initialized.body]).toEqual([202, ""]);
    const echoed = await post(url, call(1, "echo", { text: "hi" }), { "Mcp-Session-Id": sessionId });
    expect([echoed.status, echoed.headers["content-type"]]).toEqual([200, "application/json"]);
    expect(JSON.parse(echoed.body).result.content).toEqual([{ type: "text", text: "hi" }]);
    const deleted = await raw("DELETE", url, { headers: { "Mcp-Session-Id": sessionId } });
    expect(deleted.status).toBe(204);
    const after = await post(url, call(2, "echo", { text: "hi" }), { "Mcp-Session-Id": sessionId });
    expect(after.status).toBe(404);
    expect(errorOf(after.body)).toEqual({
      code: -32001,
      message: `Not Found: session ${sessionId} does not exist or has ended`,
    });
    const unknown = await post(url, call(3, "echo", { text: "hi" }), { "Mcp-Session-Id": "nope" });
    expect([unknown.status, errorOf(unknown.body).message]).toEqual([
      404,
      "Not Found: session nope does not exist or has ended",
    ]);
  });

  test("a 2026-07-28 request stands alone: answered with JSON, no session id", async () => {
    const url = await start();
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw-http", version: "1" },
    };
    const headers = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo" };
    const response = await post(url, call(1, "echo", { text: "modern" }, meta), headers);
    expect(response.status).toBe(200);
    expect(response.headers["mcp-session-id"]).toBeUndefined();
    expect(JSON.parse(response.body).result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "modern" }],
    });
    const mismatch = await post(url, call(2, "echo", { text: "x" }, meta), { ...headers, "Mcp-Name": "other" });
    expect([mismatch.status, errorOf(mismatch.body).code]).toEqual([400, -32020]);
  });

  test("a stream with progress, dropped, resumes with Last-Event-ID: nothing lost, nothing twice", async () => {
    const url = await start();
    const sessionId = await openSession(url);
    const posted = await openSse(
      "POST",
      url,
      { "Content-Type": "application/json", Accept: ACCEPT_BOTH, "Mcp-Session-Id": sessionId },
      JSON.stringify(call("long", "slow", { steps: 20 }, { progressToken: 9 })),
    );
    expect([posted.status, posted.headers["content-type"]]).toEqual([200, "text/event-stream"]);
    await posted.reader.until((events) => events.length >= 3); // priming + two progress events
    expect(posted.reader.events[0]).toMatchObject({ id: "s1_0", data: "", retry: 1000 });
    const lastSeen = posted.reader.events.at(-1)!.id!;
    posted.reader.close();
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
    expect(progress).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(resumed.reader.messages().at(-1)).toMatchObject({
      id: "long",
      result: { content: [{ text: "done after 20 steps" }] },
    });
    const bogus = await raw("GET", url, {
      headers: { Accept: "text/event-stream", "Mcp-Session-Id": sessionId, "Last-Event-ID": "s99_1" },
    });
    expect([bogus.status, errorOf(bogus.body).message]).toEqual([
      400,
      "Bad Request: Last-Event-ID s99_1 names no stream of this session",
    ]);
  });

  test("the standalone GET stream carries list_changed; a second one is 409", async () => {
    const url = await start();
    const sessionId = await openSession(url);
    const stream = await openSse("GET", url, { Accept: "text/event-stream", "Mcp-Session-Id": sessionId });
    expect(stream.status).toBe(200);
    await stream.reader.until((events) => events.length >= 1);
    const second = await raw("GET", url, { headers: { Accept: "text/event-stream", "Mcp-Session-Id": sessionId } });
    expect(second.status).toBe(409);
    await post(url, call(1, "add_tool"), { "Mcp-Session-Id": sessionId });
    await stream.reader.until(() =>
      stream.reader.messages().some((m) => m["method"] === "notifications/tools/list_changed"),
    );
    stream.reader.close();
  });

  test("406, 415, 400 and 405, each naming what was wrong", async () => {
    const url = await start();
    const notAcceptable = await post(url, initializeMessage(), { Accept: "application/json" });
    expect([notAcceptable.status, errorOf(notAcceptable.body).message]).toEqual([
      406,
      "Not Acceptable: the Accept header must list application/json and text/event-stream",
    ]);
    const notJson = await post(url, initializeMessage(), { "Content-Type": "text/plain" });
    expect([notJson.status, errorOf(notJson.body).message]).toEqual([
      415,
      "Unsupported Media Type: Content-Type must be application/json",
    ]);
    const malformed = await post(url, "{ nope");
    expect([malformed.status, errorOf(malformed.body).code]).toEqual([400, -32700]);
    const notUtf8 = await raw("POST", url, {
      headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH },
      body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]),
    });
    expect([notUtf8.status, errorOf(notUtf8.body).message]).toEqual([400, "Parse error: not UTF-8 at byte offset 2"]);
    const noSession = await post(url, call(1, "echo", { text: "x" }));
    expect([noSession.status, errorOf(noSession.body).message]).toEqual([
      400,
      "Bad Request: the Mcp-Session-Id header is required (initialize to get one)",
    ]);
    const put = await raw("PUT", url);
    expect([put.status, put.headers["allow"]]).toEqual([405, "GET, POST, DELETE"]);
    const elsewhere = await raw("GET", url.replace(/\/mcp$/, "/other"));
    expect([elsewhere.status, errorOf(elsewhere.body).message]).toEqual([404, "Not Found: /other"]);
  });

  test("413 past maxBodyBytes, declared or streamed in chunks", async () => {
    const url = await start({ maxBodyBytes: 1000 });
    const big = JSON.stringify(call(1, "echo", { text: "x".repeat(2000) }));
    const declared = await post(url, big);
    expect([declared.status, errorOf(declared.body).message]).toEqual([
      413,
      "Payload Too Large: the body exceeds 1000 bytes",
    ]);
    const streamed = await new Promise<number>((resolve, reject) => {
      import("node:http").then(({ request }) => {
        const req = request(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, "Transfer-Encoding": "chunked" },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on("error", reject);
        for (let i = 0; i < 4; i++) req.write(big.slice(i * 600, (i + 1) * 600));
        req.end();
      }, reject);
    });
    expect(streamed).toBe(413);
  });

  test("403 for a Host or an Origin not allowed; loopback ones pass", async () => {
    const url = await start();
    const port = new URL(url).port;
    const badHost = await post(url, initializeMessage(), { Host: `evil.example:${port}` });
    expect([badHost.status, errorOf(badHost.body).message]).toEqual([
      403,
      `Forbidden: Host evil.example:${port} is not allowed`,
    ]);
    const badOrigin = await post(url, initializeMessage(), { Origin: "https://evil.example" });
    expect([badOrigin.status, errorOf(badOrigin.body).message]).toEqual([
      403,
      "Forbidden: Origin https://evil.example is not allowed",
    ]);
    const local = await post(url, initializeMessage(), { Origin: `http://localhost:${port}` });
    expect(local.status).toBe(200);
  });

  test("auth: 401 with a challenge naming the resource metadata, which is served; a good token passes", async () => {
    const url = await start({
      auth: {
        resource: RESOURCE,
        authorizationServers: [ISSUER],
        scopesSupported: ["mcp"],
        verifier: async (token) => {
          if (token !== "good-token") throw new InvalidTokenError("the token is unknown");
          return { subject: "alice", scopes: ["mcp"], claims: {} };
        },
      },
    });
    const missing = await post(url, initializeMessage());
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toBe(
      'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", scope="mcp"',
    );
    const wrong = await post(url, initializeMessage(), { Authorization: "Bearer bad-token" });
    expect([wrong.status, wrong.headers["www-authenticate"]]).toEqual([
      401,
      'Bearer error="invalid_token", error_description="the token is unknown", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", scope="mcp"',
    ]);
    const metadata = await raw("GET", url.replace(/\/mcp$/, "/.well-known/oauth-protected-resource/mcp"));
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.body)).toEqual({
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      scopes_supported: ["mcp"],
      bearer_methods_supported: ["header"],
    });
    const good = await post(url, initializeMessage(), { Authorization: "Bearer good-token" });
    expect(good.status).toBe(200);
    // Two Authorization lines (RFC 6750 §3.1): refused, never resolved to one of them.
    const twice = await new Promise<[number, string | undefined]>((resolve, reject) => {
      import("node:http").then(({ request }) => {
        const req = request(url, {
          method: "POST",
          headers: [
            ["Host", new URL(url).host], // a list of lines gets no default Host
            ["Content-Type", "application/json"],
            ["Accept", ACCEPT_BOTH],
            ["Authorization", "Bearer good-token"],
            ["Authorization", "Bearer other-token"],
          ].flat(),
        });
        req.on("response", (res) => {
          res.resume();
          resolve([res.statusCode!, res.headers["www-authenticate"]]);
        });
        req.on("error", reject);
        req.end(JSON.stringify(initializeMessage()));
      }, reject);
    });
    expect(twice[0]).toBe(400);
    expect(twice[1]).toContain('error="invalid_request"');
  });

  test("2024-11-05 HTTP+SSE: GET /sse names the endpoint; a POST there is 202 and answered on the stream", async () => {
    const url = await start();
    const sse = await openSse("GET", url.replace(/\/mcp$/, "/sse"), { Accept: "text/event-stream" });
    expect(sse.status).toBe(200);
    const [endpoint] = await sse.reader.until((events) => events.length >= 1);
    expect(endpoint!.event).toBe("endpoint");
    const messages = url.replace(/\/mcp$/, endpoint!.data);
    const accepted = await post(messages, initializeMessage("2024-11-05", 7));
    expect(accepted.status).toBe(202);
    const answers = () => sse.reader.events.filter((e) => e.event === "message").map((e) => JSON.parse(e.data));
    await sse.reader.until(() => answers().some((m) => m["id"] === 7));
    expect(answers().find((m) => m["id"] === 7)!["result"].protocolVersion).toBe("2024-11-05");
    sse.reader.close();
  });
});
