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
import { join } from "node:path";
import type { Mode } from "./http-client.js";
import { measureRows } from "./http-rounds.js";
import { installedProject } from "./installed.js";
import { printTable } from "./table.js";
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

const summary = (
  await measureRows(
    targets.map((t) => ({ ...t, floor: floors[t.mode] })),
    { rounds, blocks, clients, callsPerClient, leadInPerClient, warmupPerClient },
  )
).map((s) => ({ ...s, name: s.target.name, mode: s.target.mode }));

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
