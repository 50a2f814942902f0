// What a caller without a scope can learn of what the scope protects, through a
// real serveHttp server with `auth` and JWTs minted here, in both eras
// (2025-11-25 handshake sessions, 2026-07-28 per-request): completion on a
// scoped prompt or template is refused as prompts/get and resources/read are,
// and completers get the request's context; lists show a caller only what it
// may use (pages and caching hints per caller); subscribing to a scoped
// resource needs its scope; long-lived streams end when their token expires;
// a token naming neither a subject nor a client is refused.
import { SignJWT, exportJWK, generateKeyPair, type JWK, type JWTPayload } from "jose";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { webcrypto } from "node:crypto";
import { McpServer } from "../../runtime/server/index.js";
import { serveHttp, type HttpServerHandle } from "../../runtime/transports/http.js";
import { jwtVerifier } from "../../runtime/auth/jwt.js";
import {
  ACCEPT_BOTH,
  initializeMessage,
  openSession,
  openSse,
  post,
  SseReader,
  type RawResponse,
} from "./http-support.js";

const RESOURCE = "https://mcp.example.com/mcp";
const ISSUER = "https://auth.example.com";
const SECRET = "secret:read";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

let privateKey: webcrypto.CryptoKey;
let jwks: { keys: JWK[] };
let handle: HttpServerHandle;
let server: McpServer;

/** A token for `sub` (none when `claims.sub` is null) with `scope`, living `expiresIn` (seconds or a jose span). */
async function mint(
  scope: string,
  claims: Omit<JWTPayload, "sub"> & { sub?: string | null } = {},
  expiresIn: string | number = "5m",
) {
  const { sub = "alice", ...rest } = claims;
  const jwt = new SignJWT({ scope, client_id: "test-client", ...rest })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setIssuedAt()
    .setExpirationTime(expiresIn);
  if (sub !== null) jwt.setSubject(sub);
  return jwt.sign(privateKey);
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" }] };

  server = new McpServer(
    { name: "scoped", version: "1" },
    // A public cache hint: a list filtered per caller must still be private.
    { pageSize: 2, cache: { ttlMs: 60_000, cacheScope: "public" }, logger: () => {} },
  );
  for (const name of ["a_public", "c_public", "e_public"]) server.tool(name, {}, () => name);
  for (const name of ["b_secret", "d_secret"]) server.tool(name, { scopes: [SECRET] }, () => name);
  server.prompt(
    "plan",
    {
      arguments: [{ name: "topic" }],
      scopes: [SECRET],
      complete: { topic: () => ["classified-alpha", "classified-beta"] },
    },
    () => "Plan.",
  );
  server.prompt("greet", { arguments: [{ name: "name" }] }, () => "Hello.");
  server.resource("doc://public", { name: "public" }, () => "open");
  server.resource("doc://secret", { name: "secret", scopes: [SECRET] }, () => "closed");
  server.resourceTemplate(
    "vault:///{item}",
    {
      name: "vault",
      scopes: [SECRET],
      complete: { item: () => ["gold-bars"] },
      list: () => [{ uri: "vault:///gold-bars", name: "gold" }],
    },
    () => "gold",
  );
  // A completer that reads the request's context: who asks.
  server.resourceTemplate(
    "inbox:///{owner}",
    { name: "inbox", complete: { owner: (_value, _context, request) => [request.authInfo?.subject ?? "nobody"] } },
    () => "mail",
  );
  handle = await serveHttp(server, {
    auth: {
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks }),
    },
  });
});

afterAll(async () => {
  await handle?.close();
});

type Era = "2025-11-25" | "2026-07-28";
const ERAS: Era[] = ["2025-11-25", "2026-07-28"];

const perRequestMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};
const NAME_FIELD: Record<string, string> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/** Opens a 2025-11-25 session with `token`; returns its id. */
const openSessionAs = (token: string) => openSession(handle.url, "2025-11-25", bearer(token));

