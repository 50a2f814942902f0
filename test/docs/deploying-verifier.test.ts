// docs/deploying.md's verifier of one's own, run as written against the
// built package (it imports InvalidTokenError and TokenVerifier from
// "mcpgen/http" as a user's project does): compiled in a strict nodenext
// project and started on a free loopback port, in front of a loopback
// introspection endpoint (RFC 7662) written here. A bad token is 401
// invalid_token to mcpgen's client and the official SDK's; an introspection
// endpoint that fails is 503 with Retry-After, logged once, not per request.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as SdkHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Client, HttpStatusError, StreamableHttpClientTransport } from "mcpgen/client";
import { initializeMessage, post } from "../server/http-support.js";
import { compile, snippet, workFolder } from "./pages.js";

const CREDENTIALS = `Basic ${Buffer.from("mcp-server:secret").toString("base64")}`;
let introspection: Server;
let introspectionDown = false;
let child: ChildProcess;
let stderr = "";
let url: string;

beforeAll(async () => {
  introspection = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (introspectionDown || request.headers.authorization !== CREDENTIALS)
        return void response.writeHead(introspectionDown ? 500 : 401).end();
      const token = new URLSearchParams(body).get("token");
      const claims = token === "good-token" ? { active: true, sub: "alice", scope: "notes:read" } : { active: false };
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(claims));
    });
  });
  await new Promise<void>((resolve) => introspection.listen(0, "127.0.0.1", resolve));
  const { port } = introspection.address() as AddressInfo;

  const dir = workFolder("deploying-verifier");
  expect(compile(dir, { "server.ts": snippet("docs/deploying.md", "verifier") })).toBe("exit 0");
  child = spawn(process.execPath, [join(dir, "server.js")], {
    env: {
      ...process.env,
      PORT: "0",
      RESOURCE: "https://mcp.example.com/mcp",
      ISSUER: "https://auth.example.com",
      INTROSPECTION_URL: `http://127.0.0.1:${port}/introspect`,
      INTROSPECTION_AUTH: CREDENTIALS,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const served = /^serving (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(stdout);
      if (served) resolve(served[1]!);
    });
    child.once("exit", (code) => reject(new Error(`server.js exited with ${code}: ${stderr}`)));
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await new Promise<void>((resolve) => (introspection ? introspection.close(() => resolve()) : resolve()));
});

const connect = (token: string) =>
  Client.connect(new StreamableHttpClientTransport(url, { headers: { Authorization: `Bearer ${token}` } }));

test("an active token calls; an inactive one is 401 invalid_token to mcpgen's client", async () => {
  const client = await connect("good-token");
  try {
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "alice" }]);
  } finally {
    await client.close();
  }
  // The client may know the server from before (no request at connect): the call is what sends the token.
  const error = await connect("revoked-token")
    .then(async (refused) => {
      try {
        await refused.callTool("whoami");
      } finally {
        await refused.close();
      }
    })
    .then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
  expect(error).toBeInstanceOf(HttpStatusError);
  expect((error as HttpStatusError).status).toBe(401);
  const challenge = (error as HttpStatusError).headers.get("www-authenticate");
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain('error="invalid_token"');
  expect(challenge).toContain('error_description="the token is not active"');
});

test("an inactive token is 401 invalid_token to the official SDK client", async () => {
  const statuses: [number, string | null][] = [];
  const transport = new SdkHttp(new URL(url), {
    requestInit: { headers: { Authorization: "Bearer revoked-token" } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push([response.status, response.headers.get("www-authenticate")]);
      return response;
    },
  });
  const client = new SdkClient({ name: "sdk", version: "1" });
  await expect(client.connect(transport)).rejects.toThrow(/the token is not active/);
  expect(statuses[0]![0]).toBe(401);
  expect(statuses[0]![1]).toContain('error="invalid_token"');
  await client.close();
});

test("an introspection endpoint that fails: 503 with Retry-After, logged once when it starts and once when it ends", async () => {
  introspectionDown = true;
  try {
    for (let i = 0; i < 10; i++) {
      const response = await post(url, initializeMessage(), { Authorization: "Bearer good-token" });
      expect([response.status, response.headers["retry-after"], response.headers["www-authenticate"]]).toEqual([
        503,
        "5",
        undefined,
      ]);
    }
  } finally {
    introspectionDown = false;
  }
  expect((await post(url, initializeMessage(), { Authorization: "Bearer good-token" })).status).toBe(200);
  await expect.poll(() => stderr).toMatch(/token verifier checks tokens again/);
  expect(stderr.match(/token verifier cannot check tokens: Error: introspection answered 500/g)).toHaveLength(1);
  expect(stderr.match(/token verifier checks tokens again .* 10 requests were answered 503/g)).toHaveLength(1);
  expect(stderr).not.toContain("good-token");
});
