// jwtVerifier when the authorization server's key set cannot be fetched: a
// real loopback JWKS server switched between good, 500, an HTML page, JSON
// that is no key set, a fetch that never ends and no server at all, in front
// of a real serveHttp server with auth. "Cannot check now" is 503 with
// Retry-After, never 401 invalid_token (which sends clients to re-authorize
// against a server that is down); an outage is logged once when it starts and
// once when it ends; fetches during an outage are bounded; the last good set
// keeps valid tokens working for a grace period past its lifetime.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { webcrypto } from "node:crypto";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { jwtVerifier, type JwtVerifierOptions } from "../../runtime/auth/jwt.js";
import { McpServer } from "../../runtime/server/index.js";
import { serveHttp, type HttpServerHandle } from "../../runtime/transports/http.js";
import { initializeMessage, post, type RawResponse } from "./http-support.js";

const RESOURCE = "https://mcp.example.com/mcp";
const ISSUER = "https://auth.example.com";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Mode = "good" | "500" | "html" | "not-a-key-set" | "hang" | "down";

/** The authorization server's JWKS endpoint on loopback, switchable; counts the fetches it gets. */
class JwksServer {
  mode: Mode = "good";
  fetches = 0;
  private readonly server: Server;
  private readonly hanging = new Set<() => void>();
  port = 0;

