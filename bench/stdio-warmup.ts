// Benchmark: how soon a stdio server's sequential calls settle, side by side
// with the floor in one run. bench:stdio times its sequential column over one
// window: 5,000 calls after a warm-up of 2,000 calls 64 in flight and 15,000 one
// at a time (stdioWarmUp, bench/stdio-driver.ts). This runs the same rows (the
// floor, the control, the installed package in both eras, each era's floor)
// through the same 64-deep warm-up and then `--windows` windows of 5,000
// sequential calls, and prints each window's requests per second and its ratio
// to the row's floor (the median over rounds of the rounds' own ratios,
// bench/targets.ts pairedRatio). Window 4 is the one bench:stdio measures;
// windows 1-3 are its sequential warm-up.
//
// What it is for: a server whose code is larger than the floor's takes longer
// to reach its steady speed (V8 optimizes a function once it has run enough),
// and a window that ends before then measures that warm-up as well. Which of
// the windows stands for "sequential throughput" is a choice the figures
// leave to the reader: a stdio server lives as long as its client's session,
// which may be a few calls or hundreds of thousands.
//
// The windows run with the driver and the server's main thread on pinned CPUs, as bench:stdio's
// sequential blocks do (bench/placement.ts); the warm-up before them is not pinned.
//
// Run: node dist/bench/stdio-warmup.js [--rounds N] [--windows N] [--quick] [--placement split|same|free]
import { join } from "node:path";
import { installedProject } from "./installed.js";
import { benchOptions, sharedOptions } from "./options.js";
import { drive, startServer, stdioWarmUp, type Mode } from "./stdio-driver.js";
import { pinningOf, placementOption } from "./placement.js";
import { printTable } from "./table.js";
import { pairedRatio } from "./targets.js";
import { hostAtStart, stealLine } from "./host.js";

/** The machine and its load as the run starts, before the run loads it (bench/host.ts). */
const host = hostAtStart();

const options = benchOptions(
  "stdio-warmup.js",
  "sequential tools/call over stdio, window by window from a server's start, beside a bare-Node floor.",
  [
    sharedOptions.rounds(5),
    sharedOptions.quick,
    { name: "--windows", takes: "count", help: "windows of sequential calls after the 64-deep warm-up (default 8)" },
    placementOption,
  ],
);
const cpus = pinningOf(options, "stdio-warmup.js");
const quick = options.has("--quick");
const rounds = options.number("--rounds", quick ? 1 : 5);
const windows = options.number("--windows", quick ? 3 : 8);
const windowCalls = quick ? 300 : 5_000;
const { pipelined: deepWarmUpCalls, sequential: stdioSequentialWarmUp } = stdioWarmUp(quick);
/** The window bench:stdio measures: the one after its sequential warm-up. */
const stdioWindow = stdioSequentialWarmUp / windowCalls + 1;
const inFlight = 64;

const servers = join(import.meta.dirname, "servers");
const root = join(import.meta.dirname, "..", "..");
const installed = installedProject(root, [join(servers, "mcpgen-echo.js"), join(servers, "echo-mcpgen.js")]);
process.on("exit", installed.remove);

const FLOOR = "floor (bare Node)";
const PER_REQUEST_FLOOR = "floor, per-request body";
const rows: { name: string; script: string; mode: Mode; floor: string }[] = [
  { name: FLOOR, script: join(servers, "floor.js"), mode: "legacy", floor: FLOOR },
  // The floor again: what this run's noise makes of a server exactly as fast as its floor.
  { name: "control: the floor again", script: join(servers, "floor.js"), mode: "legacy", floor: FLOOR },
  { name: PER_REQUEST_FLOOR, script: join(servers, "floor.js"), mode: "per-request", floor: PER_REQUEST_FLOOR },
  { name: "mcpgen", script: join(installed.dir, "mcpgen-echo.js"), mode: "legacy", floor: FLOOR },
  {
    name: "mcpgen (per-request)",
    script: join(installed.dir, "mcpgen-echo.js"),
    mode: "per-request",
    floor: PER_REQUEST_FLOOR,
  },
];

/** One server's requests per second in each sequential window, after the 64-deep warm-up. */
async function windowsOf(row: (typeof rows)[number]): Promise<number[]> {
  const server = startServer([row.script], row.mode);
  await server.initialize();
  await drive(server, deepWarmUpCalls, inFlight, 1);
  const figures: number[] = [];
  if (cpus.serverCpu !== undefined) {
    cpus.hold();
    server.pinMainThread(String(cpus.serverCpu));
  }
  try {
    for (let w = 0; w < windows; w++)
      figures.push((await drive(server, windowCalls, 1, 1_000_000 + w * windowCalls)).rps);
  } finally {
    cpus.release();
  }
  await server.stop();
  return figures;
}

const results = new Map<string, number[][]>(rows.map((row) => [row.name, []]));
for (let round = 0; round < rounds; round++)
  for (let i = 0; i < rows.length; i++) {
    const row = rows[(i + round) % rows.length]!;
    results.get(row.name)!.push(await windowsOf(row));
  }

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
};
/** Row `name`'s figure in window `w` of every round. */
const column = (name: string, w: number) => results.get(name)!.map((figures) => figures[w]!);
const windowNames = Array.from({ length: windows }, (_, w) => {
  const first = deepWarmUpCalls + w * windowCalls + 1;
  return `${w + 1}: ${first}–${first + windowCalls - 1}`;
});

console.log(host.line);
console.log(
  `sequential tools/call over stdio, Node ${process.version}; 20 tools registered; ${rounds} round(s) in rotating order; ` +
    `after ${deepWarmUpCalls} calls ${inFlight} in flight, ${windows} windows of ${windowCalls} calls one at a time ` +
    `(window ${stdioWindow} is bench:stdio's sequential column, ${stdioWindow === 2 ? "window 1" : `windows 1–${stdioWindow - 1}`} its sequential warm-up); CPUs: ${cpus.description}\n`,
);
console.log("requests per second, the median over rounds, by window (calls since the start):\n");
printTable(
  ["server", ...windowNames],
  rows.map((row) => [row.name, ...windowNames.map((_, w) => median(column(row.name, w)).toFixed(0))]),
);
console.log("\n÷ the row's floor in the same round and window, the median of the rounds' ratios:\n");
printTable(
  ["server", ...windowNames],
  rows
    .filter((row) => row.name !== row.floor)
    .map((row) => [
      row.name,
      ...windowNames.map((_, w) => `${pairedRatio(column(row.name, w), column(row.floor, w)).toFixed(2)}×`),
    ]),
);
console.log(
  `\nLegacy rows against "${FLOOR}", the per-request row against "${PER_REQUEST_FLOOR}" (the same lines: _meta on every call). ` +
    `The control's distance from 1.00× is what this run's noise alone makes of a ratio.`,
);
console.log(stealLine(host));
