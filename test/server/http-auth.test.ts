// The HTTP server as an OAuth 2.1 resource server (basic/authorization):
// tokens minted here with a local key set, each refused with the status and
// challenge the spec requires; Protected Resource Metadata; scopes declared
// at registration (403 insufficient_scope); the verified identity in handlers;
// the official SDK clients (v1 at 2025-11-25, v2 at 2026-07-28) with a bearer
// token; a session presented with another identity's token refused; the token
// never in a log line.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair, type JWK, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { webcrypto } from "node:crypto";
import { McpServer, type AuthInfo } from "../../runtime/server/index.js";
import { serveHttp, type HttpServerHandle } from "../../runtime/transports/http.js";
import { jwtVerifier } from "../../runtime/auth/jwt.js";
import { ACCEPT_BOTH, initializeMessage, openSse, post, raw } from "./http-support.js";

const RESOURCE = "https://mcp.example.com/mcp";
const ISSUER = "https://auth.example.com";
const METADATA_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

let privateKey: webcrypto.CryptoKey;
let otherKey: webcrypto.CryptoKey;
let jwks: { keys: JWK[] };
let handle: HttpServerHandle;
const logged: string[] = [];

async function mint(claims: JWTPayload = {}, options: { key?: webcrypto.CryptoKey; expiresIn?: string | number } = {}) {
  return new SignJWT({ scope: "notes:read", client_id: "test-client", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuer(typeof claims.iss === "string" ? claims.iss : ISSUER)
    .setAudience((claims.aud as string | string[] | undefined) ?? RESOURCE)
    .setSubject(typeof claims.sub === "string" ? claims.sub : "alice")
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? "5m")
    .sign(options.key ?? privateKey);
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const callMessage = (name: string, id = 1, meta?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) },
});
const perRequestMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey;
  otherKey = (await generateKeyPair("ES256")).privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" }] };

  const server = new McpServer(
    { name: "protected", version: "1" },
    { logger: (level, message, detail) => logged.push(`${level} ${message} ${detail ?? ""}`) },
  );
  server.tool("whoami", {}, (_args, context) => {
    const info = context.authInfo as AuthInfo;
    return { structuredContent: { subject: info.subject, clientId: info.clientId, scopes: info.scopes } };
  });
  server.tool("delete_note", { scopes: ["notes:write"] }, () => "deleted");
  server.resource("note://1", { name: "one", scopes: ["notes:admin"] }, () => "secret");
  server.prompt("summarize", { scopes: ["prompts:use"] }, () => "Summarize.");
  handle = await serveHttp(server, {
    auth: {
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      requiredScopes: ["notes:read"],
      verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks }),
      metadata: { resource_name: "Notes" },
    },
  });
});

afterAll(async () => {
  await handle?.close();
});

