// Benchmark: an MCP server over stdio, side by side in one run. Each server
// registers 20 tools (echo({ text }) and tool_1..tool_19, one string property
// each; the floor answers anything) and runs as a child process; the driver
// calls echo:
//   floor                 a bare Node process that parses each line and echoes (bench/servers/floor.ts)
//   control               the same floor measured as a row: what the run's noise makes of a ratio of 1
//   floor, per-request    the same floor, sent the per-request lines (below), answering what a 2026-07-28
//                         server does (resultType, _meta serverInfo: echo-floor.ts): the base of the per-request row
//   mcpgen                McpServer + serveStdio (bench/servers/mcpgen-echo.ts) on the runtime
//                         package as a user installs it (packed by packages/pack.mjs: bundled),
//                         legacy era: initialize (2025-11-25) and notifications/initialized first
//   mcpgen (per-request)  the same process in the per-request era (2026-07-28): no initialize;
//                         every tools/call's params carry _meta with the protocol version,
//                         client capabilities and client info
//   mcpgen (dist/)        the same server on the checkout's dist/ (tsc's output, one file per
//                         module, unbundled), legacy era: what the bundle saves
//   mcpgen (bundled with the server)  the installed package's server bundled with its own script into
//                         one ES module by rolldown (bench/bundled.ts), legacy era: what a server's
//                         author saves at start by shipping it bundled
//   mcpgen (startup snapshot)  the same server from a V8 startup snapshot: `mcpgen snapshot` of
//                         bench/servers/snapshot-echo.ts in the installed project, started with
//                         `node --snapshot-blob` (bench/snapshot.ts), in both eras
//   SDK                   @modelcontextprotocol/sdk McpServer + StdioServerTransport (bench/servers/sdk-echo.ts)
// Every answer is checked (the echoed text; on the per-request row also
// resultType "complete"). Figures: tools/call requests per second, one at a
// time and with 64 in flight, with p50/p99 latency; cold start: spawn to the
// initialize response, and for the per-request row (which has no initialize)
// spawn to the first tools/call response; the floor answers any line at once,
// so its cold start is a fair base for both. Beside it, the first call: spawn
// to the answer of a tools/call sent when initialize is answered (a server may
// go on loading after it answers initialize; this is what a client waits for).
// Every round starts every server (in rotating order) and measures them in blocks, the rows taking
// turns block by block; ratios to the floor with the same lines are taken per block (per round for
// p99, per spawn for cold starts, per child in process) and their median shown (bench/targets.ts
// pairedRatio), beside the middle half of the blocks' ratios (the extremes of the rounds' and
// spawns'). Sequential blocks pin the driver and the servers' main threads to CPUs (bench/placement.ts); legacy rows
// to the floor, the per-request row to the floor sent per-request lines (each carries _meta, and
// parsing it is most of a call's cost: about twice a legacy line's).
// Then, in process (bench/servers/in-process.ts, a child per row): each server's
// own work per call, its stdio transport fed 64-line chunks through in-memory
// streams: µs and bytes allocated per call, free of the pipes and of the
// driver's turns on the two cores, which move the figures above between runs.
// Every server runs without NODE_EXTRA_CA_CERTS, which this machine kind sets:
// Node reads those certificates at start (about 80 ms here), a constant that
// would hide the differences the cold start column is for.
//
// Run: npm run bench:stdio [-- --rounds N] [--quick] [--only mcpgen,SDK] [--placement split|same|free] [--cpu-prof DIR]
//   --only      rows whose name contains one of the comma-separated words (the floors and the control always run)
//   --cpu-prof  write a V8 CPU profile of every server child into DIR (figures then include the profiler's cost,
//               and no server is stopped between its turns: bench/freeze.ts)
//   --instructions  instead: the in-process rows' instructions per call (callgrind, valgrind), which repeat
//               within ~1% on a busy machine where the times above move by ±20%, and each row's cold
//               start counted the same way (a process's start to its first answer; within a few percent)
//   --cache     instead: the in-process rows under callgrind's cache simulation, each mcpgen row's instructions
//               and L1 instruction-cache misses per call beside its floor's, by area (bench/callgrind-profile.ts)
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { bundleServer } from "./bundled.js";
import { installedProject } from "./installed.js";
import { snapshotServer } from "./snapshot.js";
import { SIMULATED_CACHES_TEXT, instructionsOfScript, profileOfScript } from "./instructions.js";
import { areaRows, difference, topFunctions, totals, type CallgrindProfile } from "./callgrind-profile.js";
import { printTable } from "./table.js";
import { pairedMiddleHalf, pairedRange, pairedRatio, targetLines, type Target } from "./targets.js";
import { pinningOf, placementOption } from "./placement.js";
import { printServerTime } from "./stdio-server-time.js";
import { idleProcesses, stopIdleProcesses } from "./freeze.js";
import { benchOptions, onlyWords, profileFlags, sharedOptions } from "./options.js";
import {
  callLine,
  childEnv,
  interleavedRound,
  INITIALIZE,
  percentile,
  startServer,
  stdioWarmUp,
  type Mode,
  type RoundFigures,
  type RoundPlan,
} from "./stdio-driver.js";
import { hostAtStart, stealLine } from "./host.js";

