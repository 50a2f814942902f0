// mcpgen/redis pieces against a real redis-server: the task store keeps the
// TaskStore contract (create visible at once, terminal states final, fields
// removed, ttl expiry, an owner's tasks in order and paged), the bus delivers
// to the other processes and never back, and with Redis gone every call fails
// at once with an error naming Redis.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RedisState, RedisUnavailableError } from "../../runtime/redis/index.js";
import type { BusMessage } from "../../runtime/server/outgoing/bus.js";
import type { TaskState } from "../../runtime/server/tasks/store.js";
import { startRedis, type RedisServer } from "../fixtures/redis-server.js";

let redis: RedisServer;
const quiet = () => {};
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const task = (taskId: string, owner: string, ttlMs: number | null = 60_000): TaskState => {
  const now = new Date().toISOString();
  return { taskId, owner, status: "working", createdAt: now, lastUpdatedAt: now, ttlMs, pollIntervalMs: 10 };
};

describe("RedisTaskStore", () => {
  test("a created task is visible from another connection; updates merge, remove fields and stop at a terminal status", async () => {
    const [one, two] = await Promise.all([
      RedisState.connect({ url: redis.url, logger: quiet }),
      RedisState.connect({ url: redis.url, logger: quiet }),
    ]);
    try {
      await one.tasks.create(task("t1", "o"));
      expect(await two.tasks.get("t1")).toMatchObject({ taskId: "t1", owner: "o", status: "working", ttlMs: 60_000 });
      const asking = await two.tasks.update("t1", {
        status: "input_required",
        inputRequests: { "elicitation/create#1": { method: "elicitation/create", params: { message: "?" } } },
      });
      expect(asking?.inputRequests).toBeDefined();
      const working = await one.tasks.update("t1", { status: "working", inputRequests: undefined });
      expect(working).not.toHaveProperty("inputRequests");
      await one.tasks.update("t1", { status: "completed", result: '{"content":[]}' });
      const after = await two.tasks.update("t1", { status: "failed", error: { code: 1, message: "late" } });
      expect(after).toMatchObject({ status: "completed", result: '{"content":[]}' });
      expect(after).not.toHaveProperty("error");
      expect(await one.tasks.update("unknown", { status: "working" })).toBeUndefined();
      await expect(one.tasks.create(task("t1", "o"))).rejects.toThrow(/already exists/);
      // Scripts run by digest; a Redis that lost them (a restart) is sent their text again.
      await one.command(["SCRIPT", "FLUSH"]);
      await one.tasks.create(task("t2", "o"));
      expect(await two.tasks.update("t2", { status: "completed", result: "{}" })).toMatchObject({
        status: "completed",
      });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  test("a task expires with its ttl; an owner's tasks are listed oldest first, paged", async () => {
    const state = await RedisState.connect({ url: redis.url, logger: quiet, prefix: "paging" });
    try {
      await state.tasks.create(task("short", "p", 50));
      for (const id of ["a", "b", "c"]) {
        await state.tasks.create(task(id, "p"));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await state.tasks.create(task("other", "q"));
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(await state.tasks.get("short")).toBeUndefined();
      const first = await state.tasks.list("p", 0, 2);
      expect(first.tasks.map((t) => t.taskId)).toEqual(["a", "b"]);
      const second = await state.tasks.list("p", 2, 2);
      expect([second.tasks.map((t) => t.taskId), second.more]).toEqual([["c"], false]);
    } finally {
      await state.close();
    }
  });
});

describe("RedisBus", () => {
  test("delivers to the other processes, not back to the sender", async () => {
    const [one, two] = await Promise.all([
      RedisState.connect({ url: redis.url, logger: quiet, prefix: "bus" }),
      RedisState.connect({ url: redis.url, logger: quiet, prefix: "bus" }),
    ]);
    try {
      const atOne: BusMessage[] = [];
      const atTwo: BusMessage[] = [];
      one.bus.subscribe((m) => atOne.push(m));
      two.bus.subscribe((m) => atTwo.push(m));
      await new Promise((resolve) => setTimeout(resolve, 100)); // subscriptions made
      await one.bus.publish({ kind: "resource_updated", uri: "file:///x" });
      for (let i = 0; i < 50 && atTwo.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(atTwo).toEqual([{ kind: "resource_updated", uri: "file:///x" }]);
      expect(atOne).toEqual([]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe("Redis unreachable", () => {
  test("a Redis that hangs: each command fails after commandTimeoutMs, naming Redis; then it answers again", async () => {
    const state = await RedisState.connect({ url: redis.url, logger: quiet, prefix: "hung", commandTimeoutMs: 300 });
    try {
      redis.freeze();
      const started = Date.now();
      const failures = await Promise.all(
        ["a", "b", "c"].map((id) => state.tasks.get(id).catch((error: unknown) => error)),
      );
      const waited = Date.now() - started;
      for (const failed of failures) {
        expect(failed).toBeInstanceOf(RedisUnavailableError);
        expect(String(failed)).toMatch(/Redis at 127\.0\.0\.1:\d+ is unavailable \(HGETALL\): no answer within 300 ms/);
      }
      expect(waited).toBeGreaterThanOrEqual(290);
      expect(waited).toBeLessThan(1_500);
      redis.thaw();
      expect(await state.tasks.get("a")).toBeUndefined();
    } finally {
      redis.thaw();
      await state.close();
    }
  });

  test("connect fails naming Redis; a dropped connection fails calls at once, then recovers", async () => {
    await expect(RedisState.connect({ url: "redis://127.0.0.1:1", logger: quiet })).rejects.toThrow(
      /cannot connect to Redis at 127\.0\.0\.1:1/,
    );
    const state = await RedisState.connect({ url: redis.url, logger: quiet, prefix: "outage" });
    try {
      await redis.halt();
      const started = Date.now();
      const failed = await state.tasks.get("x").catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(RedisUnavailableError);
      expect(String(failed)).toMatch(/Redis at 127\.0\.0\.1:\d+ is unavailable/);
      expect(Date.now() - started).toBeLessThan(2_500);
      await redis.restart();
      let recovered = false;
      for (let i = 0; i < 100 && !recovered; i++) {
        recovered = await state.tasks.get("x").then(
          () => true,
          () => false,
        );
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(recovered).toBe(true);
    } finally {
      await state.close();
    }
  });
});
