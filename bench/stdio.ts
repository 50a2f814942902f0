// Benchmark: an MCP server over stdio beside the official SDK and a floor, in
// one run. Each server registers 20 tools (echo({ text }) and tool_1..tool_19,
// one string property each; the floor answers anything) and runs as a child
// process; the driver calls echo and checks every answer. Rows:
//   floor (bare Node)          parses each line and echoes (servers/floor.ts)
//   control: the floor again   the same floor as a row: what the run's noise makes of a ratio of 1
//   floor, per-request body    the same floor sent per-request lines, answering what a 2026-07-28
//                              server does (resultType, _meta serverInfo): the per-request rows' base
//   mcpgen                     McpServer + serveStdio on the runtime package as a user installs it
//                              (packed, bundled); legacy era: initialize (2025-11-25) first
//   mcpgen (per-request)       the same server, 2026-07-28: no initialize, _meta on every call
//   mcpgen (dist/)             the same server on the checkout's dist/ (one file per module)
//   mcpgen (bundled with the server)  the installed package bundled with the server's own script
//                              by rolldown (bundled.ts)
//   mcpgen (startup snapshot)  the same server started from `mcpgen snapshot`'s blob, both eras
//   SDK                        @modelcontextprotocol/sdk McpServer + StdioServerTransport
// Figures: tools/call per second one at a time and with 64 in flight, p50/p99
// latency, cold start (spawn to the initialize answer; per-request rows: to the
// first tools/call's answer) and first call (spawn to the answer of a tools/call
// sent once initialize is answered). Each round starts every server and
// measures them in blocks, the rows taking turns block by block; ×floor is the
// median of the per-block ratios to the floor of the same kind of line (per
// round for p99, per spawn for cold starts).
//
// Run: npm run bench:stdio [-- --rounds N] [--quick] [--only mcpgen,SDK]
import { join } from "node:path";
import { bundleServer } from "./bundled.js";
import { installedProject } from "./installed.js";
import { snapshotServer } from "./snapshot.js";
import { printTable } from "./table.js";
import { median, pairedRatio, percentile } from "./stats.js";
import { benchOptions, onlyWords, sharedOptions } from "./options.js";
import { interleavedRound, startServer, type Mode, type RoundFigures, type RoundPlan } from "./stdio-driver.js";

const options = benchOptions("stdio.js", "tools/call over stdio beside the official SDK and a bare-Node floor.", [
  sharedOptions.rounds(5),
  sharedOptions.quick,
  sharedOptions.only("floors and control"),
]);
const quick = options.has("--quick");
const rounds = options.number("--rounds", quick ? 1 : 5);
const blocks = quick ? 2 : 10;
const sequentialBlock = quick ? 20 : 500;
const pipelinedBlock = quick ? 128 : 4_000;
const inFlight = 64;
const coldStarts = quick ? 1 : 15;
const only = onlyWords(options);

const servers = join(import.meta.dirname, "servers");
const root = join(import.meta.dirname, "..", "..");
const installed = installedProject(root, [
  join(servers, "mcpgen-echo.js"),
  join(servers, "snapshot-echo.js"),
  join(servers, "echo-mcpgen.js"),
  join(servers, "echo-floor.js"),
]);
process.on("exit", installed.remove);
const FLOOR = "floor (bare Node)";
const PER_REQUEST_FLOOR = "floor, per-request body";
const CONTROL = "control: the floor again";
const SNAPSHOT = "mcpgen (startup snapshot)";
/** A row: `script`, or the node arguments that start it (`args`, a snapshot's blob). */
const allTargets: { name: string; script: string; args?: string[]; mode: Mode }[] = [
  { name: FLOOR, script: join(servers, "floor.js"), mode: "legacy" },
  { name: CONTROL, script: join(servers, "floor.js"), mode: "legacy" },
  { name: PER_REQUEST_FLOOR, script: join(servers, "floor.js"), mode: "per-request" },
  { name: "mcpgen", script: join(installed.dir, "mcpgen-echo.js"), mode: "legacy" },
  { name: "mcpgen (per-request)", script: join(installed.dir, "mcpgen-echo.js"), mode: "per-request" },
  { name: "mcpgen (dist/)", script: join(servers, "mcpgen-echo.js"), mode: "legacy" },
  { name: "mcpgen (bundled with the server)", script: "", mode: "legacy" },
  { name: SNAPSHOT, script: "", mode: "legacy" },
  { name: `${SNAPSHOT}, per-request`, script: "", mode: "per-request" },
  { name: "SDK", script: join(servers, "sdk-echo.js"), mode: "legacy" },
];
const targets = allTargets.filter(
  (t) =>
    only === undefined ||
    t.name.startsWith("floor") ||
    t.name === CONTROL ||
    only.some((word) => t.name.includes(word)),
);
for (const t of targets)
  if (t.name === "mcpgen (bundled with the server)")
    t.script = await bundleServer(installed.dir, "mcpgen-echo.js", "bundled");
