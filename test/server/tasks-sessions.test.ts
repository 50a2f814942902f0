// 2025-11-25 tasks and who they belong to (basic/utilities/tasks#task-isolation-and-access-control).
// A handshake session's task is the session's: once the session closes no one
// can reach it, so its work stops and it is marked cancelled. A stateless POST's
// session ends with the POST, so its task is the principal's instead (every
// client's together without authorization, whom tasks/list then shows nothing).
import { afterEach, describe, expect, test } from "vitest";
import { McpServer, MemoryTaskStore, type AuthInfo } from "../../runtime/server/index.js";
import { serveHttp, type HttpOptions, type HttpServerHandle } from "../../runtime/transports/http.js";
import { openSession, post, raw } from "./http-support.js";

const VERSION = { "MCP-Protocol-Version": "2025-11-25" };
const handles: HttpServerHandle[] = [];
const releases: (() => void)[] = [];
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  for (const handle of handles.splice(0)) await handle.close();
});

async function until(test: () => boolean | Promise<boolean>, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A server whose `work` tool (a task when asked) runs until the test releases it, recording why it stopped. */
async function start(options: HttpOptions) {
  const store = new MemoryTaskStore({ maxTasks: 100 });
  const server = new McpServer({ name: "tasks-sessions", version: "1" }, { tasks: { store, pollIntervalMs: 20 } });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  releases.push(release);
  const stopped: string[] = [];
  let started = 0;
  server.tool("work", { task: { support: "optional" } }, async (_args, context) => {
    started++;
    await new Promise<void>((resolve, reject) => {
      void released.then(resolve);
      context.signal.addEventListener("abort", () => {
        stopped.push(String(context.signal.reason));
        reject(new Error("stopped"));
      });
    });
    return `done for ${context.authInfo?.subject ?? "anyone"}`;
  });
  const handle = await serveHttp(server, options);
  handles.push(handle);
  return { url: handle.url, store, release, stopped, started: () => started };
}

async function rpc(url: string, id: number, method: string, params: unknown, headers: Record<string, string> = {}) {
  const response = await post(url, { jsonrpc: "2.0", id, method, params }, { ...VERSION, ...headers });
  expect(response.status, response.body).toBe(200);
  return JSON.parse(response.body) as Record<string, any>;
}

const callAsTask = { name: "work", arguments: {}, task: { ttl: 60_000 } };

describe("stateless Streamable HTTP (sessions: false)", () => {
  test("a task made in one POST is found by the next ones; tasks/list shows an unidentified requestor none", async () => {
    const { url, release } = await start({ sessions: false });
    const created = await rpc(url, 1, "tools/call", callAsTask);
    const { taskId } = created["result"]["task"];
    expect(created["result"]["task"]["status"]).toBe("working");
    const got = await rpc(url, 2, "tasks/get", { taskId });
    expect(got["result"]).toMatchObject({ taskId, status: "working" });
    expect((await rpc(url, 3, "tasks/list", {}))["result"]["tasks"]).toEqual([]);
    release();
    const result = await rpc(url, 4, "tasks/result", { taskId });
    expect(result["result"]["content"]).toEqual([{ type: "text", text: "done for anyone" }]);
  });

  test("with authorization, the task is its principal's: another gets 'Task not found'; its own lists it", async () => {
    const principal = (subject: string): AuthInfo => ({
      subject,
      clientId: "app",
      issuer: "https://as.example",
      scopes: [],
      claims: {},
    });
    const { url, release } = await start({
      sessions: false,
      auth: {
        resource: "https://mcp.example/mcp",
        authorizationServers: ["https://as.example"],
        verifier: async (token) => principal(token),
      },
    });
    const alice = { Authorization: "Bearer alice" };
    const bob = { Authorization: "Bearer bob" };
    const { taskId } = (await rpc(url, 1, "tools/call", callAsTask, alice))["result"]["task"];
    expect((await rpc(url, 2, "tasks/get", { taskId }, bob))["error"]).toEqual({
      code: -32602,
      message: `Task not found: ${taskId}`,
      data: { taskId },
    });
    expect((await rpc(url, 3, "tasks/list", {}, bob))["result"]["tasks"]).toEqual([]);
    expect((await rpc(url, 4, "tasks/list", {}, alice))["result"]["tasks"].map((t: any) => t.taskId)).toEqual([taskId]);
    release();
    const result = await rpc(url, 5, "tasks/result", { taskId }, alice);
    expect(result["result"]["content"]).toEqual([{ type: "text", text: "done for alice" }]);
  });
});

describe("a handshake session", () => {
  test("its tasks stop and are marked cancelled when it closes (DELETE); another session's run on", async () => {
    const { url, store, stopped, started } = await start({});
    const closing = await openSession(url);
    const staying = await openSession(url);
    const mine = (await rpc(url, 1, "tools/call", callAsTask, { "Mcp-Session-Id": closing }))["result"]["task"];
    const theirs = (await rpc(url, 1, "tools/call", callAsTask, { "Mcp-Session-Id": staying }))["result"]["task"];
    await until(() => started() === 2, "both tasks to start");

    expect((await raw("DELETE", url, { headers: { "Mcp-Session-Id": closing } })).status).toBe(204);

    await until(() => stopped.length === 1, "the closed session's task to stop");
    expect(stopped).toEqual(["the session that created the task closed"]);
    await until(async () => (await store.get(mine.taskId))?.status === "cancelled", "the task marked cancelled");
    expect((await store.get(mine.taskId))?.statusMessage).toBe("The session that created the task closed");
    expect((await store.get(theirs.taskId))?.status).toBe("working");
    const stillThere = await rpc(url, 2, "tasks/get", { taskId: theirs.taskId }, { "Mcp-Session-Id": staying });
    expect(stillThere["result"]["status"]).toBe("working");
  });
});