/** The machine and its load as the run starts, before the run loads it (bench/host.ts). */
const host = hostAtStart();

const options = benchOptions(
  "stdio.js",
  "tools/call over stdio beside the official SDK and a bare-Node floor, and in process.",
  [
    sharedOptions.rounds(5),
    sharedOptions.quick,
    sharedOptions.only("floors and control"),
    sharedOptions.cpuProf("server"),
    {
      name: "--instructions",
      help: "instead of timed rounds: instructions per call in process, and to each row's first answer, under callgrind",
    },
    placementOption,
    {
      name: "--cache",
      help: "instead of timed rounds: where the in-process rows' instructions and instruction-cache misses go, by area (callgrind's cache simulation, ~15 minutes)",
    },
    {
      name: "--server-time",
      help: "instead of timed rounds: each server's own time per sequential call, before its answer's write and in the write, timed in the server (bench/stdio-server-time.ts)",
    },
  ],
);
const quick = options.has("--quick");
const rounds = options.number("--rounds", quick ? 1 : 5);
// Each round measures every row in blocks, the rows taking turns block by block (see interleavedRound).
const blocks = quick ? 3 : 10;
const sequentialBlock = quick ? 100 : 500;
const pipelinedBlock = quick ? 640 : 4_000;
const sequentialCalls = blocks * sequentialBlock;
const pipelinedCalls = blocks * pipelinedBlock;
const { pipelined: warmupCalls, sequential: sequentialWarmupCalls } = stdioWarmUp(quick);
const inFlight = 64;
const coldStarts = quick ? 3 : 15;
const inProcessCalls = quick ? 12_800 : 128_000;
const inProcessRounds = quick ? 1 : 3;

const cpus = pinningOf(options, "stdio.js");
const only = onlyWords(options);
const nodeArgs = profileFlags(options);
// A stopped process's profile charges the stop to its next sample (bench/freeze.ts).
stopIdleProcesses(nodeArgs.length === 0);