/** A caller of one era with one token: sends requests as its client would. */
async function caller(era: Era, token: string) {
  const sessionId = era === "2025-11-25" ? await openSessionAs(token) : undefined;
  let id = 1;
  return async (method: string, params: Record<string, unknown> = {}): Promise<RawResponse & { json: any }> => {
    const nameField = NAME_FIELD[method];
    const headers =
      sessionId !== undefined
        ? { ...bearer(token), "Mcp-Session-Id": sessionId }
        : {
            ...bearer(token),
            "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": method,
            ...(nameField ? { "Mcp-Name": String(params[nameField]) } : {}),
          };
    const body = {
      jsonrpc: "2.0",
      id: id++,
      method,
      params: sessionId !== undefined ? params : { ...params, _meta: perRequestMeta },
    };
    const response = await post(handle.url, body, headers);
    return { ...response, json: response.body ? JSON.parse(response.body) : undefined };
  };
}

/** The parameters of a Bearer challenge. */
function challenge(header: string | string[] | undefined): Record<string, string> {
  expect(header as string).toMatch(/^Bearer /);
  return Object.fromEntries([...(header as string).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

function expectInsufficientScope(response: RawResponse & { json: any }, scope = SECRET): void {
  expect(response.status).toBe(403);
  expect(challenge(response.headers["www-authenticate"])).toMatchObject({ error: "insufficient_scope", scope });
  expect(response.json.error.code).toBe(-32010);
  expect(response.json.error.data).toEqual({ requiredScopes: [scope] });
}

const completePrompt = { ref: { type: "ref/prompt", name: "plan" }, argument: { name: "topic", value: "" } };
const completeTemplate = {
  ref: { type: "ref/resource", uri: "vault:///{item}" },
  argument: { name: "item", value: "" },
};

describe.each(ERAS)("completion on what a scope protects (%s)", (era) => {
  test("a scoped prompt's or template's completer is refused without the scope: 403 insufficient_scope, no values", async () => {
    const send = await caller(era, await mint("notes:read"));
    for (const params of [completePrompt, completeTemplate]) {
      const refused = await send("completion/complete", params);
      expectInsufficientScope(refused);
      expect(refused.body).not.toMatch(/classified|gold-bars/);
    }
  });

  test("with the scope, the values come", async () => {
    const send = await caller(era, await mint(`notes:read ${SECRET}`));
    expect((await send("completion/complete", completePrompt)).json.result.completion.values).toEqual([
      "classified-alpha",
      "classified-beta",
    ]);
    expect((await send("completion/complete", completeTemplate)).json.result.completion.values).toEqual(["gold-bars"]);
  });

  test("a completer gets the request's context (authInfo)", async () => {
    const send = await caller(era, await mint("notes:read", { sub: "dora" }));
    const answer = await send("completion/complete", {
      ref: { type: "ref/resource", uri: "inbox:///{owner}" },
      argument: { name: "owner", value: "" },
    });
    expect(answer.json.result.completion.values).toEqual(["dora"]);
  });
});

/** Every page of a list method, following nextCursor. */
async function walk(send: Awaited<ReturnType<typeof caller>>, method: string, field: string) {
  const pages: string[][] = [];
  const hints = new Set<unknown>();
  let cursor: string | undefined;
  do {
    const answer = await send(method, cursor === undefined ? {} : { cursor });
    expect(answer.status).toBe(200);
    const result = answer.json.result;
    pages.push(
      result[field].map(
        (entry: { name?: string; uri?: string; uriTemplate?: string }) => entry.uriTemplate ?? entry.uri ?? entry.name,
      ),
    );
    hints.add(result.cacheScope);
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return { pages, all: pages.flat(), hints: [...hints] };
}

describe.each(ERAS)("lists show a caller what its scopes let it use (%s)", (era) => {
  test("tools/list: pages of the caller's own list, without gaps", async () => {
    const reader = await walk(await caller(era, await mint("notes:read")), "tools/list", "tools");
    expect(reader.pages).toEqual([["a_public", "c_public"], ["e_public"]]);
    const holder = await walk(await caller(era, await mint(SECRET)), "tools/list", "tools");
    expect(holder.pages).toEqual([["a_public", "b_secret"], ["c_public", "d_secret"], ["e_public"]]);
  });

  test("prompts/list, resources/list, resources/templates/list", async () => {
    const reader = await caller(era, await mint("notes:read"));
    expect((await walk(reader, "prompts/list", "prompts")).all).toEqual(["greet"]);
    expect((await walk(reader, "resources/list", "resources")).all).toEqual(["doc://public"]);
    expect((await walk(reader, "resources/templates/list", "resourceTemplates")).all).toEqual(["inbox:///{owner}"]);
    const holder = await caller(era, await mint(SECRET));
    expect((await walk(holder, "prompts/list", "prompts")).all).toEqual(["plan", "greet"]);
    expect((await walk(holder, "resources/list", "resources")).all).toEqual([
      "doc://public",
      "doc://secret",
      "vault:///gold-bars",
    ]);
    expect((await walk(holder, "resources/templates/list", "resourceTemplates")).all).toEqual([
      "vault:///{item}",
      "inbox:///{owner}",
    ]);
  });

  test("a hidden tool is still refused by name with the scope it needs (so a client can step up)", async () => {
    const send = await caller(era, await mint("notes:read"));
    expectInsufficientScope(await send("tools/call", { name: "b_secret", arguments: {} }));
  });
});

test("2026-07-28: a list filtered per caller is cacheScope private on every page, though the server's hint is public", async () => {
  for (const scope of ["notes:read", SECRET]) {
    const send = await caller("2026-07-28", await mint(scope));
    for (const [method, field] of [
      ["tools/list", "tools"],
      ["prompts/list", "prompts"],
      ["resources/list", "resources"],
      ["resources/templates/list", "resourceTemplates"],
    ] as const)
      expect((await walk(send, method, field)).hints).toEqual(["private"]);
  }
});

describe("subscribing to a scoped resource needs its scope", () => {
  test("2025-11-25 resources/subscribe: 403 for a scoped resource or a scoped template's URI; fine with the scope", async () => {
    const send = await caller("2025-11-25", await mint("notes:read"));
    expectInsufficientScope(await send("resources/subscribe", { uri: "doc://secret" }));
    expectInsufficientScope(await send("resources/subscribe", { uri: "vault:///gold-bars" }));
    expect((await send("resources/subscribe", { uri: "doc://public" })).json.result).toEqual({});
    const holder = await caller("2025-11-25", await mint(SECRET));
    expect((await holder("resources/subscribe", { uri: "doc://secret" })).json.result).toEqual({});
  });

  test("2026-07-28 subscriptions/listen naming a scoped resource: 403 naming its scope; with it, acknowledged", async () => {
    const listen = { notifications: { resourceSubscriptions: ["doc://public", "vault:///gold-bars"] } };
    const send = await caller("2026-07-28", await mint("notes:read"));
    expectInsufficientScope(await send("subscriptions/listen", listen));
    const stream = await listenStream(await mint(SECRET), 7, listen);
    const [ack] = await stream.until((events) => events.length >= 1);
    expect(JSON.parse(ack!.data)).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { resourceSubscriptions: ["doc://public", "vault:///gold-bars"] } },
    });
    server.resourceUpdated("vault:///gold-bars");
    const [, updated] = await stream.until((events) => events.length >= 2);
    expect(JSON.parse(updated!.data)).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "vault:///gold-bars" },
    });
    stream.close();
  });
});

