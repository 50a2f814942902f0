// Benchmark: mcpgen's fetch handler (mcpgen/fetch) on Bun, Deno and Node,
// each beside the official SDK v2's createMcpHandler on the same runtime and a
// floor fetch handler, in one run. Per-request (2026-07-28) tools/call of the
// echo tool, 20 tools registered, 16 keep-alive clients, as bench:http's
// per-request rows (the same client, measuring loop and statistics:
// http-client.ts, http-rounds.ts). Rows, per runtime:
//   <runtime>: floor                  servers/fetch-floor.ts: parses the body and echoes (Response with the text)
//   <runtime>: mcpgen                 createFetchHandler, on the runtime package as installed
//   <runtime>: SDK v2                 @modelcontextprotocol/server's createMcpHandler (a server per request)
// Bun and Deno serve with Bun.serve and Deno.serve. Node has no fetch server
// of its own: its rows go through a node:http bridge, and its floor is the
// floor handler behind @hono/node-server's. Node rows beyond those:
//   Node: floor on node:http          servers/http-floor.ts, no fetch handler: what the bridge costs the floor
//   Node: mcpgen, <bridge>            the fetch handler behind @hono/node-server's getRequestListener, SDK v2's
//                                     toNodeHandler, and mcpgen/fetch's toNodeListener
//   Node: mcpgen serveHttp            mcpgen/http, no fetch handler
//   Node: SDK v2                      createMcpHandler behind its toNodeHandler
// Every row runs beside a floor process of its own runtime.
//
// Run: npm run bench:fetch [-- --rounds N] [--quick] [--only Bun,serveHttp]
import { join } from "node:path";
import { measureRows, type RowFigures, type ServerTarget } from "./http-rounds.js";
import { installedProject } from "./installed.js";
import { benchOptions, onlyWords, sharedOptions } from "./options.js";
import { installedRuntimes } from "./runtimes.js";
import { printTable } from "./table.js";

const options = benchOptions(
  "fetch.js",
  "per-request tools/call of mcpgen's fetch handler on Bun, Deno and Node beside SDK v2 and a floor fetch handler.",
  [sharedOptions.rounds(3), sharedOptions.quick, sharedOptions.only("floors")],
);
const quick = options.has("--quick");
const counts = {
  rounds: options.number("--rounds", quick ? 1 : 3),
  blocks: quick ? 2 : 10,
  clients: 16,
  callsPerClient: quick ? 5 : 150,
  leadInPerClient: quick ? 1 : 15,
  warmupPerClient: quick ? 5 : 1_500,
};
const only = onlyWords(options);

const root = join(import.meta.dirname, "..", "..");
const servers = join(import.meta.dirname, "servers");
const runtimes = installedRuntimes(root);
// mcpgen's rows run on the runtime package as a user installs it; the servers' helpers beside them.
const installed = installedProject(
  root,
  ["fetch-mcpgen", "echo-mcpgen", "http-mcpgen", "fetch-serve", "bridges"].map((name) => join(servers, `${name}.js`)),
  ["@modelcontextprotocol", "@hono", "hono"],
);
process.on("exit", installed.remove);
const mcpgenFetch = join(installed.dir, "fetch-mcpgen.js");

const bun = { command: runtimes.bun.bin, args: [] };
// Deno reads the packages from node_modules (the project's package.json says it has one); the
// permissions are those docs/transports.md gives.
const deno = { command: runtimes.deno.bin, args: ["run", "--allow-net=127.0.0.1", "--allow-read", "--allow-env"] };
const floorScript = join(servers, "fetch-floor.js");
const sdkScript = join(servers, "fetch-sdk-v2.js");

/** The floor every row of a runtime is measured beside. */
const FLOOR = { Bun: "Bun: floor", Deno: "Deno: floor", Node: "Node: floor, hono bridge" } as const;
type Platform = keyof typeof FLOOR;

interface Row extends ServerTarget {
  platform: Platform;
  /** What the row is, among the rows of its runtime. */
  kind: "floor" | "mcpgen" | "serveHttp" | "SDK v2" | "other";
}
const row = (
  platform: Platform,
  kind: Row["kind"],
  name: string,
  script: string,
  args: string[],
  runtime?: ServerTarget["runtime"],
): Row => ({
  name: `${platform}: ${name}`,
  script,
  args,
  mode: "per-request",
  floor: FLOOR[platform],
  platform,
  kind,
  ...(runtime && { runtime }),
});

const allRows: Row[] = [
  row("Bun", "floor", "floor", floorScript, [], bun),
  row("Bun", "mcpgen", "mcpgen", mcpgenFetch, [], bun),
  row("Bun", "SDK v2", "SDK v2", sdkScript, [], bun),
  row("Deno", "floor", "floor", floorScript, [], deno),
  row("Deno", "mcpgen", "mcpgen", mcpgenFetch, [], deno),
  row("Deno", "SDK v2", "SDK v2", sdkScript, [], deno),
  row("Node", "floor", "floor, hono bridge", floorScript, ["--bridge", "hono"]),
  row("Node", "other", "floor on node:http", join(servers, "http-floor.js"), []),
  row("Node", "mcpgen", "mcpgen, hono bridge", mcpgenFetch, ["--bridge", "hono"]),
  row("Node", "mcpgen", "mcpgen, SDK v2's bridge", mcpgenFetch, ["--bridge", "sdk"]),
  row("Node", "mcpgen", "mcpgen, toNodeListener", mcpgenFetch, ["--bridge", "mcpgen"]),
  row("Node", "serveHttp", "mcpgen serveHttp", join(installed.dir, "http-mcpgen.js"), []),
  row("Node", "SDK v2", "SDK v2", sdkScript, []),
];
const rows = allRows.filter(
  (r) => r.kind === "floor" || only === undefined || only.some((word) => r.name.includes(word)),
);