const servers = join(import.meta.dirname, "servers");
const root = join(import.meta.dirname, "..", "..");
const installed = installedProject(root, [
  join(servers, "mcpgen-echo.js"),
  join(servers, "snapshot-echo.js"),
  join(servers, "echo-mcpgen.js"),
  join(servers, "in-process.js"),
  join(servers, "echo-floor.js"),
]);
process.on("exit", installed.remove);
const bundledServer = await bundleServer(installed.dir, "mcpgen-echo.js", "bundled");
const CONTROL = "control: the floor again";
const SNAPSHOT = "mcpgen (startup snapshot)";
/** A row: `script`, or the node arguments that start it (`args`, a snapshot's blob). */
const allTargets: { name: string; script: string; args?: string[]; mode: Mode }[] = [
  { name: "floor (bare Node)", script: join(servers, "floor.js"), mode: "legacy" },
  // The control: the floor measured as a row. Its ratios are what this run's noise alone makes of a
  // server exactly as fast as its floor (the other rows' ratios are worth no more than its distance from 1.00×).
  { name: CONTROL, script: join(servers, "floor.js"), mode: "legacy" },
  { name: "floor, per-request body", script: join(servers, "floor.js"), mode: "per-request" },
  { name: "mcpgen", script: join(installed.dir, "mcpgen-echo.js"), mode: "legacy" },
  { name: "mcpgen (per-request)", script: join(installed.dir, "mcpgen-echo.js"), mode: "per-request" },
  { name: "mcpgen (dist/)", script: join(servers, "mcpgen-echo.js"), mode: "legacy" },
  { name: "mcpgen (bundled with the server)", script: bundledServer, mode: "legacy" },
  { name: SNAPSHOT, script: "snapshot-echo.blob", mode: "legacy" },
  { name: `${SNAPSHOT}, per-request`, script: "snapshot-echo.blob", mode: "per-request" },
  { name: "SDK", script: join(servers, "sdk-echo.js"), mode: "legacy" },
];
const FLOOR = "floor (bare Node)";
const PER_REQUEST_FLOOR = "floor, per-request body";
const targets = allTargets.filter(
  (t) =>
    only === undefined ||
    t.name.startsWith("floor") ||
    t.name === CONTROL ||
    only.some((word) => t.name.includes(word)),
);
// Built for the timed rows only: --instructions and --cache count what first-answer.js and
// in-process.js import, which a snapshot is not.
const timed = !options.has("--instructions") && !options.has("--cache");
if (timed && targets.some((t) => t.name.startsWith(SNAPSHOT))) {
  const args = snapshotServer(root, installed.dir, "snapshot-echo.js", "snapshot-echo.blob");
  for (const t of targets) if (t.name.startsWith(SNAPSHOT)) t.args = args;
}
/** The node arguments that start a row's server. */
const argsOf = (t: { script: string; args?: string[] }) => t.args ?? [t.script];

const inProcessRows: { name: string; dir: string; row: string; floor: string }[] = [
  { name: FLOOR, dir: servers, row: "floor", floor: FLOOR },
  { name: PER_REQUEST_FLOOR, dir: servers, row: "floor-per-request", floor: PER_REQUEST_FLOOR },
  { name: "mcpgen", dir: installed.dir, row: "mcpgen", floor: FLOOR },
  { name: "mcpgen (per-request)", dir: installed.dir, row: "mcpgen-per-request", floor: PER_REQUEST_FLOOR },
  { name: "SDK", dir: servers, row: "sdk", floor: FLOOR },
].filter((r) => targets.some((t) => t.name === r.name));

/** What a row is measured against: the floor sent the same kind of lines (per-request lines are longer). */
const floorNameOf = (name: string) =>
  targets.find((t) => t.name === name)!.mode === "per-request" ? PER_REQUEST_FLOOR : FLOOR;

if (options.has("--cache")) {
  // The --instructions windows under callgrind's cache simulation, each mcpgen row beside its floor: the
  // timed ratios move with more than the instruction count (bench/RESULTS.md), and this shows what.
  const warm = quick ? 640 : 20_000;
  const calls = quick ? 640 : 20_000;
  const rows = inProcessRows.filter((row) => row.name !== "SDK");
  console.log(host.line);
  const profiles = new Map<string, CallgrindProfile>();
  await Promise.all(
    rows.map(async (row) => {
      const [base, full] = await Promise.all(
        [0, calls].map((measured) =>
          profileOfScript(["--expose-gc", join(row.dir, "in-process.js"), row.row, String(measured), String(warm)], {
            timeoutMs: 3_600_000,
          }),
        ),
      );
      profiles.set(row.name, difference(base!, full!, calls));
    }),
  );
  for (const row of rows.filter((r) => r.name !== r.floor)) {
    const floor = profiles.get(row.floor)!;
    const ours = profiles.get(row.name)!;
    console.log(
      `\n${row.name} beside ${row.floor}: tools/call in process (64 in flight), per call (${calls} calls after ${warm}; ` +
        `callgrind's cache and branch simulation, ${SIMULATED_CACHES_TEXT}; V8 single-threaded, seeds pinned; JIT code named from V8's perf map). ` +
        `An L1 instruction-cache miss that L2 serves costs ~10–15 cycles.\n`,
    );
    printTable(["area", `instructions: ${row.floor}`, row.name, "L1i misses: floor", row.name], areaRows(floor, ours));
    console.log(
      `\nL1 data-cache read misses ${totals("D1mr", floor, ours).join(" and ")}; mispredicted conditional branches ` +
        `${totals("Bcm", floor, ours).join(" and ")} (${row.floor}, ${row.name}).`,
    );
    console.log(`\nThe JavaScript and builtins with the most L1 instruction-cache misses a call, ${row.name}:`);
    printTable(["function", "instructions", "L1i misses"], topFunctions(ours, 15));
  }
  process.exit(0);
}

