// docs/deploying.md, run as written: its server file (the block named
// "server") started twice with the environment its shell block names, a
// local authorization server publishing its JWKS over HTTP, a real
// redis-server, and the official SDK clients with bearer tokens, through a
// real nginx running the page's nginx block (test/fixtures/nginx.ts), its
// addresses those of the processes started here.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import type { webcrypto } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { pageProcesses, startPageNginx } from "../fixtures/nginx.js";
import { startRedis, type RedisServer } from "../fixtures/redis-server.js";
import { post } from "../server/http-support.js";
import { snippet, workFolder } from "../docs/pages.js";

const PAGE = "docs/deploying.md";

const RESOURCE = "https://mcp.example.com/mcp";
let authServer: Server;
let issuer: string;
let privateKey: webcrypto.CryptoKey;
let redis: RedisServer;
const children: ChildProcess[] = [];
const urls: string[] = [];
/** The loopback address of each route's process. */
const backends: Record<string, string> = {};

async function mint(subject: string, scope: string): Promise<string> {
  return new SignJWT({ scope, client_id: "deploy-test" })
    .setProtectedHeader({ alg: "ES256", kid: "deploy" })
    .setIssuer(issuer)
    .setAudience(RESOURCE)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(privateKey);
}

beforeAll(async () => {
  // The authorization server's part: its key set, published over HTTP.
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey;
  const jwks = JSON.stringify({
    keys: [{ ...(await exportJWK(pair.publicKey)), kid: "deploy", alg: "ES256", use: "sig" }],
  });
  authServer = createServer((incoming, outgoing) => {
    if (incoming.url === "/.well-known/jwks.json")
      outgoing.writeHead(200, { "Content-Type": "application/json" }).end(jwks);
    else outgoing.writeHead(404).end();
  });
  await new Promise<void>((resolve) => authServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(authServer.address() as { port: number }).port}`;
  redis = await startRedis();

  // The server file, verbatim, inside the package (so that "mcpgen/..." resolves to this build and
  // "redis"/"jose" to its node_modules).
  const serverFile = snippet(PAGE, "server");
  expect(serverFile).toMatch(/^\/\/ server\.mjs\n/);
  const workdir = workFolder("deploying");
  writeFileSync(join(workdir, "server.mjs"), serverFile);

  // The shell block: the variables it exports, and one process per `node server.mjs` line.
  const shell = snippet(PAGE, "processes");
  const exported = [...shell.matchAll(/\b([A-Z_]+)=\S+/g)].map((m) => m[1]!);
  const starts = shell.split("\n").filter((line) => line.includes("node server.mjs"));
  expect(starts).toHaveLength(2);
  const local: Record<string, string> = {
    REDIS_URL: redis.url,
    ISSUER: issuer,
    JWKS_URL: `${issuer}/.well-known/jwks.json`,
    RESOURCE,
    HOST: "127.0.0.1",
    PORT: "0",
  };
  for (const name of exported) expect(Object.keys(local).concat("ROUTE")).toContain(name);
  for (const line of starts) {
    const route = /ROUTE=(\S+)/.exec(line)![1]!;
    const port = await freePort();
    const env = { ...process.env, ...local, PORT: String(port), ROUTE: route };
    const child = spawn(process.execPath, ["server.mjs"], { cwd: workdir, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const url = `http://127.0.0.1:${port}/mcp`;
    await waitForServer(url, () => stderr, child);
    urls.push(url);
    backends[route] = `127.0.0.1:${port}`;
  }
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
  }
  await redis?.stop();
  await new Promise((resolve) => authServer?.close(resolve));
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function waitForServer(url: string, stderr: () => string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`server.mjs exited: ${stderr()}`);
    const ok = await fetch(url.replace(/\/mcp$/, "/.well-known/oauth-protected-resource/mcp")).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server.mjs did not start: ${stderr()}`);
}

test("auth, two processes and Redis as the page deploys them", async () => {
  const lb = await startPageNginx(backends);
  try {
    // No token: 401 naming the metadata.
    const anonymous = await post(lb.url, { jsonrpc: "2.0", id: 1, method: "ping" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers["www-authenticate"]).toContain(
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );

    // The v2 client at 2026-07-28: every request anywhere, both processes answer.
    const reader = await mint("ada", "notes:read");
    const v2 = new ClientV2({ name: "v2", version: "1" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" }, probe: { timeoutMs: 5_000 } },
    } as never);
    await v2.connect(new HttpV2(new URL(lb.url), { authProvider: { token: async () => reader } }));
    const routes = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const result = await v2.callTool({ name: "whoami", arguments: {} });
      routes.add((result.content as { text: string }[])[0]!.text);
    }
    expect(routes).toEqual(new Set(["ada via a", "ada via b"]));
    // Without notes:export, the export is refused with 403.
    await expect(v2.callTool({ name: "export_notes", arguments: {} })).rejects.toThrow(/notes:export/);
    await v2.close();

    // A task of the export: created through one process, polled to completion through the other.
    const exporter = await mint("ada", "notes:read notes:export");
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const perRequest = (url: string, method: string, params: Record<string, unknown>, name: string) =>
      post(
        url,
        { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } },
        {
          Authorization: `Bearer ${exporter}`,
          "MCP-Protocol-Version": "2026-07-28",
          "Mcp-Method": method,
          "Mcp-Name": name,
        },
      ).then((r) => JSON.parse(r.body) as Record<string, any>);
    const created = await perRequest(urls[0]!, "tools/call", { name: "export_notes", arguments: {} }, "export_notes");
    expect(created["result"].resultType).toBe("task");
    const taskId = created["result"].taskId as string;
    let state: Record<string, any> = {};
    for (let i = 0; i < 100 && state["status"] !== "completed"; i++) {
      state = (await perRequest(urls[1]!, "tasks/get", { taskId }, taskId))["result"];
      if (state["status"] !== "completed") await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(state["result"].content[0].text).toBe("exported for ada");

    // The v1 client's 2025-11-25 session, through the balancer: every request on its process.
    const v1 = new Client({ name: "v1", version: "1" });
    await v1.connect(
      new StreamableHTTPClientTransport(new URL(lb.url), {
        requestInit: { headers: { Authorization: `Bearer ${reader}` } },
      }),
    );
    const seen = new Set<string>();
    for (let i = 0; i < 4; i++)
      seen.add(((await v1.callTool({ name: "whoami", arguments: {} })).content as { text: string }[])[0]!.text);
    expect(seen.size).toBe(1);
    await v1.close();
  } finally {
    await lb.stop();
  }
});

test("the nginx block routes each process's session prefix to that process, the rest to both", () => {
  const processes = pageProcesses();
  const nginx = snippet(PAGE, "balancer");
  const upstreams = new Map(
    [...nginx.matchAll(/upstream (\S+) \{([^}]*)\}/g)].map((m) => [
      m[1]!,
      [...m[2]!.matchAll(/server (\S+);/g)].map((s) => s[1]!),
    ]),
  );
  const map = /map "\$http_mcp_session_id\$arg_sessionId" \$mcp_backend \{([^}]*)\}/.exec(nginx)![1]!;
  const routes = [...map.matchAll(/~\^(\w+)\\\. (\S+);/g)].map((m) => ({ route: m[1]!, upstream: m[2]! }));
  expect(routes.map((r) => r.route)).toEqual(processes.map((p) => p.route));
  for (const { route, upstream } of routes)
    expect(upstreams.get(upstream)).toEqual([processes.find((p) => p.route === route)!.address]);
  const fallback = /default (\S+);/.exec(map)![1]!;
  expect(upstreams.get(fallback)).toEqual(processes.map((p) => p.address));
  expect(nginx).toContain("proxy_pass http://$mcp_backend;");
});
