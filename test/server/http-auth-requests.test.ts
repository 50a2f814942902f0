// What the resource server makes of a request's credentials before any MCP
// message is read: an audience compared as a whole URI (userinfo, path and
// query never dropped; RFC 3986 §6.2.2 normalization only), a request with
// two Authorization headers or two credentials refused (RFC 6750 §3.1), and a
// verifier of the user's own saying "bad token" (401 invalid_token, which
// clients answer by re-authorizing) or "cannot check now" (503), seen by
// mcpgen's client and the official SDK's.
import { request } from "node:http";
import type { webcrypto } from "node:crypto";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as SdkHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InvalidTokenError as SdkInvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Client, HttpStatusError, StreamableHttpClientTransport } from "mcpgen/client";
import { jwtVerifier } from "../../runtime/auth/jwt.js";
import { McpServer } from "../../runtime/server/index.js";
import {
  InvalidTokenError,
  VerifierUnavailableError,
  serveHttp,
  type HttpServerHandle,
  type TokenVerifier,
} from "../../runtime/transports/http.js";
import { initializeMessage, post, type RawResponse } from "./http-support.js";

const RESOURCE = "https://mcp.example.com/mcp";
const ISSUER = "https://auth.example.com";

let privateKey: webcrypto.CryptoKey;
let jwtServer: HttpServerHandle;
let customServer: HttpServerHandle;

/** Tokens of the custom verifier, by what it throws. */
class OwnTokenError extends Error {
  override name = "InvalidTokenError";
}
const customErrors: Record<string, () => unknown> = {
  "exported-class": () => new InvalidTokenError("the token is revoked"),
  "own-class-by-name": () => new OwnTokenError("the token is revoked"),
  "own-error-by-code": () => Object.assign(new Error("the token is revoked"), { code: "invalid_token" }),
  "sdk-class": () => new SdkInvalidTokenError("the token is revoked"),
  "database-down": () => new Error("connect ECONNREFUSED 127.0.0.1:5432"),
  unavailable: () => new VerifierUnavailableError("introspection is down", 17),
};
const customVerifier: TokenVerifier = async (token) => {
  const make = customErrors[token];
  if (make) throw make();
  return { subject: token, scopes: [], claims: {} };
};

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey;
  const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" }] };
  const quiet = { logger: () => {} };
  jwtServer = await serveHttp(new McpServer({ name: "jwt", version: "1" }, quiet), {
    auth: {
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks }),
    },
  });
  const custom = new McpServer({ name: "custom", version: "1" }, quiet);
  custom.tool("whoami", {}, (_args, context) => String(context.authInfo?.subject));
  customServer = await serveHttp(custom, {
    auth: { resource: RESOURCE, authorizationServers: [ISSUER], verifier: customVerifier },
  });
});

afterAll(async () => {
  await jwtServer?.close();
  await customServer?.close();
});

function mint(aud: string): Promise<string> {
  return new SignJWT({ scope: "notes:read" })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuer(ISSUER)
    .setAudience(aud)
    .setSubject("alice")
    .setExpirationTime("5m")
    .sign(privateKey);
}

/** The parameters of a Bearer challenge. */
function challenge(header: string | string[] | undefined): Record<string, string> {
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...(header as string).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe("the audience is compared as a whole URI", () => {
  test.each([
    "https://attacker@mcp.example.com/mcp",
    "https://attacker:secret@mcp.example.com/mcp",
    "https://@mcp.example.com/mcp",
    "https://mcp.example.com/mcp?tenant=other",
    "https://mcp.example.com/MCP",
    "https://mcp.example.com:8443/mcp",
  ])("aud %s is another server: 401 invalid_token", async (aud) => {
    const response = await post(jwtServer.url, initializeMessage(), { Authorization: `Bearer ${await mint(aud)}` });
    expect(response.status).toBe(401);
    expect(challenge(response.headers["www-authenticate"])).toMatchObject({ error: "invalid_token" });
    expect(response.body).toMatch(/not issued for this server/);
  });

  test.each(["https://mcp.example.com/mcp", "HTTPS://MCP.Example.COM/mcp", "https://mcp.example.com:443/mcp"])(
    "aud %s is this server, normalized: accepted",
    async (aud) => {
      const response = await post(jwtServer.url, initializeMessage(), { Authorization: `Bearer ${await mint(aud)}` });
      expect(response.status, response.body).toBe(200);
    },
  );
});

/** A POST whose Authorization is sent as given: one header line per value. */
function postWithAuthorization(url: string, authorization: string[]): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          Authorization: authorization,
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(initializeMessage()));
  });
}

