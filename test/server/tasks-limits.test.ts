// What tasks cost the server, and how far one requestor may go:
// - a finished task holds nothing beyond the store's record, whatever its ttl
//   (its request's params are collectable: no timer keeps them);
// - unfinished tasks per requestor are bounded (2025-11-25
//   basic/utilities/tasks#resource-management: "Enforce limits on concurrent
//   tasks per requestor"); a request that must become a task is then refused
//   with an error, never silently run as a plain call (#task-support-and-handling:
//   an accepted task-augmented request "MUST return a CreateTaskResult").
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, test } from "vitest";
import { McpServer, MemoryTaskStore, type TasksOptions } from "../../runtime/server/index.js";
import { WireClient, sleep, type MetaOptions } from "./per-request-support.js";

const TASKS = "io.modelcontextprotocol/tasks";
const WITH_TASKS: MetaOptions = { capabilities: { extensions: { [TASKS]: {} } } };
const DAY = 86_400_000;

// A full collection on demand, to see what is still reachable (node's --expose-gc, turned on here).
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/** Whether `ref`'s object is collected within ~1 s of collections (pending jobs run in between). */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    await sleep(20);
    gc();
    if (ref.deref() === undefined) return true;
  }
  return false;
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))), { once: true });
  });

/** What the handlers were called with, weakly. */
let seen: WeakRef<object>[] = [];

function limitedServer(tasks: TasksOptions = {}): McpServer {
  seen = [];
  const server = new McpServer({ name: "limits", version: "1.0.0" }, { tasks: { pollIntervalMs: 20, ...tasks } });
  const work = async ({ ms = 0 }: { ms?: number; pad?: string }, context: { signal: AbortSignal }) => {
    await pause(ms, context.signal);
    return `worked ${ms} ms`;
  };
  const inputSchema = { type: "object", properties: { ms: { type: "number" }, pad: { type: "string" } } } as const;
  server.tool("work", { inputSchema, task: { support: "optional" } }, async (args, context) => {
    seen.push(new WeakRef(args));
    return work(args, context);
  });
  server.tool("must", { inputSchema, task: { support: "required" } }, work);
  server.tool("maybe-later", { inputSchema, task: { afterMs: 60_000 } }, async (args, context) => {
    seen.push(new WeakRef(args));
    return work(args, context);
  });
  server.tool("instant", { inputSchema, task: { support: "optional" } }, () => "at once");
  server.tool("ask-now", { task: { support: "optional" } }, async (_args, context) => {
    const answer = await context.elicit({
      message: "Sure?",
      requestedSchema: { type: "object", properties: { sure: { type: "boolean" } } },
    });
    return answer.content?.["sure"] === true ? "sure" : "unsure";
  });
  return server;
}

/** Polls tasks/get (bounded) until the task is in a terminal status. */
async function finished(client: WireClient, taskId: string, meta?: MetaOptions): Promise<Record<string, any>> {
  for (let i = 0; i < 100; i++) {
    const got = meta ? await client.call("tasks/get", { taskId }, meta) : await client.request("tasks/get", { taskId });
    if (got["error"]) throw new Error(`tasks/get ${taskId}: ${JSON.stringify(got["error"])}`);
    if (["completed", "failed", "cancelled"].includes(got["result"].status)) return got["result"];
    await sleep(20);
  }
  throw new Error(`task ${taskId} did not finish within 100 polls`);
}

async function handshake(server: McpServer): Promise<WireClient> {
  const client = await WireClient.connect(server, "2025-11-25");
  await client.initialize("2025-11-25");
  return client;
}

const augmented = (ms: number, ttl?: number) => ({
  name: "work",
  arguments: { ms },
  task: ttl === undefined ? {} : { ttl },
});

describe("a finished task holds nothing beyond the store's record", () => {
  test("2025-11-25, ttl of a day: once completed, its request's params are collectable; tasks/result still answers", async () => {
    const client = await handshake(limitedServer());
    const created = await client.request("tools/call", {
      name: "work",
      arguments: { ms: 10, pad: "x".repeat(100_000) },
      task: { ttl: DAY },
    });
    expect(created["result"].task).toMatchObject({ status: "working", ttl: DAY });
    const taskId = created["result"].task.taskId as string;
    expect(await finished(client, taskId)).toMatchObject({ status: "completed" });
    expect(await collected(seen[0]!)).toBe(true);
    const result = await client.request("tasks/result", { taskId });
    expect(result["result"]).toMatchObject({ content: [{ type: "text", text: "worked 10 ms" }] });
    expect(client.problems).toEqual([]);
  });

  test("the extension (the server's ttl, an hour): once completed, its request's params are collectable", async () => {
    const client = await WireClient.connect(limitedServer(), "2026-07-28", { extensions: ["tasks"] });
    const created = await client.call(
      "tools/call",
      { name: "work", arguments: { ms: 10, pad: "x".repeat(100_000) } },
      WITH_TASKS,
    );
    expect(created["result"]).toMatchObject({ resultType: "task", ttlMs: 3_600_000 });
    const done = await finished(client, created["result"].taskId, WITH_TASKS);
    expect(done).toMatchObject({ status: "completed", result: { content: [{ text: "worked 10 ms" }] } });
    expect(await collected(seen[0]!)).toBe(true);
    expect(client.problems).toEqual([]);
  });

  test("a call answered before its afterMs is collectable long before the turn it no longer needs", async () => {
    const client = await WireClient.connect(limitedServer(), "2026-07-28", { extensions: ["tasks"] });
    const quick = await client.call(
      "tools/call",
      { name: "maybe-later", arguments: { ms: 0, pad: "x".repeat(100_000) } },
      WITH_TASKS,
    );
    expect(quick["result"]).toMatchObject({ resultType: "complete", content: [{ text: "worked 0 ms" }] });
    expect(await collected(seen[0]!)).toBe(true);
  });
});

