// A stdio server's own work per tools/call, without pipes or a second process:
// the echo servers' stdio transports fed 64-line chunks of tools/call through
// in-memory streams, each chunk answered in full before the next (64 in flight,
// as bench/stdio's deep column). What the pipe benchmark cannot show on a
// shared two-core machine, where the driver and the server take turns on the
// cores: the CPU time and the memory each call costs the server itself.
//
//   node --expose-gc --trace-gc-nvp in-process.js <row> <calls> [<warm-up calls>]
//   row: floor | floor-per-request | mcpgen | mcpgen-per-request | sdk
//   warm-up: the same calls first, by default as many as measured, at most 20,000
//
// After a warm-up of the same calls it prints MEASURE, collects garbage fully,
// runs `calls` calls, collects again and prints one JSON line: {"usPerCall"}.
// The parent sums the allocated= figures V8 prints between the two (every
// collection reports what was allocated since the previous one), so bytes per
// call is exact to a collection. Ids are new on every call (a session refuses
// an id it has seen).
import { PassThrough, Writable } from "node:stream";
import { floorReader } from "./echo-floor.js";

const row = process.argv[2]!;
const calls = Number(process.argv[3]);
const warmUp = process.argv[4] !== undefined ? Number(process.argv[4]) : Math.min(calls, 20_000);
const CHUNK = 64;
const perRequest = row.endsWith("per-request");
const meta = perRequest
  ? `,"_meta":${JSON.stringify({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
    })}`
  : "";
const callLine = (id: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello ${id}"}${meta}}}\n`;

let answered = 0;
let waiting: { until: number; resolve: () => void } | undefined;
/** Counts the answers in what the server writes (one per line); checks the first of each chunk. */
function received(text: string): void {
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) answered++;
  if (!text.includes('"result"') || text.includes('"error"'))
    throw new Error(`${row}: unexpected answer ${text.slice(0, 200)}`);
  if (waiting && answered >= waiting.until) {
    const { resolve } = waiting;
    waiting = undefined;
    resolve();
  }
}
const output = new Writable({
  write(chunk: Buffer | string, _encoding, done) {
    received(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
    done();
  },
});
const input = new PassThrough();

if (row.startsWith("floor")) {
  input.setEncoding("utf8");
  input.on(
    "data",
    floorReader((text) => output.write(text)),
  );
} else if (row.startsWith("mcpgen")) {
  const { serveStdio } = await import("mcpgen/stdio");
  const { echoServer } = await import("./echo-mcpgen.js");
  serveStdio(echoServer(), { input, output: output as never, exitProcess: false });
} else if (row === "sdk") {
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const { echoServer } = await import("./echo-sdk.js");
  await echoServer().connect(new StdioServerTransport(input, output));
} else throw new Error(`unknown row ${row}`);

/** Sends `lines` and resolves when every one is answered. */
function send(lines: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    waiting = { until: answered + count, resolve };
    input.write(lines);
  });
}

if (!perRequest && !row.startsWith("floor")) {
  await send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    }) + "\n",
    1,
  );
  input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
}

let nextId = 1;
/** `count` calls in chunks of CHUNK lines, built before the clock starts. */
async function run(count: number): Promise<number> {
  const chunks: string[] = [];
  for (let sent = 0; sent < count; sent += CHUNK) {
    let chunk = "";
    for (let i = 0; i < CHUNK; i++) chunk += callLine(nextId++);
    chunks.push(chunk);
  }
  const started = process.hrtime.bigint();
  for (const chunk of chunks) await send(chunk, CHUNK);
  return Number(process.hrtime.bigint() - started) / 1000 / (chunks.length * CHUNK);
}

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("in-process: run with --expose-gc");
await run(warmUp); // the same calls, compiled and optimized
collect();
process.stdout.write("MEASURE\n");
const usPerCall = await run(calls);
collect();
process.stdout.write(`${JSON.stringify({ usPerCall })}\n`);
process.exit(0);
