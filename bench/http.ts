// Benchmark: an MCP server over Streamable HTTP, side by side in one run. Each
// server registers 20 tools (echo({ text }) and tool_1..tool_19, one string
// property each; the floors answer anything) and runs as a child process on
// loopback. The driver calls echo. Legacy rows (revision 2025-11-25: initialize
// and notifications/initialized first, then requests with the session id if the
// server gave one):
//   floor (node:http)          node:http that parses each POST and echoes (bench/servers/http-floor.ts)
//   control: the floor again   the same floor measured as a row: what the run's noise makes of a ratio of 1
//   mcpgen (sessions)          serveHttp, Mcp-Session-Id sessions (bench/servers/http-mcpgen.ts), on the
//                              runtime package as installed (bench/installed.ts), as for every mcpgen row
//   mcpgen (stateless)         serveHttp({ sessions: false })
//   SDK (sessions)             @modelcontextprotocol/sdk (v1) StreamableHTTPServerTransport, a transport per session
//   SDK (stateless)            v1, a server and transport per request, as the SDK documents (bench/servers/http-sdk.ts)
//   SDK v2 (legacy, stateless) @modelcontextprotocol/server createMcpHandler's default legacy serving:
//                              a server per request, SSE answers (bench/servers/http-sdk-v2.ts)
// Per-request rows (revision 2026-07-28: no handshake, no session; every POST's
// params carry _meta with the protocol version, client capabilities and client
// info, and the headers MCP-Protocol-Version, Mcp-Method and Mcp-Name):
//   floor, per-request body    the same floor, sent the larger per-request bodies and headers, answering
//                              what a 2026-07-28 server does (resultType, _meta serverInfo: echo-floor.ts)
//   mcpgen (per-request)       serveHttp with default options: the sessions endpoint serves both eras
//   SDK v2 (per-request)       createMcpHandler + toNodeHandler, a server per request (JSON answers)
// Every answer is checked: HTTP 200, the request's id, the echoed text, and on
// per-request rows result.resultType "complete".
// 16 clients, each on its own keep-alive connection (legacy: with its own
// session), call tools/call one after the other. Every row runs beside a floor
// process of its own (the floor with the same kind of request: legacy rows
// "floor (node:http)", per-request rows "floor, per-request body"). Every
// process is started and warmed up once. Each round then measures every pair in
// blocks: block by block, the pairs take turns (rotating order), and within a
// pair the row and its floor one right after the other (which goes first
// alternates by block), each turn after a lead-in that is not counted. While a
// process is not measured it is stopped (SIGSTOP, bench/freeze.ts). Figures:
// requests/s (the median of the blocks), p50/p99 latency (each round's, their
// median), the server's CPU time (user + system) per request over a round's
// blocks (the median of the rounds), and its peak RSS (VmHWM) over its run.
// Ratios: the median over blocks of a row's req/s ÷ its floor's in the same
// turn, with the middle half of those ratios beside it; "CPU ×floor", the median
// over rounds of the CPU time per request ÷ the floor's (the server is the
// bottleneck here, so it is about the inverse of the req/s ratio).
//
// Then, in the same run, the deployment rows of bench/cluster.ts: per-request
// tools/call through two processes sharing Redis vs one, and a task cycle on
// the Redis store vs the in-memory one (skipped with --only, unless a word is "cluster").
//
// Run: npm run bench:http [-- --rounds N] [--quick] [--only mcpgen,SDK v2] [--cpu-prof DIR] [--instructions]
//   --only          rows whose name contains one of the comma-separated words (the floors and the control always run)
//   --cpu-prof      write a V8 CPU profile of every server child into DIR (figures then include the profiler's cost,
//                   and no process is stopped: bench/freeze.ts)
//   --instructions  instead of the timed rounds: the instructions each server executes per request once
//                   warmed up (1,500 calls a client; bench/instructions.ts, valgrind), for the floors and
//                   mcpgen's rows unless --only names others
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { freeze, idleProcesses, stopIdleProcesses, thaw } from "./freeze.js";
import { BenchClient, type Mode } from "./http-client.js";
import { installedProject } from "./installed.js";
import { instructionsOf } from "./instructions.js";
import { printTable } from "./table.js";
import { pairedMiddleHalf, pairedRatio, targetLines, type Target } from "./targets.js";
import { benchOptions, onlyWords, profileFlags, sharedOptions } from "./options.js";
import { hostAtStart, stealLine } from "./host.js";

/** The machine and its load as the run starts, before the run loads it (bench/host.ts). */
const host = hostAtStart();

