// Several mcpgen HTTP processes sharing one real redis-server on loopback
// (mcpgen/redis), a client spreading its requests over them: a task created
// through one is polled to completion and cancelled through another;
// subscriptions/listen held on one receives the list_changed caused on
// another; a multi round-trip retry lands on another process (the shared
// requestState keys); handshake sessions stay with their process behind
// docs/deploying.md's nginx (Mcp-Session-Id affinity), including an SSE
// resumption; Redis stopped mid-test: clear errors, the rest served, recovery
// once it returns.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startPageNginx } from "../fixtures/nginx.js";
import { startRedis, type RedisServer } from "../fixtures/redis-server.js";
import { ACCEPT_BOTH, initializeMessage, openSse, post } from "../server/http-support.js";
import { META, call, sleep, startNode, stopNode, type Node } from "./cluster-support.js";

/** Opens subscriptions/listen on a process (per-request POST answered with an SSE stream). */
function listen(node: Node, id: string, notifications: Record<string, unknown>) {
  return openSse(
    "POST",
    node.url,
    {
      "Content-Type": "application/json",
      Accept: ACCEPT_BOTH,
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "subscriptions/listen",
    },
    JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta: META } }),
  );
}

/** docs/deploying.md's nginx block routes sessions of routes a and b, the rest to both: the first two processes. */
function pageBackends(): Record<string, string> {
  return { a: `127.0.0.1:${nodes[0]!.port}`, b: `127.0.0.1:${nodes[1]!.port}` };
}

let redis: RedisServer;
let nodes: Node[] = [];

beforeAll(async () => {
  redis = await startRedis();
  nodes = await Promise.all(["a", "b", "c"].map((route) => startNode(redis.url, route)));
});

afterAll(async () => {
  await Promise.all(nodes.map(stopNode));
  await redis?.stop();
});

describe("per-request clients spread over three processes", () => {
  test("a task created through one is polled to completion through the others", async () => {
    const [a, b, c] = nodes as [Node, Node, Node];
    const created = await call(a, "tools/call", { name: "slow", arguments: { ms: 300 } }, "slow");
    expect(created.body["result"]).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created.body["result"].taskId as string;
    let state: Record<string, any> = {};
    for (let i = 0; i < 100 && state["status"] !== "completed"; i++) {
      const got = await call(i % 2 ? b : c, "tasks/get", { taskId }, taskId);
      expect(got.status).toBe(200);
      state = got.body["result"];
      if (state["status"] !== "completed") await sleep(50);
    }
    expect(state["status"]).toBe("completed");
    expect(state["result"].content[0].text).toBe(`slept 300 ms on ${a.port}`);
  });

  test("tasks/cancel through another process stops the work where it runs", async () => {
    const [a, b] = nodes as [Node, Node];
    const created = await call(a, "tools/call", { name: "slow", arguments: { ms: 5_000 } }, "slow");
    const taskId = created.body["result"].taskId as string;
    const cancelled = await call(b, "tasks/cancel", { taskId }, taskId);
    expect(cancelled.status).toBe(200);
    await sleep(300);
    // The work on A was aborted: the task stays cancelled (a finished handler would have tried to complete it).
    const got = await call(a, "tasks/get", { taskId }, taskId);
    expect(got.body["result"].status).toBe("cancelled");
    const reasons = await call(a, "tools/call", { name: "aborted", arguments: {} }, "aborted");
    if (!reasons.body["result"]) throw new Error(JSON.stringify(reasons.body));
    expect(reasons.body["result"].content[0].text).toContain("the task was cancelled (tasks/cancel)");
  });

  test("subscriptions/listen held on one process receives the list_changed caused on another", async () => {
    const [a, b] = nodes as [Node, Node];
    const stream = await listen(b, "listen-1", { toolsListChanged: true });
    expect(stream.status).toBe(200);
    await stream.reader.until(() =>
      stream.reader.messages().some((m) => m["method"] === "notifications/subscriptions/acknowledged"),
    );
    const announced = await call(a, "tools/call", { name: "announce", arguments: {} }, "announce");
    expect(announced.body["result"].content[0].text).toBe(`announced by ${a.port}`);
    const [changed] = (
      await stream.reader.until(() =>
        stream.reader.messages().some((m) => m["method"] === "notifications/tools/list_changed"),
      )
    )
      .filter((e) => e.data.includes("list_changed"))
      .map((e) => JSON.parse(e.data));
    expect(changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"]).toBe("listen-1");
    stream.reader.close();
  });

  test("subscriptions/listen on one process names a task running on another and is told when it completes", async () => {
    const [a, b] = nodes as [Node, Node];
    const created = await call(a, "tools/call", { name: "slow", arguments: { ms: 400 } }, "slow");
    const taskId = created.body["result"].taskId as string;
    const stream = await listen(b, "listen-task", { taskIds: [taskId] });
    const acknowledged = (
      await stream.reader.until(() =>
        stream.reader.messages().some((m) => m["method"] === "notifications/subscriptions/acknowledged"),
      )
    )
      .map((e) => (e.data ? JSON.parse(e.data) : {}))
      .find((m) => m["method"] === "notifications/subscriptions/acknowledged")!;
    expect(acknowledged["params"]["notifications"]["taskIds"]).toEqual([taskId]);
    await stream.reader.until(() =>
      stream.reader
        .messages()
        .some((m) => m["method"] === "notifications/tasks" && m["params"]["status"] === "completed"),
    );
    stream.reader.close();
  });

  test("a multi round-trip retry is accepted by another process (the requestState keys are shared)", async () => {
    const [a, b] = nodes as [Node, Node];
    const first = await call(a, "tools/call", { name: "confirm", arguments: {} }, "confirm");
    expect(first.body["result"].resultType).toBe("input_required");
    const { requestState, inputRequests } = first.body["result"];
    const [key] = Object.keys(inputRequests);
    const retry = await call(
      b,
      "tools/call",
      {
        name: "confirm",
        arguments: {},
        requestState,
        inputResponses: { [key!]: { action: "accept", content: { sure: true } } },
      },
      "confirm",
    );
    expect(retry.body["result"].content[0].text).toBe(`confirmed on ${b.port}`);
  });
});

describe("handshake sessions behind the page's nginx, with Mcp-Session-Id affinity", () => {
  test("the official SDK client's session stays on one process; others serve other sessions", async () => {
    const balancer = await startPageNginx(pageBackends());
    try {
      const seen = new Set<number>();
      for (let i = 0; i < 6; i++) {
        const client = new Client({ name: `v1-${i}`, version: "1" });
        await client.connect(new StreamableHTTPClientTransport(new URL(balancer.url)));
        const ports = new Set<number>();
        for (let j = 0; j < 4; j++) {
          const result = await client.callTool({ name: "where", arguments: {} });
          ports.add((result.structuredContent as { port: number }).port);
        }
        expect(ports.size).toBe(1); // every request of the session on its process
        seen.add([...ports][0]!);
        await client.close();
      }
      expect(seen.size).toBeGreaterThan(1); // sessions were spread
    } finally {
      await balancer.stop();
    }
  });

  test("an SSE stream the server closed (SEP-1699 polling) resumes with Last-Event-ID through nginx", async () => {
    const balancer = await startPageNginx(pageBackends());
    try {
      const init = await post(balancer.url, initializeMessage());
      const sessionId = init.headers["mcp-session-id"] as string;
      const headers = { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" };
      await post(balancer.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
      const stream = await openSse(
        "POST",
        balancer.url,
        { ...headers, "Content-Type": "application/json", Accept: ACCEPT_BOTH },
        JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "poll_me", arguments: {} } }),
      );
      // The server primes the stream, sends progress, then closes the connection (not the stream).
      await stream.reader.until(() => stream.reader.ended);
      const lastId = stream.reader.events.filter((e) => e.id !== undefined).at(-1)!.id!;
      expect(stream.reader.messages().some((m) => m["id"] === 5)).toBe(false);
      await sleep(300);
      const resumed = await openSse("GET", balancer.url, {
        ...headers,
        Accept: "text/event-stream",
        "Last-Event-ID": lastId,
      });
      expect(resumed.status).toBe(200);
      await resumed.reader.until(() => resumed.reader.messages().some((m) => m["id"] === 5));
      const answer = resumed.reader.messages().find((m) => m["id"] === 5)!;
      expect(answer["result"].content[0].text).toMatch(/after the poll/);
      resumed.reader.close();
    } finally {
      await balancer.stop();
    }
  });
});