  constructor(private readonly jwks: { keys: JWK[] }) {
    this.server = createServer((_request, response) => {
      this.fetches++;
      if (this.mode === "good")
        return void response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(this.jwks));
      if (this.mode === "500") return void response.writeHead(500).end("Internal Server Error");
      if (this.mode === "html")
        return void response
          .writeHead(200, { "Content-Type": "text/html" })
          .end("<html><body>Maintenance</body></html>");
      if (this.mode === "not-a-key-set")
        return void response.writeHead(200, { "Content-Type": "application/json" }).end('{"error":"maintenance"}');
      // "hang": never answered until the test ends.
      this.hanging.add(() => response.destroy());
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/jwks.json`;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** good, 500, html, ...; "down" stops listening (connections refused), anything else listens again on the same port. */
  async set(mode: Mode): Promise<void> {
    if (mode === "down" && this.mode !== "down") {
      this.server.closeAllConnections();
      await new Promise<void>((resolve) => this.server.close(() => resolve()));
    } else if (mode !== "down" && this.mode === "down") await this.listen();
    this.mode = mode;
  }

  async close(): Promise<void> {
    for (const end of this.hanging) end();
    if (this.mode === "down") return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let signing: webcrypto.CryptoKey;
let unknownKey: webcrypto.CryptoKey;
let jwks: { keys: JWK[] };
const started: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  signing = pair.privateKey;
  unknownKey = (await generateKeyPair("ES256")).privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" }] };
});

afterEach(async () => {
  for (const thing of started.splice(0).reverse()) await thing.close();
});

afterAll(async () => {
  for (const thing of started.splice(0).reverse()) await thing.close();
});

function mint(kid = "k1"): Promise<string> {
  return new SignJWT({ scope: "notes:read" })
    .setProtectedHeader({ alg: "ES256", kid })
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setSubject("alice")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(kid === "k1" ? signing : unknownKey);
}

type Timing = Pick<
  JwtVerifierOptions,
  "jwksMaxAgeMs" | "jwksCooldownMs" | "jwksTimeoutMs" | "jwksRetryMs" | "jwksGraceMs"
>;

/** A JWKS server in `mode` and an MCP server checking tokens against it; the MCP server's log lines. */
async function start(mode: Mode, timing: Timing) {
  const keys = new JwksServer(jwks);
  await keys.listen();
  started.push(keys);
  await keys.set(mode);
  const lines: string[] = [];
  const server = new McpServer({ name: "keyset", version: "1" }, { logger: (_l, m) => lines.push(m) });
  const handle: HttpServerHandle = await serveHttp(server, {
    auth: {
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUrl: keys.url, ...timing }),
    },
  });
  started.push(handle);
  const request = async (kid = "k1"): Promise<RawResponse> =>
    post(handle.url, initializeMessage(), { Authorization: `Bearer ${await mint(kid)}` });
  const count = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
  return { keys, lines, request, count };
}

function expectUnavailable(response: RawResponse): void {
  expect(response.status, response.body).toBe(503);
  expect(response.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
  expect(response.headers["www-authenticate"]).toBeUndefined();
  expect(response.body).toMatch(/cannot be verified now/);
}

const KEY_SET_DOWN = /^the key set at .* cannot be fetched/;
const KEY_SET_BACK = /^the key set at .* was fetched again/;
const VERIFIER_DOWN = /^token verifier cannot check tokens/;
const VERIFIER_BACK = /^token verifier checks tokens again/;

describe("a key set that cannot be fetched is 503 with Retry-After, never 401", () => {
  test.each<Mode>(["500", "html", "not-a-key-set", "hang", "down"])(
    "the JWKS endpoint %s: 503; once it answers again, 200",
    async (mode) => {
      const { keys, request, lines } = await start(mode, { jwksTimeoutMs: 300, jwksRetryMs: 200 });
      expectUnavailable(await request());
      expect(lines.some((line) => KEY_SET_DOWN.test(line))).toBe(true);
      await keys.set("good");
      await sleep(250);
      const response = await request();
      expect(response.status, response.body).toBe(200);
    },
  );
});

describe("an outage of the key set", () => {
  test("is logged once when it starts and once when it ends; fetches are at most one per retry interval", async () => {
    const retryMs = 300;
    const { keys, request, count } = await start("500", { jwksRetryMs: retryMs });
    const began = Date.now();
    let answered = 0;
    while (Date.now() - began < 1500) {
      const responses = await Promise.all([request(), request(), request(), request()]);
      for (const response of responses) expectUnavailable(response);
      answered += responses.length;
      await sleep(40);
    }
    const elapsed = Date.now() - began;
    expect(answered).toBeGreaterThanOrEqual(20);
    expect(keys.fetches).toBeGreaterThanOrEqual(2);
    expect(keys.fetches).toBeLessThanOrEqual(Math.ceil(elapsed / retryMs) + 1);
    expect([count(KEY_SET_DOWN), count(VERIFIER_DOWN)]).toEqual([1, 1]);
    expect([count(KEY_SET_BACK), count(VERIFIER_BACK)]).toEqual([0, 0]);

    await keys.set("good");
    await sleep(retryMs + 50);
    for (let i = 0; i < 5; i++) expect((await request()).status).toBe(200);
    expect([count(KEY_SET_DOWN), count(VERIFIER_DOWN), count(KEY_SET_BACK), count(VERIFIER_BACK)]).toEqual([
      1, 1, 1, 1,
    ]);
  });

  test("the last good set keeps valid tokens working for the grace period; a key it lacks is 503 meanwhile, and past the grace every token is", async () => {
    const { keys, request, count, lines } = await start("good", {
      jwksMaxAgeMs: 400,
      jwksGraceMs: 1500,
      jwksRetryMs: 200,
      jwksCooldownMs: 100,
    });
    expect((await request()).status).toBe(200);
    // While the set can be fetched, a key it lacks is the token's fault: 401.
    await sleep(150);
    const forged = await request("k2");
    expect(forged.status).toBe(401);
    expect(forged.headers["www-authenticate"]).toMatch(/error="invalid_token"/);

    await keys.set("500");
    await sleep(500); // past the set's lifetime (400 ms), inside the grace period (1500 ms more)
    expect((await request()).status).toBe(200);
    expect(count(KEY_SET_DOWN)).toBe(1);
    expect(lines.find((line) => KEY_SET_DOWN.test(line))).toMatch(
      /checked against the set fetched .* for up to \d+ s more/,
    );
    // A key the last good set lacks may have been rotated in: whether it is the authorization server's is unknown.
    expectUnavailable(await request("k2"));
    expect((await request()).status).toBe(200);

    await sleep(1600); // past lifetime and grace
    expectUnavailable(await request());
    expect(count(KEY_SET_DOWN)).toBe(1);

    await keys.set("good");
    await sleep(250);
    expect((await request()).status).toBe(200);
    expect(count(KEY_SET_BACK)).toBe(1);
  });
});