if (targets.some((t) => t.name.startsWith(SNAPSHOT))) {
  const args = snapshotServer(root, installed.dir, "snapshot-echo.js", "snapshot-echo.blob");
  for (const t of targets) if (t.name.startsWith(SNAPSHOT)) t.args = args;
}
/** The node arguments that start a row's server. */
const argsOf = (t: { script: string; args?: string[] }) => t.args ?? [t.script];
/** What a row is measured against: the floor sent the same kind of lines (per-request lines are longer). */
const floorNameOf = (name: string) =>
  targets.find((t) => t.name === name)!.mode === "per-request" ? PER_REQUEST_FLOOR : FLOOR;

const roundPlan: RoundPlan = {
  warmUp: quick ? { pipelined: 128, sequential: 20 } : { pipelined: 2_000, sequential: 15_000 },
  leadIn: { pipelined: quick ? 64 : 512, sequential: quick ? 5 : 50 },
  inFlight,
  blocks,
  sequentialBlock,
  pipelinedBlock,
};
const results = new Map<string, RoundFigures[]>(targets.map((t) => [t.name, []]));
for (let round = 0; round < rounds; round++) {
  // Started in rotating order: the first row's server is warmed up longest before it is measured.
  const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
  const rows = order.map((t) => ({ name: t.name, args: argsOf(t), mode: t.mode }));
  for (const [name, figures] of await interleavedRound(rows, roundPlan)) results.get(name)!.push(figures);
}

// Cold starts, one row after the other, each spawn's figures paired with its floor's of the same turn.
const starts = new Map<string, number[]>(targets.map((t) => [t.name, []]));
const firstCalls = new Map<string, number[]>(targets.map((t) => [t.name, []]));
for (let i = 0; i < coldStarts; i++)
  for (const target of targets) {
    const server = startServer(argsOf(target), target.mode);
    starts.get(target.name)!.push(await server.initialize());
    firstCalls.get(target.name)!.push(await server.firstCall());
    await server.stop();
  }

type Blocks = "sequential" | "pipelined";
type Latencies = "seqLatencies" | "pipeLatencies";
const summary = targets.map((t) => {
  const figures = results.get(t.name)!;
  const floorFigures = results.get(floorNameOf(t.name))!;
  // Throughput per block, paired with the floor's block of the same turn; latency percentiles per round
  // (a block's few hundred calls would make a p99 of its slowest few).
  const blocksOf = (of: RoundFigures[], key: Blocks) => of.flatMap((f) => f[key]);
  const percentiles = (of: RoundFigures[], key: Latencies, p: number) => of.map((f) => percentile(f[key], p));
  const byBlock = (key: Blocks) => pairedRatio(blocksOf(figures, key), blocksOf(floorFigures, key));
  const byRound = (key: Latencies) =>
    pairedRatio(percentiles(figures, key, 0.99), percentiles(floorFigures, key, 0.99));
  const bySpawn = (of: Map<string, number[]>) => pairedRatio(of.get(t.name)!, of.get(floorNameOf(t.name))!);
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
    ratios: {
      sequential: byBlock("sequential"),
      seqP99: byRound("seqLatencies"),
      pipelined: byBlock("pipelined"),
      pipeP99: byRound("pipeLatencies"),
      cold: bySpawn(starts),
      firstCall: bySpawn(firstCalls),
    },
  };
});
const ratio = (value: number) => `${value.toFixed(2)}×`;

console.log(
  `tools/call over stdio, Node ${process.version}; 20 tools registered; ${rounds} round(s), each of ${blocks} blocks ` +
    `of ${sequentialBlock} sequential calls and ${blocks} of ${pipelinedBlock} with ${inFlight} in flight, the rows taking ` +
    `turns block by block, after a warm-up of ${roundPlan.warmUp.pipelined} calls ${inFlight} in flight and ` +
    `${roundPlan.warmUp.sequential} sequential; cold start: median of ${coldStarts} spawn(s)\n`,
);
printTable(
  [
    "server",
    "seq req/s",
    "×floor",
    "p50 µs",
    "p99 µs",
    "×floor",
    `${inFlight}-deep req/s`,
    "×floor",
    "p50 µs",
    "p99 µs",
    "×floor",
    "cold start ms",
    "×floor",
    "first call ms",
    "×floor",
  ],
  summary.map((s) => [
    s.name,
    s.sequential.toFixed(0),
    ratio(s.ratios.sequential),
    s.seqP50.toFixed(0),
    s.seqP99.toFixed(0),
    ratio(s.ratios.seqP99),
    s.pipelined.toFixed(0),
    ratio(s.ratios.pipelined),
    s.pipeP50.toFixed(0),
    s.pipeP99.toFixed(0),
    ratio(s.ratios.pipeP99),
    s.cold.toFixed(1),
    ratio(s.ratios.cold),
    s.firstCall.toFixed(1),
    ratio(s.ratios.firstCall),
  ]),
);
console.log(
  `\nreq/s: the median of the blocks; p50, p99: the median of the rounds'. ×floor: the median of the row's figure ÷ the ` +
    `floor's in the same block (p99: round; cold start, first call: spawn), so above 1.00× is better for req/s and worse ` +
    `for times; legacy rows against "${FLOOR}", per-request rows against "${PER_REQUEST_FLOOR}". The control's distance ` +
    `from 1.00× is what this run's noise makes of a ratio.`,
);
