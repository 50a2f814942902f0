// Tasks end to end: one tool handler served as a plain call, as a task of the
// io.modelcontextprotocol/tasks extension (per-request clients, raw messages
// checked with the extension's generated tables), and as a 2025-11-25 task
// (the official SDK v1 client's experimental tasks API over an in-memory
// transport). The store's bounds and expiry, visibility, cancellation, input
// inside a task, and a task outliving its HTTP response.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  TaskStatusNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, test } from "vitest";
import { McpServer, MemoryTaskStore, ProtocolError, type RequestContext } from "../../runtime/server/index.js";
import { serveHttp, type HttpServerHandle } from "../../runtime/transports/http.js";
import { WireClient, withMeta, type MetaOptions } from "./per-request-support.js";

const TASKS = "io.modelcontextprotocol/tasks";
const WITH_TASKS: MetaOptions = { capabilities: { elicitation: {}, extensions: { [TASKS]: {} } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))), { once: true });
  });

/** What each test's handlers saw. */
let aborted: string[] = [];

function taskServer(options: { maxTasks?: number; ttlMs?: number } = {}): McpServer {
  aborted = [];
  const server = new McpServer(
    { name: "tasks", version: "1.0.0" },
    { tasks: { store: new MemoryTaskStore({ maxTasks: options.maxTasks ?? 100 }), pollIntervalMs: 50 } },
  );
  server.tool(
    "work",
    {
      inputSchema: { type: "object", properties: { ms: { type: "number" }, fail: { type: "string" } } },
      task: { support: "optional", ...(options.ttlMs ? { ttlMs: options.ttlMs } : {}) },
    },
    async ({ ms = 0, fail }, context) => {
      context.signal.addEventListener("abort", () => aborted.push(String(context.signal.reason)));
      if (ms > 0) await pause(ms / 2, context.signal);
      context.progress(1, 2, "halfway");
      if (ms > 0) await pause(ms / 2, context.signal);
      if (fail === "protocol") throw new ProtocolError(-32603, "the work broke");
      if (fail === "tool") return { content: [{ type: "text", text: "bad input" }], isError: true };
      return `worked ${ms} ms`;
    },
  );
  server.tool("must", { task: { support: "required" } }, async (_args, context) => {
    await pause(30, context.signal);
    return "done as a task";
  });
  server.tool("confirm", { task: { support: "optional" } }, async (_args, context: RequestContext) => {
    await pause(10, context.signal);
    const answer = await context.elicit({
      message: "Sure?",
      requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } },
    });
    return answer.content?.["confirm"] === true ? "confirmed" : "declined";
  });
  server.tool("ask-first", { task: { support: "required" } }, async (_args, context: RequestContext) => {
    const answer = await context.elicit({
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    await pause(30, context.signal);
    return `Hello, ${String(answer.content?.["name"])}`;
  });
  return server;
}

async function until(client: WireClient, taskId: string, done: (task: Record<string, any>) => boolean) {
  for (let i = 0; i < 100; i++) {
    const got = await client.call("tasks/get", { taskId }, WITH_TASKS);
    if (got["error"]) return got;
    if (done(got["result"])) return got;
    await sleep(20);
  }
  throw new Error(`task ${taskId} did not reach the state asked for`);
}

const terminal = (task: Record<string, any>) => ["completed", "failed", "cancelled"].includes(task["status"]);

describe("the tasks extension (per-request revisions)", () => {
  test("a client without the extension gets a plain result; a required tool refuses it with -32021 and the capability", async () => {
    const client = await WireClient.connect(taskServer(), "2026-07-28", { extensions: ["tasks"] });
    const plain = await client.call("tools/call", { name: "work", arguments: { ms: 50 } });
    expect(plain["result"]).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "worked 50 ms" }],
    });
    const refused = await client.call("tools/call", { name: "must", arguments: {} });
    expect(refused["error"]).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    // The extension's methods refuse it too, before looking the task up.
    const get = await client.call("tasks/get", { taskId: "anything" });
    expect(get["error"]?.code).toBe(-32021);
    expect(client.problems).toEqual([]);
  });

  test("discover declares the extension; a long call becomes a task whose tasks/get inlines the result", async () => {
    const client = await WireClient.connect(taskServer(), "2026-07-28", { extensions: ["tasks"] });
    const discover = await client.call("server/discover", {}, WITH_TASKS);
    expect(discover["result"].capabilities.extensions).toEqual({ [TASKS]: {} });
    const created = await client.call(
      "tools/call",
      { name: "work", arguments: { ms: 60 } },
      { ...WITH_TASKS, progressToken: "p-1" },
    );
    expect(created["result"]).toMatchObject({
      resultType: "task",
      status: "working",
      ttlMs: 3_600_000,
      pollIntervalMs: 50,
    });
    expect(created["result"].taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const taskId = created["result"].taskId;
    const right = await client.call("tasks/get", { taskId }, WITH_TASKS);
    expect(right["result"]).toMatchObject({ resultType: "complete", taskId, status: "working" });
    const done = await until(client, taskId, terminal);
    expect(done["result"]).toMatchObject({
      resultType: "complete",
      status: "completed",
      result: { resultType: "complete", content: [{ type: "text", text: "worked 60 ms" }] },
    });
    // tasks.md: no progress on tasks (the handler reported some after the turn).
    expect(client.received.filter((m) => m["method"] === "notifications/progress")).toEqual([]);
    // A call that ends at once is answered directly.
    const quick = await client.call("tools/call", { name: "work", arguments: {} }, WITH_TASKS);
    expect(quick["result"]).toMatchObject({ resultType: "complete", content: [{ text: "worked 0 ms" }] });
    expect(client.problems).toEqual([]);
  });

  test("a tool error completes the task (isError); a JSON-RPC error fails it with the error", async () => {
    const client = await WireClient.connect(taskServer(), "2026-07-28", { extensions: ["tasks"] });
    const tool = await client.call("tools/call", { name: "work", arguments: { ms: 20, fail: "tool" } }, WITH_TASKS);
    const toolDone = await until(client, tool["result"].taskId, terminal);
    expect(toolDone["result"]).toMatchObject({ status: "completed", result: { isError: true } });
    const protocol = await client.call(
      "tools/call",
      { name: "work", arguments: { ms: 20, fail: "protocol" } },
      WITH_TASKS,
    );
    const failed = await until(client, protocol["result"].taskId, terminal);
    expect(failed["result"]).toMatchObject({ status: "failed", error: { code: -32603, message: "the work broke" } });
    expect(failed["result"].result).toBeUndefined();
    expect(client.problems).toEqual([]);
  });

  test("input inside a task: input_required with inputRequests; unknown keys are ignored; the answer resumes it", async () => {
    const client = await WireClient.connect(taskServer(), "2026-07-28", { extensions: ["tasks"] });
    const created = await client.call("tools/call", { name: "confirm", arguments: {} }, WITH_TASKS);
    const taskId = created["result"].taskId;
    const waiting = await until(client, taskId, (t) => t["status"] === "input_required");
    const keys = Object.keys(waiting["result"].inputRequests);
    expect(keys).toEqual(["elicitation/create#1"]);
    expect(waiting["result"].inputRequests[keys[0]!]).toMatchObject({ method: "elicitation/create" });
    const ignored = await client.call(
      "tasks/update",
      { taskId, inputResponses: { "no-such-key": { ignored: true } } },
      WITH_TASKS,
    );
    expect(ignored["result"]).toEqual({ resultType: "complete", _meta: expect.any(Object) });
    // A wrong answer to a real key is no answer: the task still waits.
    await client.call("tasks/update", { taskId, inputResponses: { [keys[0]!]: { nonsense: 1 } } }, WITH_TASKS);
    expect((await client.call("tasks/get", { taskId }, WITH_TASKS))["result"].status).toBe("input_required");
    await client.call(
      "tasks/update",
      { taskId, inputResponses: { [keys[0]!]: { action: "accept", content: { confirm: true } } } },
      WITH_TASKS,
    );
    const done = await until(client, taskId, terminal);
    expect(done["result"]).toMatchObject({ status: "completed", result: { content: [{ text: "confirmed" }] } });
    expect(done["result"].inputRequests).toBeUndefined();
    expect(client.problems).toEqual([]);
  });

  test("multi round-trip input before the turn is asked on the request; the retry becomes the task", async () => {
    const client = await WireClient.connect(taskServer(), "2026-07-28", { extensions: ["tasks"] });
    const first = await client.call("tools/call", { name: "ask-first", arguments: {} }, WITH_TASKS);
    expect(first["result"]).toMatchObject({ resultType: "input_required" });
    expect(first["result"].taskId).toBeUndefined();
    const [key] = Object.keys(first["result"].inputRequests);
    const second = await client.call(
      "tools/call",
      {
        name: "ask-first",
        arguments: {},
        inputResponses: { [key!]: { action: "accept", content: { name: "Ada" } } },
        requestState: first["result"].requestState,
      },
      WITH_TASKS,
    );
    expect(second["result"]).toMatchObject({ resultType: "task" });
    expect(second["result"].requestState).toBeUndefined();
    const done = await until(client, second["result"].taskId, terminal);
    expect(done["result"].result.content[0].text).toBe("Hello, Ada");
    expect(client.problems).toEqual([]);
  });

  test("tasks/cancel aborts the handler and ends the task cancelled; cancelling again is acknowledged", async () => {
    const client = await WireClient.connect(taskServer(), "2026-07-28", { extensions: ["tasks"] });
    const created = await client.call("tools/call", { name: "work", arguments: { ms: 60_000 } }, WITH_TASKS);
    const taskId = created["result"].taskId;
    const ack = await client.call("tasks/cancel", { taskId }, WITH_TASKS);
    expect(Object.keys(ack["result"]).sort()).toEqual(["_meta", "resultType"]);
    const after = await client.call("tasks/get", { taskId }, WITH_TASKS);
    expect(after["result"].status).toBe("cancelled");
    expect(aborted).toEqual(["the task was cancelled (tasks/cancel)"]);
    const again = await client.call("tasks/cancel", { taskId }, WITH_TASKS);
    expect(again["result"].resultType).toBe("complete");
    const unknown = await client.call("tasks/get", { taskId: "not-a-task" }, WITH_TASKS);
    expect(unknown["error"]?.code).toBe(-32602);
    expect(client.problems).toEqual([]);
  });

  test("subscriptions/listen acknowledges a task id only to the principal whose task it is (tasks.md: auth binding)", async () => {
    const server = taskServer();
    const session = server.connect(() => {});
    await new Promise((resolve) => setTimeout(resolve, 200)); // the extension's tables load on first use
    const sent: Record<string, any>[] = [];
    const as = (subject: string, id: string, method: string, params: Record<string, unknown>) =>
      new Promise<Record<string, any>>((resolve) => {
        const channel = {
          singleRequest: true,
          authorization: { info: { subject, scopes: [], claims: {} }, missing: () => [] },
          reply: (json: string) => resolve(JSON.parse(json)),
          send: (json: string) => sent.push(JSON.parse(json)),
          onClose: () => {},
        };
        session.receiveMessage({ jsonrpc: "2.0", id, method, params: withMeta(params, WITH_TASKS) }, channel as never);
      });
    const created = await as("alice", "c", "tools/call", { name: "work", arguments: { ms: 60_000 } });
    const taskId = created["result"].taskId as string;
    for (const [who, expected] of [
      ["bob", []],
      ["alice", [taskId]],
    ] as const) {
      void as(who, `listen-${who}`, "subscriptions/listen", { notifications: { taskIds: [taskId] } });
      for (
        let i = 0;
        i < 100 &&
        !sent.some((m) => m["params"]?._meta?.["io.modelcontextprotocol/subscriptionId"] === `listen-${who}`);
        i++
      )
        await new Promise((resolve) => setTimeout(resolve, 10));
      const ack = sent.find((m) => m["params"]?._meta?.["io.modelcontextprotocol/subscriptionId"] === `listen-${who}`);
      expect(ack?.["method"], who).toBe("notifications/subscriptions/acknowledged");
      expect(ack!["params"].notifications.taskIds ?? [], who).toEqual(expected);
    }
    session.close();
  });

  test("subscriptions/listen with taskIds: acknowledged for running tasks, then notifications/tasks with the DetailedTask", async () => {
    const client = await WireClient.connect(taskServer(), "2026-07-28", { extensions: ["tasks"] });
    const created = await client.call("tools/call", { name: "work", arguments: { ms: 80 } }, WITH_TASKS);
    const taskId = created["result"].taskId as string;
    const acknowledged = client.next((m) => m["method"] === "notifications/subscriptions/acknowledged");
    const told = client.next((m) => m["method"] === "notifications/tasks");
    void client.call("subscriptions/listen", { notifications: { taskIds: [taskId, "not-a-task"] } }, WITH_TASKS, {
      id: "listen-1",
    });
    expect((await acknowledged)["params"].notifications).toEqual({ taskIds: [taskId] });
    const notification = await told;
    expect(notification["params"]).toMatchObject({
      taskId,
      status: "completed",
      result: { content: [{ text: "worked 80 ms" }] },
      _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" },
    });
    expect(notification["params"].resultType).toBeUndefined();
    // Asking for task notifications without the extension is -32021 naming it (tasks.md#task-status-notifications).
    const refused = await client.call("subscriptions/listen", { notifications: { taskIds: [taskId] } });
    expect(refused["error"]).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    expect(client.problems).toEqual([]);
  });

  test("expiry: past its ttl a task is gone (-32602) and its work is stopped", async () => {
    const client = await WireClient.connect(taskServer({ ttlMs: 80 }), "2026-07-28", { extensions: ["tasks"] });
    const created = await client.call("tools/call", { name: "work", arguments: { ms: 60_000 } }, WITH_TASKS);
    expect(created["result"].ttlMs).toBe(80);
    await sleep(150);
    const gone = await client.call("tasks/get", { taskId: created["result"].taskId }, WITH_TASKS);
    expect(gone["error"]?.code).toBe(-32602);
    expect(aborted).toEqual(["the task's ttl elapsed"]);
  });

  test("the store is bounded: when every slot holds unfinished work, a call runs to the end instead", async () => {
    const client = await WireClient.connect(taskServer({ maxTasks: 1 }), "2026-07-28", { extensions: ["tasks"] });
    const first = await client.call("tools/call", { name: "work", arguments: { ms: 60_000 } }, WITH_TASKS);
    expect(first["result"].resultType).toBe("task");
    const second = await client.call("tools/call", { name: "work", arguments: { ms: 30 } }, WITH_TASKS);
    expect(second["result"]).toMatchObject({ resultType: "complete", content: [{ text: "worked 30 ms" }] });
    await client.call("tasks/cancel", { taskId: first["result"].taskId }, WITH_TASKS);
    // A finished task makes room.
    const third = await client.call("tools/call", { name: "work", arguments: { ms: 30 } }, WITH_TASKS);
    expect(third["result"].resultType).toBe("task");
  });
});

