// Task polling on the client's side, against mcpgen's server with task tools
// (test/fixtures/servers/tasks.ts): the io.modelcontextprotocol/tasks
// extension at 2026-07-28 and params.task at 2025-11-25, over stdio and
// Streamable HTTP. One API for both: callToolAsTask() → a handle that polls
// (honouring pollInterval) to a terminal status; callTool(..., { task: true });
// input inside a task; failures, cancellation, timeouts and aborts.
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import {
  Client,
  ConnectionClosedError,
  McpError,
  RequestTimeoutError,
  StdioClientTransport,
  StreamableHttpClientTransport,
  TaskCancelledError,
  type ClientHandlers,
  type ClientOptions,
  type TaskInfo,
} from "mcpgen/client";
import { serveHttp } from "mcpgen/http";
import { buildTaskServer } from "../fixtures/servers/tasks.js";

const fixture = fileURLToPath(new URL("../../dist/test/fixtures/servers/tasks.js", import.meta.url));
const handlers: ClientHandlers = { elicitation: async () => ({ action: "accept", content: { confirm: true } }) };
const text = (result: { content: readonly { type: string }[] }) =>
  result.content.map((block) => ("text" in block ? String(block.text) : `[${block.type}]`)).join("");

async function stdio(options: ClientOptions): Promise<Client> {
  return Client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture] }), {
    handlers,
    ...options,
  });
}