const options = benchOptions(
  "http.js",
  "tools/call over Streamable HTTP beside the official SDKs and a node:http floor.",
  [
    sharedOptions.rounds(3),
    sharedOptions.quick,
    sharedOptions.only("floors and control"),
    sharedOptions.cpuProf("server"),
    { name: "--instructions", help: "instead of timed rounds: instructions per request under callgrind" },
  ],
);
const quick = options.has("--quick");
const rounds = options.number("--rounds", quick ? 1 : 3);
const clients = 16;
/** A round's blocks, each a turn of every pair; a client's calls in a block's measured window, and before it. */
const blocks = quick ? 2 : 10;
const callsPerClient = quick ? 15 : 150;
// A turn's first calls wake a process that was stopped, and reopen the connections it closed while
// others ran (node:http ends a keep-alive connection idle for 5 s): not counted.
const leadInPerClient = quick ? 2 : 15;
// V8 is still optimizing the servers' code until ~1,400 calls a client (--trace-opt; README): the
// windows measure the steady state a long-running server is in.
const warmupPerClient = quick ? 10 : 1_500;

const only = onlyWords(options);
const nodeArgs = profileFlags(options);
// A stopped process's profile charges the stop to its next sample (bench/freeze.ts).
stopIdleProcesses(nodeArgs.length === 0);

const servers = join(import.meta.dirname, "servers");
// mcpgen's rows run on the runtime package as a user installs it (packed, bundled), as bench/stdio's do.
const installed = installedProject(join(import.meta.dirname, "..", ".."), [
  join(servers, "http-mcpgen.js"),
  join(servers, "echo-mcpgen.js"),
]);
process.on("exit", installed.remove);
const mcpgenHttp = join(installed.dir, "http-mcpgen.js");
const CONTROL = "control: the floor again";
const allTargets: { name: string; script: string; args: string[]; mode: Mode }[] = [
  { name: "floor (node:http)", script: join(servers, "http-floor.js"), args: [], mode: "legacy" },
  // The control: the floor measured as a row. Its ratio is what this run's noise alone makes of a server
  // as fast as its floor (the other rows' ratios are worth no more than its distance from 1.00×).
  { name: CONTROL, script: join(servers, "http-floor.js"), args: [], mode: "legacy" },
  { name: "mcpgen (sessions)", script: mcpgenHttp, args: [], mode: "legacy" },
  { name: "mcpgen (stateless)", script: mcpgenHttp, args: ["--stateless"], mode: "legacy" },
  { name: "SDK (sessions)", script: join(servers, "http-sdk.js"), args: [], mode: "legacy" },
  { name: "SDK (stateless)", script: join(servers, "http-sdk.js"), args: ["--stateless"], mode: "legacy" },
  { name: "SDK v2 (legacy, stateless)", script: join(servers, "http-sdk-v2.js"), args: [], mode: "legacy" },
  { name: "floor, per-request body", script: join(servers, "http-floor.js"), args: [], mode: "per-request" },
  { name: "mcpgen (per-request)", script: mcpgenHttp, args: [], mode: "per-request" },
  { name: "SDK v2 (per-request)", script: join(servers, "http-sdk-v2.js"), args: [], mode: "per-request" },
];
/** The floor each mode's rows are compared with. */
const floors: Record<Mode, string> = { legacy: "floor (node:http)", "per-request": "floor, per-request body" };

const countInstructions = options.has("--instructions");
const targets = allTargets.filter(
  (t) =>
    t.name === floors[t.mode] ||
    (t.name === CONTROL && !countInstructions) ||
    (only === undefined
      ? !countInstructions || t.name.startsWith("mcpgen")
      : only.some((word) => t.name.includes(word))),
);

