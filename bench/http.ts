// Benchmark: an MCP server over Streamable HTTP beside the official SDKs and a
// floor, in one run. Each server registers 20 tools (echo({ text }) and
// tool_1..tool_19, one string property each; the floors answer anything) and
// runs as a child process on loopback; the driver calls echo and checks every
// answer (HTTP 200, the id, the text; per-request: resultType "complete").
// Legacy rows (2025-11-25: initialize and notifications/initialized first, then
// the session id on every request if the server gave one):
//   floor (node:http)          node:http that parses each POST and echoes (servers/http-floor.ts)
//   control: the floor again   the same floor as a row: what the run's noise makes of a ratio of 1
//   mcpgen (sessions)          serveHttp with Mcp-Session-Id sessions, on the runtime package as installed
//   mcpgen (stateless)         serveHttp({ sessions: false })
//   SDK (sessions)             @modelcontextprotocol/sdk (v1) StreamableHTTPServerTransport, one per session
//   SDK (stateless)            v1, a server and transport per request, as the SDK documents
//   SDK v2 (legacy, stateless) @modelcontextprotocol/server createMcpHandler's default legacy serving
// Per-request rows (2026-07-28: no handshake; every POST carries _meta and the
// MCP-Protocol-Version, Mcp-Method and Mcp-Name headers):
//   floor, per-request body    the same floor sent per-request bodies, answering as a 2026-07-28 server does
//   mcpgen (per-request)       serveHttp with default options
//   SDK v2 (per-request)       createMcpHandler + toNodeHandler, a server per request
// 16 clients, each on its own keep-alive connection, call one after the other.
// Every row runs beside a floor process of its own; every process is started
// and warmed up once. Each round measures every pair in blocks: the pairs take
// turns, and within a pair the row and its floor go one right after the other.
// Figures: req/s (median of the blocks), ×floor (median of the per-block
// ratios, with their middle half), p50/p99 latency, the server's CPU time per
// request and its peak RSS (VmHWM).
//
// Run: npm run bench:http [-- --rounds N] [--quick] [--only mcpgen,SDK v2]
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BenchClient, type Mode } from "./http-client.js";
import { installedProject } from "./installed.js";
import { printTable } from "./table.js";
import { median, pairedMiddleHalf, pairedRatio, percentile } from "./stats.js";
import { benchOptions, onlyWords, sharedOptions } from "./options.js";

const options = benchOptions(
  "http.js",
  "tools/call over Streamable HTTP beside the official SDKs and a node:http floor.",
  [sharedOptions.rounds(3), sharedOptions.quick, sharedOptions.only("floors and control")],
);
const quick = options.has("--quick");
const rounds = options.number("--rounds", quick ? 1 : 3);
const clients = 16;
/** A round's blocks, each a turn of every pair; a client's calls in a block's measured window, and before it. */
const blocks = quick ? 2 : 10;
const callsPerClient = quick ? 5 : 150;
// A turn's first calls reopen the connections the server closed while others ran (node:http ends a
// keep-alive connection idle for 5 s): not counted.
const leadInPerClient = quick ? 1 : 15;
// The windows measure the steady state a long-running server is in.
const warmupPerClient = quick ? 5 : 1_500;

const only = onlyWords(options);

const servers = join(import.meta.dirname, "servers");
// mcpgen's rows run on the runtime package as a user installs it (packed, bundled).
const installed = installedProject(join(import.meta.dirname, "..", ".."), [
  join(servers, "http-mcpgen.js"),
  join(servers, "echo-mcpgen.js"),
]);
process.on("exit", installed.remove);
const mcpgenHttp = join(installed.dir, "http-mcpgen.js");
const CONTROL = "control: the floor again";
const allTargets: { name: string; script: string; args: string[]; mode: Mode }[] = [
  { name: "floor (node:http)", script: join(servers, "http-floor.js"), args: [], mode: "legacy" },
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

const targets = allTargets.filter(
  (t) =>
    t.name === floors[t.mode] || t.name === CONTROL || only === undefined || only.some((word) => t.name.includes(word)),
);

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
  const child = spawn(process.execPath, [target.script, ...target.args], {
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

/** A turn of a server: the lead-in, then the window (its latencies added to `latencies`). */
async function measureWindow(server: Running, latencies: number[]): Promise<Window> {
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
  return { rps: (clients * callsPerClient) / seconds, cpuTicks: cpuTicks(server.child.pid!) - cpuBefore };
}

/** A server's peak RSS so far (VmHWM), in MB. */
function peakRssMb(server: Running): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN) / 1024;
}

async function stop(server: Running): Promise<void> {
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

// Every server runs from start to end of the rounds, warmed up once. Each row has a floor of its
// own (another process of the same floor script), measured right before or after it in every
// block, and every process serves one window a block: a shared machine's speed moves within
// seconds, so a row is compared with its floor of the same moment, in many short turns; and a
// floor shared by several rows would serve more windows than they do and rest less between them.
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

console.log(
  `tools/call over Streamable HTTP, Node ${process.version}; 20 tools registered; ${clients} keep-alive clients; ` +
    `each server warmed up with ${warmupPerClient} calls a client, then ${rounds} round(s) of ${blocks} blocks, ` +
    `in each block every row and its own floor process one after the other, ${callsPerClient} calls a client each after ` +
    `${leadInPerClient} not counted\n`,
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
  "beyond floor's",
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
  s.name === floors[s.mode] ? "" : `${s.rssBeyondFloor >= 0 ? "+" : "-"}${Math.abs(s.rssBeyondFloor).toFixed(1)}`,
]);
printTable(header, rows);
console.log(
  `\nreq/s: the median of the blocks; p50, p99: the median of the rounds'; CPU µs/req: over a round's windows, the median of the rounds. ` +
    `×floor: the median over blocks of the row's req/s ÷ its floor's in the same block, measured one after the other; blocks' ×floor: ` +
    `the middle half of those ratios (the first to the third quartile); CPU ×floor: the median over rounds of the CPU µs/req ÷ the floor's; ` +
    `legacy rows (2025-11-25, handshake) against "${floors.legacy}", per-request rows (2026-07-28, _meta and Mcp-* headers) ` +
    `against "${floors["per-request"]}". Peak RSS: over each process's run (a floor's line: the median of its processes'); beyond floor's: a row's less its own floor process's.`,
);
