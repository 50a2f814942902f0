// Benchmark: an MCP server over stdio, side by side in one run. Each server
// offers one tool, echo({ text }), and runs as a child process:
//   floor    a bare Node process that parses each line and echoes (bench/servers/floor.ts)
//   mcpgen   McpServer + serveStdio (bench/servers/mcpgen-echo.ts)
//   SDK      @modelcontextprotocol/sdk McpServer + StdioServerTransport (bench/servers/sdk-echo.ts)
// Figures: tools/call requests per second, one at a time and with 64 in
// flight, with p50/p99 latency; cold start (spawn to the initialize
// response). Every round runs every server, in rotating order; the table shows
// medians over rounds, and ratios to the floor measured in the same run.
//
// Run: npm run bench:stdio [-- --rounds N] [--quick]
import { spawn } from "node:child_process";
import { join } from "node:path";

const quick = process.argv.includes("--quick");
const roundsArg = process.argv.indexOf("--rounds");
const rounds = roundsArg !== -1 ? Number(process.argv[roundsArg + 1]) : quick ? 1 : 5;
const sequentialCalls = quick ? 300 : 5_000;
const pipelinedCalls = quick ? 2_000 : 40_000;
const warmupCalls = quick ? 200 : 2_000;
const inFlight = 64;
const coldStarts = quick ? 3 : 15;

const servers = join(import.meta.dirname, "servers");
const targets = [
  { name: "floor (bare Node)", script: join(servers, "floor.js") },
  { name: "mcpgen", script: join(servers, "mcpgen-echo.js") },
  { name: "SDK", script: join(servers, "sdk-echo.js") },
];

interface Server {
  call(id: number): void;
  initialize(): Promise<number>;
  onResponse: (id: number) => void;
  stop(): Promise<void>;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
});

function start(script: string): Server {
  const started = performance.now();
  const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "inherit"] });
  const killer = setTimeout(() => child.kill("SIGKILL"), 300_000);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let buffered = "";
  let initialized: ((ms: number) => void) | undefined;
  const server: Server = {
    onResponse: () => {},
    call(id) {
      child.stdin.write(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello ${id}"}}}\n`,
      );
    },
    initialize() {
      return new Promise((resolve) => {
        initialized = resolve;
        child.stdin.write(INITIALIZE + "\n");
      });
    },
    async stop() {
      child.stdin.end();
      await exited;
      clearTimeout(killer);
    },
  };
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const message = JSON.parse(line) as { id?: number; result?: { content?: { text: string }[] }; error?: unknown };
      if (message.id === undefined) continue;
      if (message.id === 0) {
        initialized?.(performance.now() - started);
        child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
        continue;
      }
      if (message.result?.content?.[0]?.text !== `hello ${message.id}`)
        throw new Error(`${script}: unexpected answer ${line.slice(0, 200)}`);
      server.onResponse(message.id);
    }
  });
  return server;
}

/** Calls `total` times with at most `depth` outstanding; returns requests/s and latencies in µs. */
function drive(
  server: Server,
  total: number,
  depth: number,
  firstId: number,
): Promise<{ rps: number; latencies: number[] }> {
  return new Promise((resolve) => {
    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    let sent = 0;
    let received = 0;
    const began = performance.now();
    const send = () => {
      const id = firstId + sent++;
      sentAt.set(id, performance.now());
      server.call(id);
    };
    server.onResponse = (id) => {
      latencies.push((performance.now() - sentAt.get(id)!) * 1000);
      sentAt.delete(id);
      received++;
      if (sent < total) send();
      else if (received === total) resolve({ rps: total / ((performance.now() - began) / 1000), latencies });
    };
    for (let i = 0; i < Math.min(depth, total); i++) send();
  });
}

interface Figures {
  sequential: number;
  seqP50: number;
  seqP99: number;
  pipelined: number;
  pipeP50: number;
  pipeP99: number;
}

async function throughput(script: string): Promise<Figures> {
  const server = start(script);
  await server.initialize();
  await drive(server, warmupCalls, inFlight, 1);
  const seq = await drive(server, sequentialCalls, 1, 1_000_000);
  const pipe = await drive(server, pipelinedCalls, inFlight, 2_000_000);
  await server.stop();
  return {
    sequential: seq.rps,
    seqP50: percentile(seq.latencies, 0.5),
    seqP99: percentile(seq.latencies, 0.99),
    pipelined: pipe.rps,
    pipeP50: percentile(pipe.latencies, 0.5),
    pipeP99: percentile(pipe.latencies, 0.99),
  };
}

async function coldStart(script: string): Promise<number> {
  const server = start(script);
  const ms = await server.initialize();
  await server.stop();
  return ms;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const median = (values: number[]) => percentile(values, 0.5);

const results = new Map<string, Figures[]>(targets.map((t) => [t.name, []]));
const starts = new Map<string, number[]>(targets.map((t) => [t.name, []]));
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < targets.length; i++) {
    const target = targets[(i + round) % targets.length]!;
    results.get(target.name)!.push(await throughput(target.script));
  }
}
for (let i = 0; i < coldStarts; i++)
  for (const target of targets) starts.get(target.name)!.push(await coldStart(target.script));

const summary = targets.map((t) => {
  const figures = results.get(t.name)!;
  const pick = (key: keyof Figures) => median(figures.map((f) => f[key]));
  return {
    name: t.name,
    sequential: pick("sequential"),
    seqP50: pick("seqP50"),
    seqP99: pick("seqP99"),
    pipelined: pick("pipelined"),
    pipeP50: pick("pipeP50"),
    pipeP99: pick("pipeP99"),
    cold: median(starts.get(t.name)!),
  };
});
const floor = summary[0]!;
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;

console.log(
  `tools/call over stdio, Node ${process.version}; medians of ${rounds} round(s): ${sequentialCalls} sequential calls, ` +
    `${pipelinedCalls} with ${inFlight} in flight; cold start: median of ${coldStarts} spawns\n`,
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
];
const rows = summary.map((s) => [
  s.name,
  s.sequential.toFixed(0),
  ratio(s.sequential, floor.sequential),
  s.seqP50.toFixed(0),
  s.seqP99.toFixed(0),
  s.pipelined.toFixed(0),
  ratio(s.pipelined, floor.pipelined),
  s.pipeP50.toFixed(0),
  s.pipeP99.toFixed(0),
  s.cold.toFixed(1),
  ratio(s.cold, floor.cold),
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
for (const row of [header, ...rows])
  console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