if (options.has("--instructions")) {
  // The in-process rows' own work per call in instructions (callgrind; bench/instructions.ts), which
  // the machine's load does not move: each row run twice with the same warm-up, the calls in one.
  const warm = quick ? 640 : 20_000;
  const calls = quick ? 640 : 20_000;
  const count = (row: (typeof inProcessRows)[number], measured: number) =>
    instructionsOfScript(["--expose-gc", join(row.dir, "in-process.js"), row.row, String(measured), String(warm)]);
  const perCall = new Map<string, number>();
  for (const row of inProcessRows) {
    const [base, full] = await Promise.all([count(row, 0), count(row, calls)]);
    perCall.set(row.name, (full - base) / calls);
  }
  console.log(host.line);
  console.log(
    `tools/call in process (bench/servers/in-process.ts, 64 in flight), Node ${process.version}; instructions per call ` +
      `(callgrind, user space, V8 single-threaded, random and hash seeds pinned), ${calls} calls after ${warm}\n`,
  );
  printTable(
    ["server", "k instr/call", "×floor"],
    inProcessRows.map((row) => [
      row.name,
      (perCall.get(row.name)! / 1000).toFixed(2),
      `${(perCall.get(row.name)! / perCall.get(row.floor)!).toFixed(2)}×`,
    ]),
  );
  console.log(
    `\nEach call's line is built by the driver in the same process (the same cost in every row). Two runs of the same build agree within ~1%.`,
  );

  // The cold start counted: a process's start to its first answer (bench/servers/first-answer.ts
  // ends it there), each row sent the first line its cold start column waits on. Node runs as a user
  // starts it (its own threads and seeds), so counts move by a few percent: the median of three.
  // A snapshot's server is not a script first-answer.js can import: its rows are timed only.
  const coldRows = targets.filter((t) => t.name !== CONTROL && !t.name.startsWith(SNAPSHOT));
  const firstAnswer = join(servers, "first-answer.js");
  const started = new Map<string, number>();
  const startCounts = quick ? 1 : 3;
  for (const t of coldRows) {
    const counts: number[] = [];
    for (let i = 0; i < startCounts; i++)
      counts.push(
        await instructionsOfScript([firstAnswer, t.script], {
          input: t.mode === "per-request" ? callLine(0, t.mode) : INITIALIZE + "\n",
          asStarted: true,
        }),
      );
    started.set(t.name, counts.sort((a, b) => a - b)[counts.length >> 1]!);
  }
  console.log(
    `\ncold start in instructions: the process's start to its first answer (initialize; per-request rows: the first tools/call), ` +
      `then exit; callgrind, node as a user starts it (see instructionsOfScript), the median of ${startCounts} start(s)\n`,
  );
  printTable(
    ["server", "M instr", "×floor"],
    coldRows.map((t) => [
      t.name,
      (started.get(t.name)! / 1e6).toFixed(1),
      `${(started.get(t.name)! / started.get(floorNameOf(t.name))!).toFixed(2)}×`,
    ]),
  );
  process.exit(0);
}

/** Spawn to the initialize answer (the target's measure), and to the answer of the first tools/call after it. */
async function coldStart(args: readonly string[], mode: Mode): Promise<{ answer: number; call: number }> {
  const server = startServer(args, mode, nodeArgs);
  const answer = await server.initialize();
  const call = await server.firstCall();
  await server.stop();
  return { answer, call };
}