describe("more than one credential is 400 invalid_request (RFC 6750 §3.1), never the first of them", () => {
  test("two Authorization headers, either one valid", async () => {
    const valid = `Bearer ${await mint(RESOURCE)}`;
    for (const pair of [
      [valid, "Bearer other"],
      ["Bearer other", valid],
      [valid, valid],
    ]) {
      const response = await postWithAuthorization(jwtServer.url, pair);
      expect(response.status).toBe(400);
      const params = challenge(response.headers["www-authenticate"]);
      expect(params["error"]).toBe("invalid_request");
      expect(params["error_description"]).toMatch(/more than one Authorization header/);
    }
    // One of them alone is fine.
    expect((await postWithAuthorization(jwtServer.url, [valid])).status).toBe(200);
  });

  test("two credentials in one header", async () => {
    const token = await mint(RESOURCE);
    const response = await postWithAuthorization(jwtServer.url, [`Bearer ${token}, Bearer ${token}`]);
    expect(response.status).toBe(400);
    expect(challenge(response.headers["www-authenticate"])).toMatchObject({ error: "invalid_request" });
  });
});

describe("a verifier of the user's own", () => {
  test.each(["exported-class", "own-class-by-name", "own-error-by-code", "sdk-class"])(
    "throwing an invalid-token error (%s): 401 invalid_token with its reason",
    async (token) => {
      const response = await post(customServer.url, initializeMessage(), { Authorization: `Bearer ${token}` });
      expect(response.status).toBe(401);
      expect(challenge(response.headers["www-authenticate"])).toMatchObject({
        error: "invalid_token",
        error_description: "the token is revoked",
      });
    },
  );

  test("throwing anything else: 503 with Retry-After (VerifierUnavailableError's own)", async () => {
    const down = await post(customServer.url, initializeMessage(), { Authorization: "Bearer database-down" });
    expect([down.status, down.headers["retry-after"], down.headers["www-authenticate"]]).toEqual([503, "5", undefined]);
    const unavailable = await post(customServer.url, initializeMessage(), { Authorization: "Bearer unavailable" });
    expect([unavailable.status, unavailable.headers["retry-after"]]).toEqual([503, "17"]);
  });

  test("mcpgen's client sees 401 with the invalid_token challenge; with a good token it calls", async () => {
    const refused = Client.connect(
      new StreamableHttpClientTransport(customServer.url, { headers: { Authorization: "Bearer own-class-by-name" } }),
    );
    const error = await refused.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(401);
    expect(challenge((error as HttpStatusError).headers.get("www-authenticate") ?? undefined)).toMatchObject({
      error: "invalid_token",
    });
    const client = await Client.connect(
      new StreamableHttpClientTransport(customServer.url, { headers: { Authorization: "Bearer carol" } }),
    );
    try {
      expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "carol" }]);
    } finally {
      await client.close();
    }
  });

  test("the official SDK client sees 401 with the invalid_token challenge", async () => {
    const seen: Response[] = [];
    const transport = new SdkHttp(new URL(customServer.url), {
      requestInit: { headers: { Authorization: "Bearer own-error-by-code" } },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        seen.push(response.clone());
        return response;
      },
    });
    const client = new SdkClient({ name: "sdk", version: "1" });
    await expect(client.connect(transport)).rejects.toThrow(/Unauthorized: the token is revoked/);
    expect(seen.map((response) => response.status)).toContain(401);
    const refused = seen.find((response) => response.status === 401)!;
    expect(challenge(refused.headers.get("www-authenticate") ?? undefined)).toMatchObject({ error: "invalid_token" });
    await client.close();
  });
});
