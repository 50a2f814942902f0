// A preload (`node --import`) for bench:stdio --server-time: in the server it
// is loaded into, times every call that arrives alone (a `data` event of stdin
// holding one line) from the event to its answer's write, and the write itself
// (process.stdout.write, the system call that hands the answer to the pipe and
// wakes the reader). Counting starts again at SIGUSR2 (sent after the warm-up;
// answered with a file <pid>.started in the folder);
// at exit the medians and 90th percentiles go to a JSON file named by the
// process id, in the folder MCPGEN_BENCH_WRITE_PROBE names. It measures any
// server on process.stdin/stdout alike (floor, mcpgen, the SDK) and changes
// none of their code: what it adds is two clock reads a call.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const folder = process.env["MCPGEN_BENCH_WRITE_PROBE"];
const capacity = 200_000;
const beforeWrite = new Float64Array(capacity);
const inWrite = new Float64Array(capacity);
let count = 0;
/** When the current one-line chunk arrived (performance.now()); NaN when the chunk held more or none. */
let arrived = NaN;

process.on("SIGUSR2", () => {
  count = 0;
  // Said back through the folder: the driver waits for it before its first measured call.
  if (folder) writeFileSync(join(folder, `${process.pid}.started`), "");
});

const NEWLINE = 10;
const emit = process.stdin.emit;
process.stdin.emit = function (this: typeof process.stdin, event: string | symbol, ...args: unknown[]) {
  if (event === "data") {
    const chunk = args[0] as Buffer | string;
    const first = typeof chunk === "string" ? chunk.indexOf("\n") : chunk.indexOf(NEWLINE);
    arrived = first === chunk.length - 1 ? performance.now() : NaN;
  }
  return (emit as (...a: unknown[]) => boolean).apply(this, [event, ...args]);
} as typeof process.stdin.emit;

const write = process.stdout.write;
process.stdout.write = function (this: typeof process.stdout, ...args: unknown[]) {
  const before = performance.now();
  const written = (write as (...a: unknown[]) => boolean).apply(this, args);
  if (!Number.isNaN(arrived) && count < capacity) {
    beforeWrite[count] = (before - arrived) * 1000;
    inWrite[count] = (performance.now() - before) * 1000;
    count++;
  }
  arrived = NaN; // one answer a call: a second write for the same chunk is not the call's
  return written;
} as typeof process.stdout.write;

process.on("exit", () => {
  if (!folder) return;
  const quantiles = (values: Float64Array) => {
    const sorted = Array.from(values.subarray(0, count)).sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
    return { p50: at(0.5), p90: at(0.9) };
  };
  writeFileSync(
    join(folder, `${process.pid}.json`),
    JSON.stringify({ calls: count, beforeWrite: quantiles(beforeWrite), write: quantiles(inWrite) }),
  );
});