const figures = await measureRows(rows, counts);
const figuresOf = (r: Row) => figures.find((f) => f.target === r)!;
/** A row of the same runtime, of the given kind, if it was measured. */
const sibling = (r: Row, kind: Row["kind"]) => rows.find((s) => s.platform === r.platform && s.kind === kind);
/** Two rows' ×floor divided (each against its runtime's floor, block by block): a ratio the load moves least. */
const divided = (a: RowFigures, b: RowFigures | undefined) => (b ? a.ratio / b.ratio : undefined);

console.log(
  `per-request (2026-07-28) tools/call over HTTP; Node ${process.version}, Bun ${runtimes.bun.version}, ` +
    `Deno ${runtimes.deno.version.replace(/^deno (\S+).*/, "$1")}; 20 tools registered; ${counts.clients} keep-alive clients; ` +
    `each server warmed up with ${counts.warmupPerClient} calls a client, then ${counts.rounds} round(s) of ` +
    `${counts.blocks} blocks, in each block every row and its own floor process one after the other, ` +
    `${counts.callsPerClient} calls a client each after ${counts.leadInPerClient} not counted\n`,
);
const fixed = (value: number | undefined, digits: number, suffix = "") =>
  value === undefined ? "-" : `${value.toFixed(digits)}${suffix}`;
printTable(
  [
    "server",
    "req/s",
    "×floor",
    "blocks' ×floor",
    "÷ SDK v2",
    "÷ serveHttp",
    "p50 µs",
    "p99 µs",
    "CPU µs/req",
    "CPU ×floor",
  ],
  rows.map((r) => {
    const f = figuresOf(r);
    const sdk = sibling(r, "SDK v2");
    const serveHttp = sibling(r, "serveHttp");
    const mcpgenRow = r.kind === "mcpgen" || r.kind === "serveHttp";
    return [
      r.name,
      f.rps.toFixed(0),
      `${f.ratio.toFixed(2)}×`,
      f.ratioRange ? `${f.ratioRange.low.toFixed(2)}–${f.ratioRange.high.toFixed(2)}` : "-",
      mcpgenRow && sdk ? fixed(divided(f, figuresOf(sdk)), 1) : "",
      r.kind === "mcpgen" && serveHttp ? fixed(divided(f, figuresOf(serveHttp)), 2) : "",
      f.p50.toFixed(0),
      f.p99.toFixed(0),
      f.cpuUs.toFixed(1),
      fixed(f.cpuRatio, 2, "×"),
    ];
  }),
);
console.log(
  `\nreq/s: the median of the blocks; p50, p99: the median of the rounds'; CPU µs/req: the server process's CPU time ` +
    `(/proc/<pid>/stat) over a round's windows, the median of the rounds. ×floor: the median over blocks of the row's ` +
    `req/s ÷ its runtime's floor's in the same block; blocks' ×floor: the middle half of those ratios. ÷ SDK v2, ` +
    `÷ serveHttp: the row's ×floor ÷ that row's, on the same runtime.`,
);

// The targets: mcpgen at least 10× SDK v2 on each runtime and 0.7× the floor; on Node, the fetch path
// within 20% of serveHttp. A figure within 10% of its target counts as met.
const verdict = (value: number | undefined, target: number) =>
  value === undefined
    ? "not measured"
    : value >= target
      ? "met"
      : value >= target * 0.9
        ? "met (within 10%)"
        : "NOT met";
console.log("\ntargets:");
for (const r of rows.filter((r) => r.kind === "mcpgen")) {
  const f = figuresOf(r);
  const sdk = sibling(r, "SDK v2");
  const serveHttp = sibling(r, "serveHttp");
  const lines = [
    `÷ SDK v2 ${fixed(divided(f, sdk && figuresOf(sdk)), 1)} (≥ 10): ${verdict(divided(f, sdk && figuresOf(sdk)), 10)}`,
    `×floor ${f.ratio.toFixed(2)} (≥ 0.7): ${verdict(f.ratio, 0.7)}`,
  ];
  if (r.platform === "Node") {
    const ofServeHttp = divided(f, serveHttp && figuresOf(serveHttp));
    lines.push(`÷ serveHttp ${fixed(ofServeHttp, 2)} (≥ 0.8): ${verdict(ofServeHttp, 0.8)}`);
  }
  console.log(`  ${r.name}: ${lines.join("; ")}`);
}
// What bounds ÷ SDK v2 in this run: the floor's own ratio to SDK v2 (no server answers faster than its
// floor), and the same ratio in CPU time per request, which the driver's share of the machine moves less.
for (const platform of Object.keys(FLOOR) as Platform[]) {
  const floor = rows.find((r) => r.platform === platform && r.kind === "floor")!;
  const sdk = sibling(floor, "SDK v2");
  const mcpgen = rows.filter((r) => r.platform === platform && r.kind === "mcpgen");
  if (!sdk || mcpgen.length === 0) continue;
  const sdkCpu = figuresOf(sdk).cpuUs;
  const cpu = mcpgen.map((r) => `${r.name} ${fixed(sdkCpu / figuresOf(r).cpuUs, 1)}`).join(", ");
  console.log(
    `  ${platform}: the floor is ${fixed(1 / figuresOf(sdk).ratio, 1)}× SDK v2 in req/s; SDK v2's CPU µs/req ÷ mcpgen's: ${cpu}`,
  );
}