const median = (values: number[]) => percentile(values, 0.5);

const results = new Map<string, RoundFigures[]>(targets.map((t) => [t.name, []]));
const starts = new Map<string, number[]>(targets.map((t) => [t.name, []]));
const firstCalls = new Map<string, number[]>(targets.map((t) => [t.name, []]));
const roundPlan: RoundPlan = {
  nodeArgs,
  pinning: cpus,
  warmUp: { pipelined: warmupCalls, sequential: sequentialWarmupCalls },
  leadIn: { pipelined: quick ? 64 : 512, sequential: quick ? 10 : 50 },
  inFlight,
  blocks,
  sequentialBlock,
  pipelinedBlock,
};
if (options.has("--server-time")) {
  // A startup snapshot's row starts from its blob, where a preload has no place: left out.
  const probed = targets.filter((t) => !t.name.startsWith(SNAPSHOT));
  await printServerTime(
    probed.map((t) => ({ name: t.name, args: argsOf(t), mode: t.mode })),
    roundPlan,
    join(servers, "write-probe.js"),
  );
  process.exit(0);
}
for (let round = 0; round < rounds; round++) {
  // Started in rotating order, the first row's server warmed up longest before it is measured.
  const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
  const rows = order.map((t) => ({ name: t.name, args: argsOf(t), mode: t.mode }));
  for (const [name, figures] of await interleavedRound(rows, roundPlan)) results.get(name)!.push(figures);
}
// Cold starts as a user's server starts: wherever the scheduler puts it (interleavedRound let the driver go).
for (let i = 0; i < coldStarts; i++)
  for (const target of targets) {
    const { answer, call } = await coldStart(argsOf(target), target.mode);
    starts.get(target.name)!.push(answer);
    firstCalls.get(target.name)!.push(call);
  }

const summary = targets.map((t) => {
  const figures = results.get(t.name)!;
  const floorFigures = results.get(floorNameOf(t.name))!;
  // Throughput: every block of every round, each paired with its floor's block of the same turn; the
  // latencies' percentiles per round (a block's 500 calls would make a p99 of its five slowest).
  type Blocks = "sequential" | "pipelined";
  const blocksOf = (of: RoundFigures[], key: Blocks) => of.flatMap((f) => f[key]);
  const percentiles = (of: RoundFigures[], key: "seqLatencies" | "pipeLatencies", p: number) =>
    of.map((f) => percentile(f[key], p));
  const byBlock = (key: Blocks) => [blocksOf(figures, key), blocksOf(floorFigures, key)] as const;
  const byRound = (key: "seqLatencies" | "pipeLatencies") =>
    [percentiles(figures, key, 0.99), percentiles(floorFigures, key, 0.99)] as const;
  return {
    name: t.name,
    sequential: median(blocksOf(figures, "sequential")),
    seqP50: median(percentiles(figures, "seqLatencies", 0.5)),
    seqP99: median(percentiles(figures, "seqLatencies", 0.99)),
    pipelined: median(blocksOf(figures, "pipelined")),
    pipeP50: median(percentiles(figures, "pipeLatencies", 0.5)),
    pipeP99: median(percentiles(figures, "pipeLatencies", 0.99)),
    cold: median(starts.get(t.name)!),
    firstCall: median(firstCalls.get(t.name)!),
    // Ratios per block, round or spawn, then their median: see pairedRatio.
    ratios: {
      sequential: pairedRatio(...byBlock("sequential")),
      seqP99: pairedRatio(...byRound("seqLatencies")),
      pipelined: pairedRatio(...byBlock("pipelined")),
      pipeP99: pairedRatio(...byRound("pipeLatencies")),
      cold: pairedRatio(starts.get(t.name)!, starts.get(floorNameOf(t.name))!),
      firstCall: pairedRatio(firstCalls.get(t.name)!, firstCalls.get(floorNameOf(t.name))!),
    },
    /** The spread of the ratios behind each target's median: the blocks' middle half, the rounds' or spawns' extremes. */
    ranges: {
      sequential: { of: "blocks' middle half", ...pairedMiddleHalf(...byBlock("sequential")) },
      seqP99: { of: "rounds", ...pairedRange(...byRound("seqLatencies")) },
      pipelined: { of: "blocks' middle half", ...pairedMiddleHalf(...byBlock("pipelined")) },
      pipeP99: { of: "rounds", ...pairedRange(...byRound("pipeLatencies")) },
      cold: { of: "spawns", ...pairedRange(starts.get(t.name)!, starts.get(floorNameOf(t.name))!) },
    },
  };
});
const ratio = (value: number) => `${value.toFixed(2)}×`;

