// Streamable HTTP at a per-request revision (2026-07-28
// basic/transports/streamable-http) on one endpoint beside handshake sessions:
// the status codes of each modern error, the header rules (MCP-Protocol-Version,
// Mcp-Method, Mcp-Name, Mcp-Param-* from x-mcp-header with the base64
// sentinel), no session ids, SSE without event ids, cancellation by closing
// the response, subscriptions/listen as a long-lived POST stream.
import { request } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { McpServer } from "../../runtime/server/index.js";
import { serveHttp, type HttpOptions, type HttpServerHandle } from "../../runtime/transports/http.js";
import { initializeMessage, post, SseReader, ACCEPT_BOTH } from "./http-support.js";

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});

const VERSION = "2026-07-28";
const meta = (extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw-http", version: "1" },
  ...extra,
});

function buildServer(): McpServer {
  const server = new McpServer({ name: "http-modern", version: "1.0.0" }, { logger: () => {} });
  server.tool(
    "echo",
    { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
    ({ text }) => text,
  );
  server.tool(
    "query",
    {
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          limit: { type: "integer", "x-mcp-header": "Limit" },
          dry: { type: "boolean", "x-mcp-header": "Dry" },
          sql: { type: "string" },
        },
        required: ["sql"],
      },
    },
    ({ region, sql }) => `${region ?? "anywhere"}: ${sql}`,
  );
  server.tool("slow", {}, async (_args, context) => {
    context.progress(1, 2);
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 5_000);
      context.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        cancelled.push(String(context.requestId));
        reject(new Error("cancelled"));
      });
    });
    return "done";
  });
  server.resource("file:///a.txt", { name: "a" }, () => "A");
  return server;
}
const cancelled: string[] = [];

async function start(options: HttpOptions = {}): Promise<{ url: string; server: McpServer }> {
  const server = buildServer();
  const handle = await serveHttp(server, options);
  handles.push(handle);
  return { url: handle.url, server };
}

/** A modern POST with the standard headers derived from the body (overridable). */
function modern(
  url: string,
  id: number,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string | undefined> = {},
) {
  const name = (params["name"] ?? params["uri"]) as string | undefined;
  const all: Record<string, string | undefined> = {
    "MCP-Protocol-Version": VERSION,
    "Mcp-Method": method,
    ...(name !== undefined ? { "Mcp-Name": name } : {}),
    ...headers,
  };
  const defined = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return post(url, { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta() } }, defined);
}

const errorOf = (body: string) => JSON.parse(body).error as { code: number; message: string; data?: any };

describe("per-request POSTs", () => {
  test("a response is refused 400; a message that is neither request nor response is -32600 with its id", async () => {
    const { url } = await start();
    const headers = { "MCP-Protocol-Version": VERSION };
    const response = await post(url, { jsonrpc: "2.0", id: 3, result: {} }, headers);
    expect(response.status).toBe(400);
    expect(errorOf(response.body).message).toBe(
      "Bad Request: a client does not send JSON-RPC responses on this revision",
    );
    const neither = await post(url, { jsonrpc: "2.0", id: 3 }, headers);
    expect(neither.status).toBe(400);
    const body = JSON.parse(neither.body);
    expect(body.id).toBe(3);
    expect(body.error.code).toBe(-32600);
  });

  test("a request is answered with JSON, resultType and serverInfo, and no session id", async () => {
    const { url } = await start();
    const response = await modern(url, 1, "tools/call", { name: "echo", arguments: { text: "hi" } });
    expect(response.status).toBe(200);
    expect(response.headers["mcp-session-id"]).toBeUndefined();
    const result = JSON.parse(response.body).result;
    expect(result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "hi" }] });
    expect(result._meta["io.modelcontextprotocol/serverInfo"]).toEqual({ name: "http-modern", version: "1.0.0" });
    // Its length declared, not chunked (runtime/transports/http-exchanges.ts endJson).
    expect(response.headers["content-length"]).toBe(String(Buffer.byteLength(response.body)));
    expect(response.headers["transfer-encoding"]).toBeUndefined();
  });

  test("server/discover lists both eras' versions", async () => {
    const { url } = await start();
    const response = await modern(url, 1, "server/discover", {});
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).result.supportedVersions).toEqual([
      "2026-07-28",
      "2025-11-25",
      "2025-06-18",
      "2025-03-26",
      "2024-11-05",
    ]);
  });

  test("400 UnsupportedProtocolVersion, 404 method not found, 400 malformed _meta", async () => {
    const { url } = await start();
    const unsupported = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: meta({ "io.modelcontextprotocol/protocolVersion": "1900-01-01" }) },
      },
      { "MCP-Protocol-Version": "1900-01-01", "Mcp-Method": "tools/list" },
    );
    expect(unsupported.status).toBe(400);
    expect(errorOf(unsupported.body)).toMatchObject({ code: -32022, data: { requested: "1900-01-01" } });
    expect(errorOf(unsupported.body).data.supported).toContain("2026-07-28");

    const unknown = await modern(url, 2, "tools/frobnicate", {});
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown.body).code).toBe(-32601);
    const gone = await modern(url, 3, "ping", {}); // ping is not in 2026-07-28
    expect(gone.status).toBe(404);

    const noCapabilities = await post(
      url,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": VERSION } },
      },
      { "MCP-Protocol-Version": VERSION, "Mcp-Method": "tools/list" },
    );
    expect(noCapabilities.status).toBe(400);
    expect(errorOf(noCapabilities.body).code).toBe(-32602);
    expect(errorOf(noCapabilities.body).message).toContain("clientCapabilities");

    const noMeta = await post(
      url,
      { jsonrpc: "2.0", id: 5, method: "tools/list", params: {} },
      {
        "MCP-Protocol-Version": VERSION,
        "Mcp-Method": "tools/list",
      },
    );
    expect(noMeta.status).toBe(400);
    expect(errorOf(noMeta.body).code).toBe(-32602);
  });

  test("an unknown tool is -32602 with 200: a JSON-RPC error, not a transport one", async () => {
    const { url } = await start();
    const response = await modern(url, 1, "tools/call", { name: "nope", arguments: {} });
    expect(response.status).toBe(200);
    expect(errorOf(response.body).code).toBe(-32602);
  });
});