/** The parameters of a Bearer challenge. */
function challenge(header: string | string[] | undefined): Record<string, string> {
  expect(typeof header).toBe("string");
  expect(header as string).toMatch(/^Bearer /);
  return Object.fromEntries([...(header as string).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe("Protected Resource Metadata (RFC 9728)", () => {
  test("served at the path-inserted well-known URI and at the root one", async () => {
    const origin = handle.url.replace(/\/mcp$/, "");
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const response = await raw("GET", origin + path);
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(response.body)).toEqual({
        resource_name: "Notes",
        resource: RESOURCE,
        authorization_servers: [ISSUER],
        scopes_supported: ["notes:read"],
        bearer_methods_supported: ["header"],
      });
    }
  });
});

describe("tokens refused with the status and challenge the spec requires", () => {
  test("no token: 401 with resource_metadata and scope, no error code (RFC 6750 §3.1)", async () => {
    const response = await post(handle.url, initializeMessage());
    expect(response.status).toBe(401);
    expect(challenge(response.headers["www-authenticate"])).toEqual({
      resource_metadata: METADATA_URL,
      scope: "notes:read",
    });
  });

  const invalid: [string, () => Promise<string>, RegExp][] = [
    ["expired", () => mint({}, { expiresIn: Math.floor(Date.now() / 1000) - 120 }), /expired/],
    [
      "for another resource (RFC 8707 audience)",
      () => mint({ aud: "https://other.example.com/mcp" }),
      /not issued for this server/,
    ],
    ["from another issuer", () => mint({ iss: "https://evil.example.com" }), /issuer/],
    ["signed by a key not in the set", () => mint({}, { key: otherKey }), /signature|no key/],
    ["malformed", async () => "not.a.jwt", /malformed/],
    [
      "unsecured (alg: none)",
      async () =>
        new UnsecuredJWT({ scope: "notes:read" })
          .setIssuer(ISSUER)
          .setAudience(RESOURCE)
          .setSubject("alice")
          .setExpirationTime("5m")
          .encode(),
      /algorithm|malformed/,
    ],
  ];
  test.each(invalid)("a token %s: 401 invalid_token", async (_what, make, reason) => {
    const token = await make();
    const response = await post(handle.url, initializeMessage(), bearer(token));
    expect(response.status).toBe(401);
    const params = challenge(response.headers["www-authenticate"]);
    expect(params["error"]).toBe("invalid_token");
    expect(params["resource_metadata"]).toBe(METADATA_URL);
    expect(params["error_description"]).toMatch(reason);
    expect(response.body).not.toContain(token);
  });

  test("not a bearer token: 400 invalid_request", async () => {
    const response = await post(handle.url, initializeMessage(), { Authorization: "Basic YWxpY2U6c2VjcmV0" });
    expect(response.status).toBe(400);
    expect(challenge(response.headers["www-authenticate"])["error"]).toBe("invalid_request");
  });

  test("a token without a scope every request needs: 403 insufficient_scope naming it", async () => {
    const response = await post(handle.url, initializeMessage(), bearer(await mint({ scope: "profile" })));
    expect(response.status).toBe(403);
    expect(challenge(response.headers["www-authenticate"])).toMatchObject({
      error: "insufficient_scope",
      scope: "notes:read",
      resource_metadata: METADATA_URL,
    });
  });

  test("no token ever appears in a log line", async () => {
    const tokens = [await mint({}, { expiresIn: 1 }), await mint({ aud: "x" }), "not.a.jwt", await mint()];
    for (const token of tokens) await post(handle.url, initializeMessage(), bearer(token));
    const text = logged.join("\n");
    for (const token of tokens) expect(text).not.toContain(token);
  });
});

describe("scopes declared at registration, in both eras", () => {
  async function legacySession(token: string): Promise<string> {
    const init = await post(handle.url, initializeMessage(), bearer(token));
    expect(init.status).toBe(200);
    const id = init.headers["mcp-session-id"] as string;
    await post(
      handle.url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { ...bearer(token), "Mcp-Session-Id": id },
    );
    return id;
  }

  test("2025-11-25 session: a tool, a resource and a prompt the token lacks scope for are 403 with the scope needed", async () => {
    const token = await mint();
    const session = { ...bearer(token), "Mcp-Session-Id": await legacySession(token) };
    const cases: [unknown, string][] = [
      [callMessage("delete_note", 2), "notes:write"],
      [{ jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "note://1" } }, "notes:admin"],
      [{ jsonrpc: "2.0", id: 4, method: "prompts/get", params: { name: "summarize" } }, "prompts:use"],
    ];
    for (const [message, scope] of cases) {
      const response = await post(handle.url, message, session);
      expect(response.status).toBe(403);
      expect(challenge(response.headers["www-authenticate"])).toMatchObject({ error: "insufficient_scope", scope });
      const body = JSON.parse(response.body);
      expect(body.error.code).toBe(-32010);
      expect(body.error.data).toEqual({ requiredScopes: [scope] });
    }
    // With the scope, the same call goes through.
    const writer = await mint({ scope: "notes:read notes:write" });
    const allowed = await post(handle.url, callMessage("delete_note", 5), {
      ...bearer(writer),
      "Mcp-Session-Id": await legacySession(writer),
    });
    expect([allowed.status, JSON.parse(allowed.body).result.content[0].text]).toEqual([200, "deleted"]);
  });

  test("2026-07-28 per-request: the same 403, and authInfo in the handler", async () => {
    const headers = { ...bearer(await mint()), "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call" };
    const refused = await post(handle.url, callMessage("delete_note", 1, perRequestMeta), {
      ...headers,
      "Mcp-Name": "delete_note",
    });
    expect(refused.status).toBe(403);
    expect(challenge(refused.headers["www-authenticate"])).toMatchObject({
      error: "insufficient_scope",
      scope: "notes:write",
    });
    const who = await post(handle.url, callMessage("whoami", 2, perRequestMeta), { ...headers, "Mcp-Name": "whoami" });
    expect(who.status).toBe(200);
    expect(JSON.parse(who.body).result.structuredContent).toEqual({
      subject: "alice",
      clientId: "test-client",
      scopes: ["notes:read"],
    });
  });
});