describe("Redis stopped mid-test, then restarted", () => {
  test("what needs Redis fails with a clear error meanwhile, the rest is served, and it recovers", async () => {
    const [a, b] = nodes as [Node, Node];
    await redis.halt();
    try {
      // A task cannot be created or read: the error names Redis.
      const got = await call(b, "tasks/get", { taskId: "AAAAAAAAAAAAAAAAAAAAAA" }, "AAAAAAAAAAAAAAAAAAAAAA");
      expect(got.body["error"]["code"]).toBe(-32603);
      expect(got.body["error"]["message"]).toMatch(/Redis at 127\.0\.0\.1:\d+ is unavailable/);
      // A tool that needs nothing shared is served, by every process.
      for (const node of nodes) {
        const where = await call(node, "tools/call", { name: "where", arguments: {} }, "where");
        expect(where.body["result"].structuredContent).toEqual({ port: node.port });
      }
      // A task-capable call still runs (without a task, answered directly), as the store cannot take it.
      const direct = await call(a, "tools/call", { name: "slow", arguments: { ms: 50 } }, "slow");
      expect(direct.body["result"].content[0].text).toBe(`slept 50 ms on ${a.port}`);
    } finally {
      await redis.restart();
    }
    // The processes reconnect by themselves.
    let recovered: Record<string, any> | undefined;
    for (let i = 0; i < 100 && !recovered; i++) {
      const created = await call(a, "tools/call", { name: "slow", arguments: { ms: 20 } }, "slow");
      if (created.body["result"]?.resultType === "task") recovered = created.body["result"];
      else await sleep(100);
    }
    expect(recovered).toBeDefined();
    let status = "";
    for (let i = 0; i < 100 && status !== "completed"; i++) {
      const got = await call(b, "tasks/get", { taskId: recovered!["taskId"] }, recovered!["taskId"]);
      status = got.body["result"]?.status ?? "";
      if (status !== "completed") await sleep(50);
    }
    expect(status).toBe("completed");
    for (const node of nodes) expect(node.child.exitCode).toBeNull();
    expect(a.stderr.join("")).toMatch(/unreachable; reconnecting/);
    expect(a.stderr.join("")).toMatch(/reachable again/);
  });
});