describe("header rules (HeaderMismatch -32020, 400)", () => {
  const cases: [string, Record<string, string | undefined>, string][] = [
    ["missing MCP-Protocol-Version", { "MCP-Protocol-Version": undefined }, "MCP-Protocol-Version header is required"],
    ["MCP-Protocol-Version differs from _meta", { "MCP-Protocol-Version": "2025-11-25" }, "does not match body value"],
    ["missing Mcp-Method", { "Mcp-Method": undefined }, "Mcp-Method header is required"],
    ["Mcp-Method differs", { "Mcp-Method": "tools/list" }, "Mcp-Method header value 'tools/list'"],
    ["missing Mcp-Name", { "Mcp-Name": undefined }, "Mcp-Name header is required"],
    ["Mcp-Name differs", { "Mcp-Name": "other" }, "Mcp-Name header value 'other' does not match body value 'echo'"],
  ];
  for (const [name, headers, message] of cases) {
    test(name, async () => {
      const { url } = await start();
      const response = await modern(url, 1, "tools/call", { name: "echo", arguments: { text: "x" } }, headers);
      expect(response.status).toBe(400);
      expect(errorOf(response.body)).toMatchObject({ code: -32020 });
      expect(errorOf(response.body).message).toContain(message);
    });
  }

  test("Mcp-Name for resources/read is the uri, and may be base64-encoded", async () => {
    const { url } = await start();
    const plain = await modern(url, 1, "resources/read", { uri: "file:///a.txt" });
    expect(plain.status).toBe(200);
    const encoded = await modern(
      url,
      2,
      "resources/read",
      { uri: "file:///a.txt" },
      {
        "Mcp-Name": `=?base64?${Buffer.from("file:///a.txt").toString("base64")}?=`,
      },
    );
    expect(encoded.status).toBe(200);
    expect(JSON.parse(encoded.body).result.contents[0].text).toBe("A");
  });

  test("x-mcp-header parameters: required when present, compared after decoding, integers numerically", async () => {
    const { url } = await start();
    const args = { region: "us-west1", limit: 42, dry: true, sql: "SELECT 1" };
    const ok = await modern(
      url,
      1,
      "tools/call",
      { name: "query", arguments: args },
      {
        "Mcp-Param-Region": "us-west1",
        "Mcp-Param-Limit": "42.0",
        "Mcp-Param-Dry": "true",
      },
    );
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).result.content[0].text).toBe("us-west1: SELECT 1");

    const unicode = await modern(
      url,
      2,
      "tools/call",
      { name: "query", arguments: { region: "Zürich", sql: "x" } },
      {
        "Mcp-Param-Region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=`,
      },
    );
    expect(unicode.status).toBe(200);

    const missing = await modern(
      url,
      3,
      "tools/call",
      { name: "query", arguments: args },
      {
        "Mcp-Param-Region": "us-west1",
        "Mcp-Param-Dry": "true",
      },
    );
    expect(missing.status).toBe(400);
    expect(errorOf(missing.body)).toMatchObject({ code: -32020 });
    expect(errorOf(missing.body).message).toContain("Mcp-Param-Limit");

    const wrong = await modern(
      url,
      4,
      "tools/call",
      { name: "query", arguments: args },
      {
        "Mcp-Param-Region": "eu-west1",
        "Mcp-Param-Limit": "42",
        "Mcp-Param-Dry": "true",
      },
    );
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong.body).message).toContain(
      "Mcp-Param-Region header value 'eu-west1' does not match body value 'us-west1'",
    );

    // Absent in the body: the header must be absent too; no body value, no header expected.
    const none = await modern(url, 5, "tools/call", { name: "query", arguments: { sql: "x" } });
    expect(none.status).toBe(200);
    const stray = await modern(
      url,
      6,
      "tools/call",
      { name: "query", arguments: { sql: "x" } },
      {
        "Mcp-Param-Region": "us-west1",
      },
    );
    expect(stray.status).toBe(400);
  });

  test("an invalid x-mcp-header annotation is refused at registration", () => {
    const server = new McpServer({ name: "x", version: "1" }, { logger: () => {} });
    const bad = (schema: Record<string, unknown>) => () =>
      server.tool(
        `t${Math.random().toString(36).slice(2)}`,
        { inputSchema: { type: "object", ...schema } as never },
        () => "",
      );
    expect(bad({ properties: { a: { type: "number", "x-mcp-header": "A" } } })).toThrow(/on a "number" property/);
    expect(bad({ properties: { a: { type: "string", "x-mcp-header": "Bad Name" } } })).toThrow(/not an HTTP token/);
    expect(
      bad({ properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } } }),
    ).toThrow(/declared twice/);
    expect(bad({ properties: { a: { type: "array", items: { type: "string", "x-mcp-header": "I" } } } })).toThrow(
      /not on a property reachable/,
    );
  });
});

