// Several server processes sharing Redis (mcpgen/redis) beside one process
// with in-memory state, in one run, on loopback:
// - per-request (2026-07-28) tools/call from 16 keep-alive clients: through one
//   process, and spread over two processes sharing a redis-server;
// - a task's cycle (tools/call of a 5 ms tool that turns into a task, then tasks/get until it
//   is completed): the in-memory store in one process; the Redis store in one
//   process (the store is the only difference: the target's measure); the
//   Redis store with creation on one process and polling on the other (adds a
//   process hop: the poll wakes a process that was idle).
// bench/http runs this after its own table (npm run bench:http); alone: npm run bench:cluster.
// The load generator shares the machine's cores with the servers (and Redis):
// the two-process row reports a scaling factor, not a capacity.
// Usage: node dist/bench/cluster.js [--quick] [--rounds N]
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { startRedis } from "../test/fixtures/redis-server.js";
import { benchOptions, sharedOptions } from "./options.js";

const options = benchOptions(
  "cluster.js",
  "Per-request tools/call and task cycles: two processes sharing Redis beside one.",
  [sharedOptions.rounds(3), sharedOptions.quick],
);
const quick = options.has("--quick");
const rounds = options.number("--rounds", quick ? 1 : 3);
const clients = 16;
const callsPerClient = quick ? 20 : 1_000;
const cycles = quick ? 10 : 300;
const fixture = join(import.meta.dirname, "..", "test", "fixtures", "servers", "cluster.js");
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};

function call(url: string, method: string, params: Record<string, unknown>, name: string): Promise<any> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2026-07-28",
          "Mcp-Method": method,
          "Mcp-Name": name,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          const parsed = JSON.parse(text);
          if (parsed.error) reject(new Error(JSON.stringify(parsed.error)));
          else resolve(parsed.result);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function startNode(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [fixture, "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const match = /ready (\S+)/.exec(chunk);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`cluster fixture exited with ${code}`)));
  });
  return { url, child };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const median = (values: number[]) => percentile(values, 50);

/** 16 clients, each `callsPerClient` sequential tools/call, client i on urls[i % urls.length]. */
async function load(urls: string[]): Promise<{ rps: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const url = urls[i % urls.length]!;
      for (let n = 0; n < callsPerClient; n++) {
        const t = performance.now();
        await call(url, "tools/call", { name: "where", arguments: {} }, "where");
        latencies.push((performance.now() - t) * 1000);
      }
    }),
  );
  return {
    rps: (clients * callsPerClient) / ((performance.now() - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** Task cycles, one at a time: created through `create`, polled (no delay) through `poll` until completed. */
async function taskCycles(create: string, poll: string): Promise<{ p50: number; p99: number; direct: number }> {
  const times: number[] = [];
  let direct = 0;
  for (let i = 0; i < cycles; i++) {
    const t = performance.now();
    const created = await call(create, "tools/call", { name: "slow", arguments: { ms: 5 } }, "slow");
    // The work ended before the task was stored: the call is answered directly (counted, and reported).
    if (created.resultType === "complete") direct++;
    else if (created.resultType !== "task") throw new Error(`not a task: ${JSON.stringify(created)}`);
    else
      for (;;) {
        const state = await call(poll, "tasks/get", { taskId: created.taskId }, created.taskId);
        if (state.status === "completed") break;
        if (state.status !== "working") throw new Error(`task ${state.status}`);
      }
    times.push((performance.now() - t) * 1000);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), direct };
}

const redis = await startRedis();
const single = await startNode([]);
const pair = await Promise.all([startNode(["--redis", redis.url]), startNode(["--redis", redis.url])]);
try {
  const one: Awaited<ReturnType<typeof load>>[] = [];
  const two: Awaited<ReturnType<typeof load>>[] = [];
  const memoryTasks: Awaited<ReturnType<typeof taskCycles>>[] = [];
  const redisTasks: Awaited<ReturnType<typeof taskCycles>>[] = [];
  const acrossTasks: Awaited<ReturnType<typeof taskCycles>>[] = [];
  await load([single.url]); // warm-up
  await load(pair.map((p) => p.url));
  for (let round = 0; round < rounds; round++) {
    one.push(await load([single.url]));
    two.push(await load(pair.map((p) => p.url)));
    memoryTasks.push(await taskCycles(single.url, single.url));
    redisTasks.push(await taskCycles(pair[0]!.url, pair[0]!.url));
    acrossTasks.push(await taskCycles(pair[0]!.url, pair[1]!.url));
  }
  const rps1 = median(one.map((r) => r.rps));
  const rps2 = median(two.map((r) => r.rps));
  console.log(
    `${rounds} round(s), medians; ${clients} keep-alive clients × ${callsPerClient} calls; ${cycles} task cycles\n`,
  );
  const rows = [
    ["per-request tools/call", "req/s", "×one", "p50 µs", "p99 µs"],
    [
      "one process (memory)",
      rps1.toFixed(0),
      "1.00×",
      median(one.map((r) => r.p50)).toFixed(0),
      median(one.map((r) => r.p99)).toFixed(0),
    ],
    [
      "two processes + Redis",
      rps2.toFixed(0),
      `${(rps2 / rps1).toFixed(2)}×`,
      median(two.map((r) => r.p50)).toFixed(0),
      median(two.map((r) => r.p99)).toFixed(0),
    ],
  ];
  const taskRows = [
    ["task create + poll to completed", "p50 µs", "p99 µs", "answered directly", ""],
    [
      "memory store, one process",
      median(memoryTasks.map((r) => r.p50)).toFixed(0),
      median(memoryTasks.map((r) => r.p99)).toFixed(0),
      `${memoryTasks.reduce((n, r) => n + r.direct, 0)}/${memoryTasks.length * cycles}`,
      "",
    ],
    [
      "Redis store, one process",
      median(redisTasks.map((r) => r.p50)).toFixed(0),
      median(redisTasks.map((r) => r.p99)).toFixed(0),
      `${redisTasks.reduce((n, r) => n + r.direct, 0)}/${redisTasks.length * cycles}`,
      "",
    ],
    [
      "Redis store, created on one, polled on another",
      median(acrossTasks.map((r) => r.p50)).toFixed(0),
      median(acrossTasks.map((r) => r.p99)).toFixed(0),
      `${acrossTasks.reduce((n, r) => n + r.direct, 0)}/${acrossTasks.length * cycles}`,
      "",
    ],
  ];
  for (const table of [rows, taskRows]) {
    const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
    for (const row of table)
      console.log(
        row
          .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
          .join("  ")
          .trimEnd(),
      );
    console.log("");
  }
  const memory = median(memoryTasks.map((r) => r.p50));
  const gap = median(redisTasks.map((r) => r.p50)) - memory;
  const across = median(acrossTasks.map((r) => r.p50)) - memory;
  console.log(
    `Redis task cycle p50 − memory: ${(gap / 1000).toFixed(2)} ms in one process (target ≤ 1 ms), ` +
      `${(across / 1000).toFixed(2)} ms polled through another process; ` +
      `two processes ÷ one: ${(rps2 / rps1).toFixed(2)}× (2 cores shared with the load generator and Redis)`,
  );
} finally {
  await Promise.all([stop(single.child), ...pair.map((p) => stop(p.child))]);
  await redis.stop();
  agent.destroy();
}