console.log(host.line);
console.log(
  `tools/call over stdio, Node ${process.version}; 20 tools registered; ${rounds} round(s), each row a round: ${sequentialCalls} sequential calls ` +
    `and ${pipelinedCalls} with ${inFlight} in flight, in ${blocks} blocks of each, the rows taking turns block by block, ` +
    `after a warm-up of ${warmupCalls} calls ${inFlight} in flight and ${sequentialWarmupCalls} sequential; ` +
    `CPUs: ${cpus.description}; ${idleProcesses()}; cold start: median of ${coldStarts} spawns, not pinned\n`,
);
const header = [
  "server",
  "seq req/s",
  "×floor",
  "p50 µs",
  "p99 µs",
  `${inFlight}-deep req/s`,
  "×floor",
  "p50 µs",
  "p99 µs",
  "cold start ms",
  "×floor",
  "first call ms",
  "×floor",
];
const rows = summary.map((s) => [
  s.name,
  s.sequential.toFixed(0),
  ratio(s.ratios.sequential),
  s.seqP50.toFixed(0),
  s.seqP99.toFixed(0),
  s.pipelined.toFixed(0),
  ratio(s.ratios.pipelined),
  s.pipeP50.toFixed(0),
  s.pipeP99.toFixed(0),
  s.cold.toFixed(1),
  ratio(s.ratios.cold),
  s.firstCall.toFixed(1),
  ratio(s.ratios.firstCall),
]);
printTable(header, rows);
console.log(
  `\ncold start: spawn to the initialize response; for mcpgen (per-request), which sends no initialize, ` +
    `spawn to the first tools/call response (the per-request floor's too). first call: spawn to the answer of the first tools/call, ` +
    `sent when the initialize answer arrives (notifications/initialized before it), on per-request rows the cold start itself: ` +
    `what a client waits for before its first result (a legacy server may go on loading after it answers initialize). req/s: the median of the blocks; ×floor: the median over blocks (rounds for p99, spawns for the cold start) ` +
    `of the row's figure ÷ the floor's of the same block (round, spawn); legacy rows against "${FLOOR}", ` +
    `per-request rows against "${PER_REQUEST_FLOOR}" (the same lines: _meta on every call; the same answers: resultType and _meta serverInfo).`,
);

// Issue #14's targets, for the installed package in both eras; and the cold start of the same server from a
// startup snapshot (the rest of its figures are the same server's code as the installed package's rows).
const judged = summary.filter((s) => s.name === "mcpgen" || s.name === "mcpgen (per-request)");
const fromSnapshot = summary.filter((s) => s.name.startsWith(SNAPSHOT));
type Row = (typeof summary)[number];
/** One ratio target of a row: its median, the rounds' (spawns') range behind it, and the bound. */
const ratioTarget = (
  s: Row,
  what: string,
  key: keyof Row["ranges"],
  bound: Target["bound"],
  limit: number,
): Target => ({ what: `${s.name}: ${what}`, value: s.ratios[key], range: s.ranges[key], bound, limit, unit: "×" });
const stdioTargets: Target[] = [
  ...judged.flatMap((s) => [
    ratioTarget(s, "sequential req/s ÷ floor", "sequential", "at least", 0.9),
    ratioTarget(s, `${inFlight}-deep req/s ÷ floor`, "pipelined", "at least", 1),
    ratioTarget(s, "sequential p99 ÷ floor's", "seqP99", "at most", 1.5),
    ratioTarget(s, `${inFlight}-deep p99 ÷ floor's`, "pipeP99", "at most", 1.5),
    ratioTarget(s, "cold start ÷ floor", "cold", "at most", 1.2),
  ]),
  ...fromSnapshot.map((s) => ratioTarget(s, "cold start ÷ floor", "cold", "at most", 1.2)),
];
if (stdioTargets.length > 0)
  console.log(
    `\nTargets (issue #14):\n${targetLines(stdioTargets)}\n` +
      `(blocks' middle half: the first to the third quartile of the ratios, one a block, whose median is judged; ` +
      `rounds, spawns: the lowest and highest of the ratios, one a round or a spawn)`,
  );