if (countInstructions) {
  // Two runs per server under callgrind, the same warm-up in both, the calls in one: their
  // difference is the calls' alone (the start, the warm-up and the exit cancel out).
  const warm = quick ? 10 : 1_500;
  const calls = quick ? 20 : 300;
  const run = (target: (typeof targets)[number], measured: number) =>
    instructionsOf([target.script, ...target.args], async (url) => {
      const team = Array.from({ length: clients }, () => new BenchClient(url, target.mode));
      await Promise.all(team.map((c) => c.open()));
      await Promise.all(team.map((c) => c.run(warm, [])));
      if (measured > 0) await Promise.all(team.map((c) => c.run(measured, [])));
      for (const c of team) c.close();
    });
  const perRequest = new Map<string, number>();
  for (const target of targets) {
    const [base, full] = await Promise.all([run(target, 0), run(target, calls)]);
    perRequest.set(target.name, (full - base) / (clients * calls));
  }
  console.log(host.line);
  console.log(
    `tools/call over Streamable HTTP, Node ${process.version}; 20 tools registered; instructions the server executed ` +
      `per request (callgrind, user space, V8 single-threaded), ${clients} keep-alive clients x ${calls} calls after ${warm} each\n`,
  );
  const rows = targets.map((t) => [
    t.name,
    (perRequest.get(t.name)! / 1000).toFixed(1),
    `${(perRequest.get(t.name)! / perRequest.get(floors[t.mode])!).toFixed(2)}×`,
  ]);
  printTable(["server", "k instr/req", "×floor"], rows);
  console.log(
    `\nAn instruction count moves less between runs than time on a busy machine (here ±5-10% a request: a full GC falls in one run or the other); time does not follow it one for one (cache misses, mispredicted branches).`,
  );
  process.exit(0);
}

/** One measuring window of a server: `callsPerClient` calls of every client, after a lead-in. */
interface Window {
  rps: number;
  /** The server's CPU time (user + system) over the window, in clock ticks (TICKS_PER_SECOND). */
  cpuTicks: number;
}

/** A server child, warmed up, with its clients connected. */
interface Running {
  target: (typeof targets)[number];
  child: ChildProcess;
  team: BenchClient[];
  exited: Promise<void>;
}

/**
 * Every server process started, from its spawn on. Whatever ends the run (a failed call, a deadline,
 * ^C, a SIGTERM), none outlives it: they read no input whose end would stop them.
 */
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const)
  process.once(signal, () => process.exit(code));