/** What every wire with tasks does, through the same calls. */
async function exercise(client: Client): Promise<void> {
  // A long call becomes a task; the handle polls it to its end.
  const statuses: TaskInfo[] = [];
  const handle = await client.callToolAsTask("work", { ms: 300 });
  expect(handle.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(handle.task).toMatchObject({ status: "working", pollIntervalMs: 50 });
  const result = await handle.result({ onStatus: (task) => statuses.push(task) });
  expect(text(result)).toBe("worked 300 ms");
  expect(result.resultType).toBe("complete");
  expect(statuses.at(-1)?.status).toBe("completed");
  expect(statuses.length).toBeGreaterThan(2);
  // The outcome is kept: asked again, it is not fetched again.
  await expect(handle.result()).resolves.toBe(result);
  expect((await handle.refresh()).status).toBe("completed");

  // callTool with task: the same, in one call.
  expect(text(await client.callTool("work", { ms: 120 }, { task: true }))).toBe("worked 120 ms");

  // A tool error is the tool's result; a protocol error is the task's McpError.
  const toolError = await client.callTool("work", { ms: 60, fail: "tool" }, { task: true });
  expect([toolError.isError, text(toolError)]).toEqual([true, "bad input"]);
  const failed = await client.callTool("work", { ms: 60, fail: "protocol" }, { task: true }).catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(McpError);
  expect((failed as McpError).message).toBe("the work broke");

  // Input inside a task is served by the client's handlers (2025-11-25: requests; extension: tasks/update).
  expect(text(await client.callTool("confirm", {}, { task: true }))).toBe("confirmed");

  // A tool that never runs as a task: a plain answer behind the same handle.
  const plain = await client.callToolAsTask("plain");
  expect(plain.taskId).toBeUndefined();
  expect(text(await plain.result())).toBe("plain answer");

  // Cancelled: the result is a TaskCancelledError naming the task.
  const long = await client.callToolAsTask("work", { ms: 10_000 });
  await long.cancel();
  const cancelled = await long.result().catch((e: unknown) => e);
  expect(cancelled).toBeInstanceOf(TaskCancelledError);
  expect((cancelled as TaskCancelledError).taskId).toBe(long.taskId);

  // Past its deadline the wait ends and the task is cancelled on the server.
  const slow = await client.callToolAsTask("work", { ms: 10_000 });
  await expect(slow.result({ timeoutMs: 150 })).rejects.toBeInstanceOf(RequestTimeoutError);
  await expect
    .poll(async () => (await client.task(slow.taskId!).refresh()).status, { timeout: 3000 })
    .toBe("cancelled");

  // An abort ends the wait with its reason; with cancelOnAbort false the task runs on, and a new handle
  // for its id (as after a restart) waits for it.
  const controller = new AbortController();
  const kept = await client.callToolAsTask("work", { ms: 400 });
  setTimeout(() => controller.abort(new Error("the user looked away")), 50);
  await expect(kept.result({ signal: controller.signal, cancelOnAbort: false })).rejects.toThrow(
    "the user looked away",
  );
  expect(text(await client.task(kept.taskId!).result())).toBe("worked 400 ms");
}

describe("the tasks extension (2026-07-28)", () => {
  test("stdio: detected; the extension declared per request", async () => {
    const client = await stdio({ extensions: ["tasks"] });
    try {
      expect(client.revision.name).toBe("2026-07-28");
      await exercise(client);
      await expect(client.listTasks()).rejects.toThrow(/has no tasks\/list/);
    } finally {
      await client.close();
    }
  });

  test("Streamable HTTP", async () => {
    const handle = await serveHttp(buildTaskServer());
    try {
      const client = await Client.connect(new StreamableHttpClientTransport(handle.url), {
        handlers,
        extensions: ["tasks"],
      });
      try {
        expect(client.era).toBe("modern");
        await exercise(client);
      } finally {
        await client.close();
      }
    } finally {
      await handle.close();
    }
  });

  test("without the extension given to the client, a task call says what is missing", async () => {
    const client = await stdio({ revision: "2026-07-28" });
    try {
      await expect(client.callToolAsTask("work", { ms: 10 })).rejects.toThrow(
        /ClientOptions.extensions including "tasks"/,
      );
      // A plain call is still a plain call: the request did not declare the extension.
      expect(text(await client.callTool("work", { ms: 10 }))).toBe("worked 10 ms");
    } finally {
      await client.close();
    }
  });

  test("a client that declares the extension for every request gets a plain callTool polled to its end", async () => {
    const client = await stdio({
      extensions: ["tasks"],
      capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
    });
    try {
      expect(text(await client.callTool("work", { ms: 150 }))).toBe("worked 150 ms");
    } finally {
      await client.close();
    }
  });

  test("the server's pollIntervalMs is honoured between polls", async () => {
    const handle = await serveHttp(buildTaskServer({ pollIntervalMs: 200 }));
    try {
      const client = await Client.connect(new StreamableHttpClientTransport(handle.url), { extensions: ["tasks"] });
      try {
        const seen: number[] = [];
        const task = await client.callToolAsTask("work", { ms: 700 });
        await task.result({ onStatus: () => seen.push(Date.now()) });
        const gaps = seen.slice(1).map((at, i) => at - seen[i]!);
        expect(gaps.length).toBeGreaterThanOrEqual(3);
        expect(gaps.length).toBeLessThanOrEqual(5);
        for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(195);
      } finally {
        await client.close();
      }
    } finally {
      await handle.close();
    }
  });
});

describe("a poll and the client's end", () => {
  test("client.close() ends a poll at once, whatever pollIntervalMs the server asked for", async () => {
    // About 23 days between polls: a timer the close must clear, not wait for.
    const handle = await serveHttp(buildTaskServer({ pollIntervalMs: 2_000_000_000 }));
    try {
      const client = await Client.connect(new StreamableHttpClientTransport(handle.url), { extensions: ["tasks"] });
      let polling!: () => void;
      const started = new Promise<void>((resolve) => (polling = resolve));
      const call = client.callTool("work", { ms: 10_000 }, { task: { onStatus: () => polling() } }).then(
        () => "resolved",
        (error: unknown) => error,
      );
      await Promise.race([started, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      await client.close();
      const outcome = await Promise.race([call, new Promise((resolve) => setTimeout(resolve, 1_000, "pending"))]);
      expect(outcome).toBeInstanceOf(ConnectionClosedError);
      expect(String(outcome)).toMatch(/the connection to .* was closed/);
    } finally {
      await handle.close();
    }
  });
});

describe("2025-11-25 tasks (params.task, tasks/result)", () => {
  test("stdio: asked for where the server and the tool offer it; tasks/list", async () => {
    const client = await stdio({ revision: "2025-11-25", extensions: ["tasks"] });
    try {
      await exercise(client);
      const retained = await client.callToolAsTask("work", { ms: 50 }, { ttlMs: 60_000 });
      expect(retained.task?.ttlMs).toBe(60_000);
      await retained.result();
      const listed = await client.listTasks();
      expect(listed.map((t) => t.taskId)).toContain(retained.taskId);
      expect(listed.find((t) => t.taskId === retained.taskId)).toMatchObject({ status: "completed", ttlMs: 60_000 });
    } finally {
      await client.close();
    }
  });

  test("Streamable HTTP (input inside the task arrives on the GET stream)", async () => {
    const handle = await serveHttp(buildTaskServer());
    try {
      const client = await Client.connect(new StreamableHttpClientTransport(handle.url), {
        handlers,
        revision: "2025-11-25",
      });
      try {
        await exercise(client);
      } finally {
        await client.close();
      }
    } finally {
      await handle.close();
    }
  });

  test("a revision without tasks: callToolAsTask is a plain call", async () => {
    const client = await stdio({ revision: "2025-06-18" });
    try {
      const handle = await client.callToolAsTask("work", { ms: 20 });
      expect(handle.taskId).toBeUndefined();
      expect(text(await handle.result())).toBe("worked 20 ms");
      expect(() => client.task("x")).toThrow(/has no tasks/);
    } finally {
      await client.close();
    }
  });
});