describe("2025-11-25: a task-augmented call always gets CreateTaskResult", () => {
  test("a tool that ends at once still becomes a task; its result comes through tasks/result", async () => {
    const client = await handshake(limitedServer());
    const created = await client.request("tools/call", { name: "instant", arguments: {}, task: {} });
    expect(created["result"]?.task).toMatchObject({ status: expect.stringMatching(/^(working|completed)$/) });
    const taskId = created["result"].task.taskId as string;
    const result = await client.request("tasks/result", { taskId });
    expect(result["result"]).toMatchObject({ content: [{ type: "text", text: "at once" }] });
    expect(client.problems).toEqual([]);
  });

  test("input asked before the handler's first await is a request tagged with the task, sent after CreateTaskResult", async () => {
    const client = await WireClient.connect(limitedServer(), "2025-11-25");
    await client.initialize("2025-11-25", { elicitation: {} });
    client.answer = () => ({ action: "accept", content: { sure: true } });
    const created = await client.request("tools/call", { name: "ask-now", arguments: {}, task: {} });
    const taskId = created["result"].task.taskId as string;
    const result = await client.request("tasks/result", { taskId });
    expect(result["result"]).toMatchObject({ content: [{ text: "sure" }] });
    const order = client.received.map((m) => m["method"] ?? (m["result"]?.task ? "CreateTaskResult" : "other"));
    expect(order.indexOf("CreateTaskResult")).toBeLessThan(order.indexOf("elicitation/create"));
    const asked = client.received.find((m) => m["method"] === "elicitation/create")!;
    expect(asked["params"]._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId } });
    expect(client.problems).toEqual([]);
  });
});

describe("unfinished tasks per requestor are bounded (tasks.maxTasksPerRequestor)", () => {
  test("2025-11-25: past the limit a task-augmented call is refused naming it; other sessions are unaffected; a finished task frees a slot", async () => {
    const server = limitedServer({ maxTasksPerRequestor: 2 });
    const a = await handshake(server);
    const b = await handshake(server);
    // A burst: all arrive before any becomes a task.
    const burst = await Promise.all([1, 2, 3, 4].map(() => a.request("tools/call", augmented(5_000))));
    const tasks = burst.filter((r) => r["result"]?.task);
    const refused = burst.filter((r) => r["error"]);
    expect(tasks).toHaveLength(2);
    expect(refused).toHaveLength(2);
    for (const r of refused)
      expect(r["error"]).toEqual({
        code: -32603,
        message: expect.stringContaining("already has 2 unfinished tasks, the limit (tasks.maxTasksPerRequestor)"),
        data: { maxTasksPerRequestor: 2 },
      });
    // Another session (another requestor) still gets its task.
    expect((await b.request("tools/call", augmented(5_000)))["result"].task.status).toBe("working");
    // A cancelled task is finished: its slot is A's again.
    const cancelled = await a.request("tasks/cancel", { taskId: tasks[0]!["result"].task.taskId });
    expect(cancelled["result"].status).toBe("cancelled");
    expect((await a.request("tools/call", augmented(5_000)))["result"].task.status).toBe("working");
    expect((await a.request("tools/call", augmented(5_000)))["error"]?.code).toBe(-32603);
    expect([...a.problems, ...b.problems]).toEqual([]);
    a.close();
    b.close();
  });

  test("2025-11-25: a store with no room refuses the task-augmented call instead of running it as a plain call", async () => {
    const server = limitedServer({ store: new MemoryTaskStore({ maxTasks: 1 }) });
    const a = await handshake(server);
    const b = await handshake(server);
    expect((await a.request("tools/call", augmented(5_000)))["result"].task.status).toBe("working");
    const refused = await b.request("tools/call", augmented(30));
    expect(refused["result"]).toBeUndefined();
    expect(refused["error"]).toEqual({
      code: -32603,
      message: "Server busy: cannot create the task: the task store holds 1 unfinished tasks, its limit",
    });
    expect([...a.problems, ...b.problems]).toEqual([]);
    a.close();
    b.close();
  });

  test("the extension: past the limit an optional tool is answered directly, a required one refused naming the limit", async () => {
    const client = await WireClient.connect(limitedServer({ maxTasksPerRequestor: 1 }), "2026-07-28", {
      extensions: ["tasks"],
    });
    const first = await client.call("tools/call", { name: "work", arguments: { ms: 5_000 } }, WITH_TASKS);
    expect(first["result"].resultType).toBe("task");
    // tasks.md#task-creation: the server decides, so this one is simply answered.
    const direct = await client.call("tools/call", { name: "work", arguments: { ms: 30 } }, WITH_TASKS);
    expect(direct["result"]).toMatchObject({ resultType: "complete", content: [{ text: "worked 30 ms" }] });
    // A tool that runs only as a task cannot be answered directly.
    const required = await client.call("tools/call", { name: "must", arguments: { ms: 30 } }, WITH_TASKS);
    expect(required["error"]).toMatchObject({ code: -32603, data: { maxTasksPerRequestor: 1 } });
    await client.call("tasks/cancel", { taskId: first["result"].taskId }, WITH_TASKS);
    const again = await client.call("tools/call", { name: "must", arguments: { ms: 30 } }, WITH_TASKS);
    expect(again["result"].resultType).toBe("task");
    expect(client.problems).toEqual([]);
  });

  test("the limit must be a positive integer", () => {
    expect(() =>
      new McpServer({ name: "x", version: "1" }, { tasks: { maxTasksPerRequestor: 0 } }).tool(
        "t",
        { task: {} },
        () => "",
      ),
    ).toThrow("tasks: maxTasksPerRequestor must be a positive integer, not 0");
  });
});