describe("the official SDK clients with a bearer token", () => {
  test("v1 client (2025-11-25 handshake) with a static Authorization header", async () => {
    const client = new Client({ name: "v1", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(handle.url), {
        requestInit: { headers: bearer(await mint({ sub: "bob" })) },
      }),
    );
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.structuredContent).toMatchObject({ subject: "bob" });
    // The SDK surfaces the 403 as a transport error carrying the JSON-RPC error.
    await expect(client.callTool({ name: "delete_note", arguments: {} })).rejects.toThrow(/needs scope notes:write/);
    await client.close();
  });

  test("v2 client pinned to 2026-07-28 with an auth provider", async () => {
    const token = await mint({ sub: "carol" });
    const client = new ClientV2({ name: "v2", version: "1" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" }, probe: { timeoutMs: 5_000 } },
    } as never);
    await client.connect(new HttpV2(new URL(handle.url), { authProvider: { token: async () => token } }));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.structuredContent).toMatchObject({ subject: "carol" });
    await client.close();
  });
});

describe("sessions are bound to the identity that opened them", () => {
  test("Streamable HTTP: another identity's valid token with the session id is 404; the owner goes on", async () => {
    const alice = await mint({ sub: "alice" });
    const init = await post(handle.url, initializeMessage(), bearer(alice));
    const sessionId = init.headers["mcp-session-id"] as string;
    await post(
      handle.url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { ...bearer(alice), "Mcp-Session-Id": sessionId },
    );
    const mallory = await mint({ sub: "mallory" });
    const hijack = await post(handle.url, callMessage("whoami", 9), {
      ...bearer(mallory),
      "Mcp-Session-Id": sessionId,
    });
    expect(hijack.status).toBe(404);
    const stream = await raw("GET", handle.url, {
      headers: { ...bearer(mallory), Accept: "text/event-stream", "Mcp-Session-Id": sessionId },
    });
    expect(stream.status).toBe(404);
    const kill = await raw("DELETE", handle.url, { headers: { ...bearer(mallory), "Mcp-Session-Id": sessionId } });
    expect(kill.status).toBe(404);
    // A refreshed token of the same identity is fine, and the session is intact.
    const again = await post(handle.url, callMessage("whoami", 10), {
      ...bearer(await mint({ sub: "alice" })),
      "Mcp-Session-Id": sessionId,
    });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body).result.structuredContent.subject).toBe("alice");
  });

  test("HTTP+SSE (2024-11-05): another identity's POST to the session's endpoint is 404", async () => {
    const alice = await mint({ sub: "alice" });
    const sse = await openSse("GET", handle.url.replace(/\/mcp$/, "/sse"), {
      ...bearer(alice),
      Accept: "text/event-stream",
    });
    expect(sse.status).toBe(200);
    const [endpoint] = await sse.reader.until((events) => events.some((e) => e.event === "endpoint"));
    const messages = new URL(endpoint!.data, handle.url).href;
    const body = JSON.stringify(initializeMessage("2024-11-05"));
    const hijack = await raw("POST", messages, {
      headers: { ...bearer(await mint({ sub: "mallory" })), "Content-Type": "application/json", Accept: ACCEPT_BOTH },
      body,
    });
    expect(hijack.status).toBe(404);
    const owner = await raw("POST", messages, {
      headers: { ...bearer(alice), "Content-Type": "application/json", Accept: ACCEPT_BOTH },
      body,
    });
    expect(owner.status).toBe(202);
    await sse.reader.until((events) => events.some((e) => e.event === "message"));
    sse.reader.close();
  });
});

describe("a verifier that fails on its own", () => {
  test("503 with Retry-After (not 401), logged without the token", async () => {
    const lines: string[] = [];
    const server = new McpServer({ name: "x", version: "1" }, { logger: (_l, m, d) => lines.push(`${m} ${d ?? ""}`) });
    const token = "opaque-token-0123456789";
    const broken = await serveHttp(server, {
      auth: {
        resource: RESOURCE,
        authorizationServers: [ISSUER],
        verifier: async (t) => {
          throw new Error(`introspection endpoint unreachable while checking ${t}`);
        },
      },
    });
    try {
      const response = await post(broken.url, initializeMessage(), bearer(token));
      expect([response.status, response.headers["retry-after"]]).toEqual([503, "5"]);
      expect(lines.join("\n")).toMatch(/introspection endpoint unreachable while checking \[token\]/);
      expect(lines.join("\n")).not.toContain(token);
    } finally {
      await broken.close();
    }
  });
});
