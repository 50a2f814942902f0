// What a deployment keeps after Redis lost its data (docs/deploying.md, "When
// Redis loses its data"): a real redis-server restarted empty, or flushed,
// while one process keeps running and another starts afterwards. Tasks are
// gone; the requestState keys (mcpgen/redis requestStateKeys()) come back: a
// multi round-trip retry carrying state signed by either process is accepted
// by the other within the documented bound (twice the refresh period after
// Redis is back), and from then on both sign with the same key.
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { startRedis, type RedisServer } from "../fixtures/redis-server.js";
import { call, sleep, startNode, stopNode, type Node } from "./cluster-support.js";

/** The refresh period the processes run with; the bound, counted from the new process's start, is twice it plus a reconnection. */
const REFRESH_MS = 1_000;
const BOUND_MS = 2 * REFRESH_MS + 2_000;

let redis: RedisServer;
const started: Node[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(started.splice(0).map(stopNode));
});
afterAll(async () => {
  await redis?.stop();
});

async function node(route: string): Promise<Node> {
  const started_ = await startNode(redis.url, route, ["--key-refresh-ms", String(REFRESH_MS)]);
  started.push(started_);
  return started_;
}

/** What a first round of `confirm` hands the client: its requestState and the key to answer under. */
interface Round {
  readonly requestState: string;
  readonly key: string;
}

async function firstRound(on: Node): Promise<Round> {
  const first = await call(on, "tools/call", { name: "confirm", arguments: {} }, "confirm");
  expect(first.body["result"]?.resultType).toBe("input_required");
  const { requestState, inputRequests } = first.body["result"];
  return { requestState, key: Object.keys(inputRequests)[0]! };
}

/** The retry of `confirm` answering a round, on a process: what the client sees. */
async function retry(on: Node, { requestState, key }: Round): Promise<Record<string, any>> {
  const inputResponses = { [key]: { action: "accept", content: { sure: true } } };
  const reply = await call(
    on,
    "tools/call",
    { name: "confirm", arguments: {}, requestState, inputResponses },
    "confirm",
  );
  return reply.body;
}

/** Retries until the process accepts the state; fails past the bound with the last refusal. */
async function acceptedWithinBound(on: Node, round: Round, since: number): Promise<number> {
  let last: Record<string, any> = {};
  while (Date.now() - since <= BOUND_MS) {
    last = await retry(on, round);
    if (last["result"]) {
      expect(last["result"].content[0].text).toBe(`confirmed on ${on.port}`);
      return Date.now() - since;
    }
    expect(last["error"]?.code).toBe(-32602);
    await sleep(100);
  }
  throw new Error(`not accepted on ${on.port} within ${BOUND_MS} ms: ${JSON.stringify(last)}`);
}

test("after Redis restarted empty, an old process and one started afterwards accept each other's requestState", async () => {
  const a = await node("a");
  const beforeRestart = await firstRound(a);
  const task = await call(a, "tools/call", { name: "slow", arguments: { ms: 300 } }, "slow");
  expect(task.body["result"]).toMatchObject({ resultType: "task" });
  const taskId = task.body["result"].taskId as string;
  await redis.restart(); // empty: the fixture runs without persistence
  const b = await node("b");
  const back = Date.now();

  // The task is gone, whichever process is asked.
  for (const on of [a, b]) {
    let got = await call(on, "tasks/get", { taskId }, taskId);
    for (let i = 0; i < 50 && got.body["error"]?.code === -32603; i++) {
      await sleep(100); // the old process reconnecting
      got = await call(on, "tasks/get", { taskId }, taskId);
    }
    expect(got.body["error"]).toMatchObject({ code: -32602, message: expect.stringMatching(/Task not found/) });
  }
  const fromB = await firstRound(b);

  // State signed before the restart by the old process, and state signed by the new one, both verify across.
  await acceptedWithinBound(b, beforeRestart, back);
  await acceptedWithinBound(a, fromB, back);
  // Converged: what either signs now verifies on the other at once.
  expect((await retry(b, await firstRound(a)))["result"].content[0].text).toBe(`confirmed on ${b.port}`);
  expect((await retry(a, await firstRound(b)))["result"].content[0].text).toBe(`confirmed on ${a.port}`);
  // The old key: still accepted by the process that signed with it.
  expect((await retry(a, beforeRestart))["result"].content[0].text).toBe(`confirmed on ${a.port}`);
});

test("after FLUSHALL under running processes, a process started afterwards converges with them", async () => {
  const a = await node("a");
  const b = await node("b");
  const fromA = await firstRound(a);
  const fromB = await firstRound(b);
  const admin = createClient({ url: redis.url });
  await admin.connect();
  try {
    await admin.flushAll();
  } finally {
    await admin.close();
  }
  const c = await node("c");
  const flushed = Date.now();
  await acceptedWithinBound(c, fromA, flushed);
  await acceptedWithinBound(c, fromB, flushed);
  const fromC = await firstRound(c);
  await acceptedWithinBound(a, fromC, flushed);
  await acceptedWithinBound(b, fromC, flushed);
  for (const n of [a, b, c]) expect(n.child.exitCode).toBeNull();
});