describe("both eras on one endpoint", () => {
  test("a 2025-11-25 initialize gets its session while per-request POSTs need none", async () => {
    const { url } = await start();
    const init = await post(url, initializeMessage("2025-11-25"));
    expect(init.status).toBe(200);
    expect(typeof init.headers["mcp-session-id"]).toBe("string");
    const modernCall = await modern(url, 7, "tools/call", { name: "echo", arguments: { text: "m" } });
    expect(modernCall.status).toBe(200);
    const legacyWithoutSession = await post(
      url,
      { jsonrpc: "2.0", id: 8, method: "tools/list" },
      {
        "MCP-Protocol-Version": "2025-11-25",
      },
    );
    expect(legacyWithoutSession.status).toBe(400);
    expect(errorOf(legacyWithoutSession.body).message).toContain("Mcp-Session-Id");
  });

  test("stateless mode serves per-request POSTs too", async () => {
    const { url } = await start({ sessions: false });
    const response = await modern(url, 1, "tools/list", {});
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).result.tools.map((t: { name: string }) => t.name)).toEqual([
      "echo",
      "query",
      "slow",
    ]);
  });
});

describe("streams", () => {
  /** Opens a modern POST whose response is read as SSE. */
  function openModern(url: string, id: number, method: string, params: Record<string, unknown>): Promise<SseReader> {
    return new Promise((resolve, reject) => {
      const name = params["name"] as string | undefined;
      const req = request(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: ACCEPT_BOTH,
          "MCP-Protocol-Version": VERSION,
          "Mcp-Method": method,
          ...(name ? { "Mcp-Name": name } : {}),
        },
      });
      req.on("response", (res) => resolve(new SseReader(res)));
      req.on("error", reject);
      req.end(
        JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta({ progressToken: "p" }) } }),
      );
    });
  }

  test("progress goes on the request's SSE stream without event ids; closing it cancels the request", async () => {
    const { url } = await start();
    const stream = await openModern(url, 41, "tools/call", { name: "slow", arguments: {} });
    expect(stream.response.headers["content-type"]).toBe("text/event-stream");
    expect(stream.response.headers["x-accel-buffering"]).toBe("no");
    const [first] = await stream.until((events) => events.length >= 1);
    expect(first!.id).toBeUndefined();
    expect(JSON.parse(first!.data)).toMatchObject({ method: "notifications/progress", params: { progressToken: "p" } });
    stream.response.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cancelled).toContain("41");
  });

  test("subscriptions/listen: acknowledged, then tagged list_changed; the stream stays open", async () => {
    const { url, server } = await start();
    const stream = await openModern(url, 9, "subscriptions/listen", { notifications: { toolsListChanged: true } });
    const ack = JSON.parse((await stream.until((events) => events.length >= 1))[0]!.data);
    expect(ack).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 9 }, notifications: { toolsListChanged: true } },
    });
    server.tool("added", {}, () => "new");
    const changed = JSON.parse((await stream.until((events) => events.length >= 2))[1]!.data);
    expect(changed).toMatchObject({
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 9 } },
    });
    expect(stream.ended).toBe(false);
    stream.response.destroy();
  });
});