describe("afterMs: how long a call runs before it turns into a task", () => {
  test("a call that ends sooner is answered directly; one still running then becomes a task", async () => {
    const server = new McpServer({ name: "after", version: "1.0.0" });
    server.tool(
      "maybe-long",
      { inputSchema: { type: "object", properties: { ms: { type: "number" } } }, task: { afterMs: 150 } },
      async ({ ms = 0 }) => {
        await sleep(ms);
        return `slept ${ms}`;
      },
    );
    const client = await WireClient.connect(server, "2026-07-28", { extensions: ["tasks"] });
    const quick = await client.call("tools/call", { name: "maybe-long", arguments: { ms: 30 } }, WITH_TASKS);
    expect(quick["result"]).toMatchObject({ resultType: "complete", content: [{ text: "slept 30" }] });
    const long = await client.call("tools/call", { name: "maybe-long", arguments: { ms: 400 } }, WITH_TASKS);
    expect(long["result"].resultType).toBe("task");
    const done = await until(client, long["result"].taskId, terminal);
    expect(done["result"].result.content[0].text).toBe("slept 400");
  });
});

describe("MemoryTaskStore", () => {
  const state = (taskId: string, now: number, ttlMs: number | null = 1000) => ({
    taskId,
    owner: "",
    status: "working" as const,
    createdAt: new Date(now).toISOString(),
    lastUpdatedAt: new Date(now).toISOString(),
    ttlMs,
  });

  test("a terminal task never changes; updates stamp lastUpdatedAt and drop fields set to undefined", async () => {
    let now = Date.parse("2026-11-23T10:00:00Z");
    const store = new MemoryTaskStore({ now: () => now });
    await store.create({ ...state("a", now), inputRequests: { k: { method: "roots/list" } } });
    now += 5;
    const working = await store.update("a", { status: "working", inputRequests: undefined });
    expect(working).toMatchObject({ status: "working", lastUpdatedAt: new Date(now).toISOString() });
    expect(working && "inputRequests" in working).toBe(false);
    await store.update("a", { status: "completed", result: "{}" });
    const after = await store.update("a", { status: "cancelled" });
    expect(after?.status).toBe("completed");
  });

  test("expires by ttl (null never), and when full makes room from finished tasks only", async () => {
    let now = Date.parse("2026-11-23T10:00:00Z");
    const store = new MemoryTaskStore({ maxTasks: 2, now: () => now });
    await store.create(state("short", now, 100));
    await store.create(state("forever", now, null));
    now += 101;
    expect(await store.get("short")).toBeUndefined();
    expect(await store.get("forever")).toBeDefined();
    await store.create(state("b", now));
    await expect(store.create(state("c", now))).rejects.toThrow("the task store holds 2 unfinished tasks, its limit");
    await store.update("forever", { status: "completed", result: "{}" });
    await store.create(state("c", now));
    expect(await store.get("forever")).toBeUndefined();
    expect(store.size).toBe(2);
  });
});