// What this run's noise alone makes of a ratio of 1: a judged ratio means no more than this.
const control = summary.find((s) => s.name === CONTROL);
if (control && stdioTargets.length > 0) {
  const spread = (key: "sequential" | "pipelined") =>
    `${ratio(control.ratios[key])} (blocks' middle half ${ratio(control.ranges[key].low)}–${ratio(control.ranges[key].high)})`;
  console.log(
    `(the control, the floor again: sequential ${spread("sequential")}, ${inFlight}-deep ${spread("pipelined")})`,
  );
}

// In process (bench/servers/in-process.ts): each server's own work per call, its stdio transport
// fed through in-memory streams, without the pipes and the driver's turns on the cores that make
// the table above move by ±0.2× between runs. A child per row and round; medians.

/** µs and bytes allocated per call, from one child: the bytes are V8's allocated= between its two full collections. */
function inProcess(dir: string, row: string): { us: number; bytes: number } {
  const out = execFileSync(
    process.execPath,
    ["--expose-gc", "--trace-gc-nvp", join(dir, "in-process.js"), row, String(inProcessCalls)],
    { cwd: dir, env: childEnv, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  const measured = out.slice(out.indexOf("MEASURE\n"));
  let bytes = 0;
  for (const match of measured.matchAll(/allocated=(\d+)/g)) bytes += Number(match[1]);
  const { usPerCall } = JSON.parse(measured.trim().split("\n").at(-1)!) as { usPerCall: number };
  return { us: usPerCall, bytes: bytes / inProcessCalls };
}

const inProcessFigures = new Map<string, { us: number[]; bytes: number[] }>(
  inProcessRows.map((r) => [r.name, { us: [], bytes: [] }]),
);
for (let round = 0; round < inProcessRounds; round++)
  for (const r of inProcessRows) {
    const { us, bytes } = inProcess(r.dir, r.row);
    inProcessFigures.get(r.name)!.us.push(us);
    inProcessFigures.get(r.name)!.bytes.push(bytes);
  }
const inProcessMedian = (name: string) => {
  const figures = inProcessFigures.get(name)!;
  return { us: median(figures.us), bytes: median(figures.bytes) };
};
console.log(
  `\nIn process: the server's own work per tools/call, its stdio transport fed ${inProcessCalls} calls in chunks of 64 ` +
    `through in-memory streams (no pipe, no second process); medians of ${inProcessRounds} child(ren) per row\n`,
);
const inProcessHeader = ["server", "µs/call", "×floor", "bytes allocated/call", "beyond floor's"];
const inProcessTable = inProcessRows.map((r) => {
  const own = inProcessMedian(r.name);
  const floor = inProcessMedian(r.floor);
  return [
    r.name,
    own.us.toFixed(2),
    ratio(pairedRatio(inProcessFigures.get(r.name)!.us, inProcessFigures.get(r.floor)!.us)),
    own.bytes.toFixed(0),
    r.name === r.floor ? "" : `${own.bytes >= floor.bytes ? "+" : "-"}${Math.abs(own.bytes - floor.bytes).toFixed(0)}`,
  ];
});
printTable(inProcessHeader, inProcessTable);
console.log(
  `\n×floor (the median of per-child ratios) and beyond floor's: legacy rows against "${FLOOR}", the per-request row against "${PER_REQUEST_FLOOR}". ` +
    `Bytes are what V8 allocated (garbage included) while the calls ran, the chunks' own text too (the floor's figure).`,
);
console.log(stealLine(host));
