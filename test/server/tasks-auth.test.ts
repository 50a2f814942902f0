// Tasks of the io.modelcontextprotocol/tasks extension bound to who created
// them (tasks.md#security-considerations, "Auth binding": authorization checks
// on each task-related request): over Streamable HTTP with bearer tokens
// minted here, a task is its creator's principal's; another principal asking
// for it by id gets what an unknown id gets, so the id is not confirmed.
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import type { webcrypto } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { jwtVerifier } from "../../runtime/auth/jwt.js";
import { McpServer } from "../../runtime/server/index.js";
import { serveHttp, type HttpServerHandle } from "../../runtime/transports/http.js";
import { post } from "./http-support.js";
import { withMeta } from "./per-request-support.js";

const RESOURCE = "https://mcp.example.com/mcp";
const ISSUER = "https://auth.example.com";
const TASKS = "io.modelcontextprotocol/tasks";
const WITH_TASKS = { capabilities: { extensions: { [TASKS]: {} } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let privateKey: webcrypto.CryptoKey;
let handle: HttpServerHandle;
let release: () => void = () => {};
const tokens: Record<string, string> = {};

async function mint(subject: string, clientId = "app"): Promise<string> {
  return new SignJWT({ client_id: clientId })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(privateKey);
}

/** One per-request POST as `who`; resolves with the JSON-RPC response. */
async function call(who: string, method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
  const name = typeof params["taskId"] === "string" ? params["taskId"] : String(params["name"] ?? "");
  const response = await post(
    handle.url,
    { jsonrpc: "2.0", id: 1, method, params: withMeta(params, WITH_TASKS) },
    {
      Authorization: `Bearer ${tokens[who]}`,
      "Mcp-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(name ? { "Mcp-Name": name } : {}),
    },
  );
  expect(response.status, response.body).toBeLessThan(500);
  return JSON.parse(response.body) as Record<string, any>;
}

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey;
  const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" }] };
  for (const who of ["alice", "bob"]) tokens[who] = await mint(who);
  tokens["alice-elsewhere"] = await mint("alice", "other-app");
  const server = new McpServer({ name: "tasks-auth", version: "1" }, { tasks: { pollIntervalMs: 20 } });
  // Runs until the test lets it finish, so that the task is unfinished while others poke at it.
  const gate = new Promise<void>((resolve) => (release = resolve));
  server.tool("secret", { task: { support: "optional" } }, async (_args, context) => {
    await Promise.race([gate, sleep(5_000)]);
    return `secret of ${context.authInfo?.subject}`;
  });
  handle = await serveHttp(server, {
    port: 0,
    auth: {
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks }),
    },
  });
});

afterAll(async () => {
  release();
  await handle?.close();
});

describe("extension tasks are bound to the principal that created them", () => {
  test("another principal's tasks/get, tasks/update and tasks/cancel get the unknown-id error; the creator's work goes on", async () => {
    const created = await call("alice", "tools/call", { name: "secret", arguments: {} });
    expect(created["result"]).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created["result"].taskId as string;

    // What an id nobody has gets: -32602 naming the id (tasks.md#protocol-errors).
    const unknownId = "A".repeat(22);
    const unknown = await call("bob", "tasks/get", { taskId: unknownId });
    expect(unknown["error"]).toEqual({
      code: -32602,
      message: `Task not found: ${unknownId}`,
      data: { taskId: unknownId },
    });
    const notFound = { code: -32602, message: `Task not found: ${taskId}`, data: { taskId } };
    // Bob, and Alice through another OAuth client (another principal), get exactly that.
    for (const who of ["bob", "alice-elsewhere"]) {
      expect((await call(who, "tasks/get", { taskId }))["error"]).toEqual(notFound);
      expect((await call(who, "tasks/update", { taskId, inputResponses: {} }))["error"]).toEqual(notFound);
      expect((await call(who, "tasks/cancel", { taskId }))["error"]).toEqual(notFound);
    }
    // Bob's cancel did nothing: the task still runs, and ends with Alice's result for Alice.
    expect((await call("alice", "tasks/get", { taskId }))["result"]).toMatchObject({ taskId, status: "working" });
    release();
    let task: Record<string, any> = {};
    for (let i = 0; i < 100 && task["status"] !== "completed"; i++, await sleep(20))
      task = (await call("alice", "tasks/get", { taskId }))["result"];
    expect(task).toMatchObject({ status: "completed", result: { content: [{ text: "secret of alice" }] } });
    // Finished, it is still not Bob's.
    expect((await call("bob", "tasks/get", { taskId }))["error"]).toEqual(notFound);
  });
});