/** A 2026-07-28 subscriptions/listen request, its SSE response read as it comes. */
function listenStream(token: string, id: number, params: Record<string, unknown>): Promise<SseReader> {
  return new Promise((resolve, reject) => {
    const req = request(handle.url, {
      method: "POST",
      headers: {
        ...bearer(token),
        "Content-Type": "application/json",
        Accept: ACCEPT_BOTH,
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "subscriptions/listen",
      },
    });
    req.on("response", (res) => {
      expect(res.statusCode).toBe(200);
      resolve(new SseReader(res));
    });
    req.on("error", reject);
    req.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "subscriptions/listen",
        params: { ...params, _meta: perRequestMeta },
      }),
    );
  });
}

describe("a long-lived stream ends when its token expires", () => {
  // jose's exp is in whole seconds: a token of "3s" has 2 to 3 s left when it is presented.
  const LIFETIME = "3s";
  const WITHIN_MS = 6_000;

  test("2026-07-28 subscriptions/listen: closed gracefully (a result carrying its id), then the stream ends", async () => {
    const stream = await listenStream(await mint("notes:read", {}, LIFETIME), 21, {
      notifications: { toolsListChanged: true },
    });
    await stream.until((events) => events.length >= 1);
    const events = await stream.until((all) => all.length >= 2, WITHIN_MS);
    expect(JSON.parse(events[1]!.data)).toEqual({
      jsonrpc: "2.0",
      id: 21,
      result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: 21 } },
    });
    await until(() => stream.ended, WITHIN_MS);
    // A fresh token listens again.
    const again = await listenStream(await mint("notes:read"), 22, { notifications: { toolsListChanged: true } });
    await again.until((all) => all.length >= 1);
    again.close();
  });

  test("2025-11-25 standalone GET stream: ended at expiry; the session goes on with a fresh token", async () => {
    const short = await mint("notes:read", {}, LIFETIME);
    const sessionId = await openSessionAs(short);
    const stream = await openSse("GET", handle.url, {
      ...bearer(short),
      Accept: "text/event-stream",
      "Mcp-Session-Id": sessionId,
    });
    expect(stream.status).toBe(200);
    await until(() => stream.reader.ended, WITHIN_MS);
    const fresh = await mint("notes:read");
    const answer = await post(
      handle.url,
      { jsonrpc: "2.0", id: 5, method: "tools/list" },
      {
        ...bearer(fresh),
        "Mcp-Session-Id": sessionId,
      },
    );
    expect(answer.status).toBe(200);
    const reopened = await openSse("GET", handle.url, {
      ...bearer(fresh),
      Accept: "text/event-stream",
      "Mcp-Session-Id": sessionId,
    });
    expect(reopened.status).toBe(200);
    reopened.reader.close();
  });

  test("2024-11-05 /sse session: its stream ends at expiry", async () => {
    const sse = await openSse("GET", handle.url.replace(/\/mcp$/, "/sse"), {
      ...bearer(await mint("notes:read", {}, LIFETIME)),
      Accept: "text/event-stream",
    });
    expect(sse.status).toBe(200);
    await sse.reader.until((events) => events.some((e) => e.event === "endpoint"));
    await until(() => sse.reader.ended, WITHIN_MS);
  });
});

describe("principals without a subject", () => {
  test("a token naming neither a subject nor a client is refused: 401 invalid_token", async () => {
    const response = await post(
      handle.url,
      initializeMessage(),
      bearer(await mint("notes:read", { sub: null, client_id: undefined })),
    );
    expect(response.status).toBe(401);
    expect(challenge(response.headers["www-authenticate"])).toMatchObject({ error: "invalid_token" });
    expect(response.body).toMatch(/neither a subject \(sub\) nor a client/);
  });

  test("client-credentials tokens (a client, no subject) are told apart by their client", async () => {
    const one = await mint("notes:read", { sub: null, client_id: "robot-one" });
    const sessionId = await openSessionAs(one);
    const other = await post(
      handle.url,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      {
        ...bearer(await mint("notes:read", { sub: null, client_id: "robot-two" })),
        "Mcp-Session-Id": sessionId,
      },
    );
    expect(other.status).toBe(404);
    const same = await post(
      handle.url,
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
      {
        ...bearer(await mint("notes:read", { sub: null, client_id: "robot-one" })),
        "Mcp-Session-Id": sessionId,
      },
    );
    expect(same.status).toBe(200);
  });
});

async function until(test: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