describe("a task outlives its HTTP response", () => {
  let handle: HttpServerHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  test("the POST that created it is closed; the work goes on and another POST reads the result", async () => {
    handle = await serveHttp(taskServer(), { port: 0 });
    const post = async (method: string, params: Record<string, unknown>, name: string) => {
      const response = await fetch(handle!.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          "mcp-name": name,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: withMeta(params, WITH_TASKS) }),
      });
      return (await response.json()) as Record<string, any>;
    };
    const created = await post("tools/call", { name: "work", arguments: { ms: 150 } }, "work");
    const taskId = created["result"].taskId as string;
    expect(created["result"].resultType).toBe("task");
    // Polled as a client would (a fixed sleep fails on a loaded machine), within a bound.
    let done = await post("tasks/get", { taskId }, taskId);
    for (const deadline = Date.now() + 5000; done["result"]?.status === "working" && Date.now() < deadline; ) {
      await sleep(50);
      done = await post("tasks/get", { taskId }, taskId);
    }
    expect(done["result"]).toMatchObject({ status: "completed", result: { content: [{ text: "worked 150 ms" }] } });
    expect(aborted).toEqual([]);
  });
});

describe("2025-11-25 tasks with the official SDK v1 client (experimental tasks API)", () => {
  async function sdkClient(server: McpServer) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = server.connect((json) => void serverSide.send(JSON.parse(json)));
    serverSide.onmessage = (message) => void session.receiveMessage(message);
    await serverSide.start();
    const client = new Client(
      { name: "sdk-v1", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} }, tasks: { list: {}, cancel: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { confirm: true } }));
    const statuses: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => {
      statuses.push(notification.params.status);
    });
    await client.connect(clientSide);
    return Object.assign(client, { statuses });
  }

  test("the client sees taskSupport, asks for a task, polls it and gets the result through tasks/result", async () => {
    const server = taskServer();
    const client = await sdkClient(server);
    expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, list: {}, requests: { tools: { call: {} } } });
    const tools = await client.listTools();
    expect(tools.tools.find((t) => t.name === "must")?.execution).toEqual({ taskSupport: "required" });
    const kinds: string[] = [];
    const progress: unknown[] = [];
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: "work", arguments: { ms: 80 } },
      CallToolResultSchema,
      { task: { ttl: 60_000 }, onprogress: (p) => void progress.push(p) },
    )) {
      kinds.push(message.type);
      if (message.type === "taskCreated") expect(message.task.ttl).toBe(60_000);
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(kinds[0]).toBe("taskCreated");
    expect(kinds.at(-1)).toBe("result");
    expect(result).toMatchObject({ content: [{ type: "text", text: "worked 80 ms" }] });
    // Progress on the request's token went on after the task was created (basic/utilities/progress).
    expect(progress).toEqual([{ progress: 1, total: 2, message: "halfway" }]);
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.status)).toEqual(["completed"]);
    // notifications/tasks/status (#task-status-notification) told it of the change.
    expect(client.statuses).toEqual(["completed"]);
    await client.close();
  });

  test("a required tool without a task is -32601; input goes to the client as a request tagged with the task", async () => {
    const server = taskServer();
    const client = await sdkClient(server);
    await expect(client.callTool({ name: "must", arguments: {} })).rejects.toMatchObject({ code: -32601 });
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: "confirm", arguments: {} },
      CallToolResultSchema,
      {
        task: {},
      },
    )) {
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(result).toMatchObject({ content: [{ text: "confirmed" }] });
    expect(client.statuses).toEqual(["input_required", "working", "completed"]);
    await client.close();
  });

  test("cancel: the task ends cancelled; cancelling a finished task is -32602; another session cannot see it", async () => {
    const server = taskServer();
    const client = await sdkClient(server);
    const other = await sdkClient(server);
    let taskId = "";
    for await (const message of client.experimental.tasks.callToolStream(
      { name: "work", arguments: { ms: 60_000 } },
      CallToolResultSchema,
      { task: {} },
    )) {
      if (message.type === "taskCreated") {
        taskId = message.task.taskId;
        break;
      }
    }
    await expect(other.experimental.tasks.getTask(taskId)).rejects.toMatchObject({ code: -32602 });
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe("cancelled");
    await sleep(10);
    expect(client.statuses).toEqual(["cancelled"]);
    expect(other.statuses).toEqual([]);
    expect(aborted).toEqual(["the task was cancelled (tasks/cancel)"]);
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 });
    await client.close();
    await other.close();
  });
});