async function start(target: (typeof targets)[number]): Promise<Running> {
  const child = spawn(process.execPath, [...nodeArgs, target.script, ...target.args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  try {
    const url = await withDeadline(
      new Promise<string>((resolve) => {
        child.stdout.setEncoding("utf8");
        child.stdout.once("data", (line: string) => resolve(line.trim().split("\n")[0]!));
      }),
      `${target.name}: printing its URL`,
    );
    const team = Array.from({ length: clients }, () => new BenchClient(url, target.mode));
    await withDeadline(
      (async () => {
        await Promise.all(team.map((c) => c.open()));
        await Promise.all(team.map((c) => c.run(warmupPerClient, [])));
      })(),
      `${target.name}: the warm-up`,
    );
    freeze(child);
    return { target, child, team, exited };
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

/** A window or warm-up that has not ended after this long is a hung server or driver: the run fails. */
const DEADLINE_MS = 300_000;

async function withDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${DEADLINE_MS / 1000} s`)), DEADLINE_MS);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A turn of a server: let go, the lead-in, the window (its latencies added to `latencies`), stopped again. */
async function measureWindow(server: Running, latencies: number[]): Promise<Window> {
  thaw(server.child);
  await withDeadline(
    Promise.all(server.team.map((c) => c.run(leadInPerClient, []))),
    `${server.target.name}: a lead-in of ${leadInPerClient} calls a client`,
  );
  const cpuBefore = cpuTicks(server.child.pid!);
  const began = performance.now();
  await withDeadline(
    Promise.all(server.team.map((c) => c.run(callsPerClient, latencies))),
    `${server.target.name}: a window of ${callsPerClient} calls a client`,
  );
  const seconds = (performance.now() - began) / 1000;
  const window = { rps: (clients * callsPerClient) / seconds, cpuTicks: cpuTicks(server.child.pid!) - cpuBefore };
  freeze(server.child);
  return window;
}

/** A server's peak RSS so far (VmHWM), in MB. */
function peakRssMb(server: Running): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN) / 1024;
}

async function stop(server: Running): Promise<void> {
  thaw(server.child);
  for (const c of server.team) c.close();
  server.child.kill("SIGTERM");
  await server.exited;
}

/** USER_HZ: the unit of utime and stime in /proc/<pid>/stat (100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The CPU time (user + system, in ticks) a process has used so far. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
const median = (values: number[]) => percentile(values, 0.5);

// Every server runs from start to end of the rounds, warmed up once. Each row has a floor of its
// own (another process of the same floor script), measured right before or after it in every
// block, and every process serves one window a block. Why: this machine's speed moves within
// seconds (by a fifth from one window to the next at times, README), so a row is compared with its
// floor of the same moment, in many short turns rather than a few long ones; and a floor shared by
// several rows would serve more windows than they do and rest less between them, where here every
// process serves as many and rests as long.
const running: Running[] = [];
const floorTarget = (mode: Mode) => targets.find((t) => t.name === floors[mode])!;
const rowTargets = targets.filter((t) => t.name !== floors[t.mode]);
/** Each row with its floor; a floor without rows (--only) is measured alone, for its line of the table. */
const pairs: { row: Running | undefined; floor: Running }[] = [];
for (const target of rowTargets) {
  const row = await start(target);
  running.push(row);
  const floor = await start(floorTarget(target.mode));
  running.push(floor);
  pairs.push({ row, floor });
}
for (const mode of ["legacy", "per-request"] as const)
  if (!rowTargets.some((t) => t.mode === mode)) {
    const floor = await start(floorTarget(mode));
    running.push(floor);
    pairs.push({ row: undefined, floor });
  }
/** Per server name: the req/s of every block of the processes of that name (a floor's twins together). */
const blockRps = new Map<string, number[]>(targets.map((t) => [t.name, []]));
/** Per server name: each round's p50 and p99 latency of each process of that name. */
const roundLatencies = new Map<string, { p50: number; p99: number }[]>(targets.map((t) => [t.name, []]));
/** Per process: its CPU µs per request, one a round (over the round's windows). */
const roundCpuUs = new Map<Running, number[]>(running.map((r) => [r, []]));
/** Per row: its req/s and its floor's, block by block (the same turn). */
const paired = new Map<string, { row: number[]; floor: number[] }>(
  rowTargets.map((t) => [t.name, { row: [], floor: [] }]),
);
/** Per process: its peak RSS (VmHWM) once it has served the warm-up and every round. */
const peaks = new Map<Running, number>();
for (let round = 0; round < rounds; round++) {
  const latencies = new Map<Running, number[]>(running.map((r) => [r, []]));
  const ticks = new Map<Running, number>(running.map((r) => [r, 0]));
  const measure = async (server: Running) => {
    const window = await measureWindow(server, latencies.get(server)!);
    blockRps.get(server.target.name)!.push(window.rps);
    ticks.set(server, ticks.get(server)! + window.cpuTicks);
    return window;
  };
  for (let block = 0; block < blocks; block++) {
    const turn = round * blocks + block;
    for (let i = 0; i < pairs.length; i++) {
      const { row, floor } = pairs[(i + turn) % pairs.length]!;
      if (!row) {
        await measure(floor);
        continue;
      }
      let own: Window;
      let base: Window;
      if (turn % 2 === 0) {
        own = await measure(row);
        base = await measure(floor);
      } else {
        base = await measure(floor);
        own = await measure(row);
      }
      const pair = paired.get(row.target.name)!;
      pair.row.push(own.rps);
      pair.floor.push(base.rps);
    }
  }
  for (const server of running) {
    const own = latencies.get(server)!;
    roundLatencies.get(server.target.name)!.push({ p50: percentile(own, 0.5), p99: percentile(own, 0.99) });
    const seconds = ticks.get(server)! / TICKS_PER_SECOND;
    roundCpuUs.get(server)!.push((seconds * 1e6) / (blocks * clients * callsPerClient));
  }
}
for (const server of running) {
  peaks.set(server, peakRssMb(server));
  await stop(server);
}

const summary = targets.map((t) => {
  const isFloor = t.name === floors[t.mode];
  const pair = pairs.find((p) => p.row?.target === t);
  const blocksPaired = paired.get(t.name);
  const ownCpu = pairs
    .filter((p) => (isFloor ? p.floor : p.row)?.target === t)
    .flatMap((p) => {
      const server = isFloor ? p.floor : p.row!;
      return roundCpuUs.get(server)!;
    });
  // CPU ×floor: each round's CPU µs a request ÷ the floor process's of the same round; undefined when a
  // floor's round took no clock tick of CPU (--quick).
  const cpuRatios = pair
    ? roundCpuUs
        .get(pair.row!)!
        .map((us, round) => us / roundCpuUs.get(pair.floor)![round]!)
        .filter(Number.isFinite)
    : [];
  // A row's peak RSS beyond the floor's is its own less its twin floor's; a floor shows the median of its twins'.
  const floorPeaks = pairs.filter((p) => p.floor.target === t).map((p) => peaks.get(p.floor)!);
  const latency = roundLatencies.get(t.name)!;
  return {
    name: t.name,
    mode: t.mode,
    rps: median(blockRps.get(t.name)!),
    /** The median over blocks of the row's req/s ÷ its floor's in the same turn. */
    ratio: isFloor ? 1 : pairedRatio(blocksPaired!.row, blocksPaired!.floor),
    /** The middle half of those per-block ratios: how far one block's ratio moves in this run. */
    ratioRange: isFloor ? undefined : pairedMiddleHalf(blocksPaired!.row, blocksPaired!.floor),
    cpuRatio: isFloor ? 1 : cpuRatios.length > 0 ? median(cpuRatios) : undefined,
    p50: median(latency.map((l) => l.p50)),
    p99: median(latency.map((l) => l.p99)),
    rssMb: isFloor ? median(floorPeaks) : peaks.get(pair!.row!)!,
    rssBeyondFloor: isFloor ? 0 : peaks.get(pair!.row!)! - peaks.get(pair!.floor)!,
    cpuUs: median(ownCpu),
  };
});

console.log(host.line);
console.log(
  `tools/call over Streamable HTTP, Node ${process.version}; 20 tools registered; ${clients} keep-alive clients; ` +
    `each server warmed up with ${warmupPerClient} calls a client, then ${rounds} round(s) of ${blocks} blocks, ` +
    `in each block every row and its own floor process one after the other, ${callsPerClient} calls a client each after ` +
    `${leadInPerClient} not counted; ${idleProcesses()}\n`,
);
const header = [
  "server",
  "req/s",
  "×floor",
  "blocks' ×floor",
  "p50 µs",
  "p99 µs",
  "CPU µs/req",
  "CPU ×floor",
  "peak RSS MB",
];
const rows = summary.map((s) => [
  s.name,
  s.rps.toFixed(0),
  `${s.ratio.toFixed(2)}×`,
  s.ratioRange === undefined ? "-" : `${s.ratioRange.low.toFixed(2)}–${s.ratioRange.high.toFixed(2)}`,
  s.p50.toFixed(0),
  s.p99.toFixed(0),
  s.cpuUs.toFixed(1),
  s.cpuRatio === undefined ? "-" : `${s.cpuRatio.toFixed(2)}×`,
  s.rssMb.toFixed(1),
]);
printTable(header, rows);
console.log(
  `\nreq/s: the median of the blocks; p50, p99: the median of the rounds'; CPU µs/req: over a round's windows, the median of the rounds. ` +
    `×floor: the median over blocks of the row's req/s ÷ its floor's in the same block, measured one after the other; blocks' ×floor: ` +
    `the middle half of those ratios (the first to the third quartile); CPU ×floor: the median over rounds of the CPU µs/req ÷ the floor's; ` +
    `legacy rows (2025-11-25, handshake) against "${floors.legacy}", per-request rows (2026-07-28, _meta and Mcp-* headers) ` +
    `against "${floors["per-request"]}". Peak RSS: over each process's run (a floor's line: the median of its processes'; a row's target: beyond its own floor process's).`,
);

// Issue #14's targets for mcpgen's three modes.
const httpTargets: Target[] = summary
  .filter((s) => s.name.startsWith("mcpgen"))
  .flatMap((s) => [
    {
      what: `${s.name}: req/s ÷ floor`,
      value: s.ratio,
      range: { of: "blocks' middle half", ...s.ratioRange! },
      bound: "at least",
      limit: 0.85,
      unit: "×",
    },
    {
      what: `${s.name}: peak RSS − floor's`,
      value: s.rssBeyondFloor,
      bound: "at most",
      limit: 10,
      unit: " MB",
      digits: 1,
    },
  ]);
if (httpTargets.length > 0) {
  console.log(`\nTargets (issue #14):\n${targetLines(httpTargets)}`);
  // What this run's noise alone makes of a ratio of 1: a judged ratio means no more than this.
  const control = summary.find((s) => s.name === CONTROL);
  if (control?.ratioRange)
    console.log(
      `(the control, the floor again: ${control.ratio.toFixed(2)}× (blocks' middle half ` +
        `${control.ratioRange.low.toFixed(2)}×–${control.ratioRange.high.toFixed(2)}×))`,
    );
}

if (only === undefined || only.includes("cluster")) {
  console.log("");
  const cluster = spawn(
    process.execPath,
    [join(import.meta.dirname, "cluster.js"), ...(quick ? ["--quick"] : []), "--rounds", String(rounds)],
    { stdio: "inherit" },
  );
  const code = await new Promise<number | null>((resolve) => cluster.once("exit", resolve));
  if (code !== 0) throw new Error(`bench/cluster exited with ${code}`);
}
console.log(stealLine(host));
