// Benchmark: what a Streamable HTTP server holds in memory, side by side in one
// run (the servers of bench/http.ts: node:http floor, mcpgen with sessions, the
// official SDK v1 with a transport per session), each a child process on
// loopback with bench/servers/heap-probe.js preloaded: on SIGUSR2 it collects
// garbage fully and reports the heap, so every figure is what the server still
// holds, not garbage waiting for a collection.
//
// 1. Idle legacy sessions (2025-11-25): `idle` sessions opened (initialize,
//    notifications/initialized) over 16 keep-alive connections; the heap grown
//    per session after the handshake, after one tools/call each, and after
//    every session was ended with DELETE (what is never given back).
// 2. Soak: for `minutes`, 1000 sessions live at once, called round robin over
//    16 connections; a session that has made 100 tools/call is ended (DELETE)
//    and a new one opened in its place. The heap is sampled every
//    `sampleSeconds`; the slope is the least-squares line through the samples
//    after the first (taken before any call), in KB per minute, with twice its
//    standard error (the 95% interval: the heap moves by ±0.5 MB between
//    samples, so a slope of a few tens of KB/min can be noise alone), beside
//    the requests and sessions served and the peak RSS. The floor has no
//    sessions: its rows show what node:http alone does, and its heap is not
//    flat either: V8 keeps compiling and collecting type feedback through the
//    first minutes (5–6 KB/min over ten, and by a 15-minute run's own interval
//    a "trend"). So "no growth" is judged beside it, like every other figure:
//    mcpgen's slope less the floor's, with the two fits' errors added in
//    quadrature, is met when its 95% interval reaches down to 0. A leak of a
//    byte a session (~170,000 sessions in ten minutes) is ~17 KB/min beyond.
//
// Run: node dist/bench/memory.js [--quick] [--minutes N] [--idle N] [--only mcpgen,SDK]
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { BenchClient, Connection } from "./http-client.js";
import { benchOptions, onlyWords, sharedOptions } from "./options.js";
import { leastSquares, slopeBeyond, targetLines } from "./targets.js";
import { hostAtStart, stealLine } from "./host.js";

/** The machine and its load as the run starts, before the run loads it (bench/host.ts). */
const host = hostAtStart();

const options = benchOptions(
  "memory.js",
  "A Streamable HTTP server's heap per idle session and over a soak, beside the SDK and the floor.",
  [
    { name: "--minutes", takes: "number", help: "length of the soak (default 10; 0.2 with --quick)" },
    { name: "--idle", takes: "count", help: "idle sessions opened (default 1000; 200 with --quick)" },
    sharedOptions.quick,
    sharedOptions.only("the floor"),
  ],
);
const quick = options.has("--quick");
const minutes = options.number("--minutes", quick ? 0.2 : 10);
const idleSessions = options.number("--idle", quick ? 200 : 1000);
const liveSessions = quick ? 200 : 1000;
const callsPerSession = 100;
const connections = 16;
const sampleSeconds = quick ? 3 : 20;
const only = onlyWords(options);

const servers = join(import.meta.dirname, "servers");
const FLOOR = "floor (node:http)";
const targets = [
  { name: FLOOR, script: join(servers, "http-floor.js"), sessions: false },
  { name: "mcpgen (sessions)", script: join(servers, "http-mcpgen.js"), sessions: true },
  { name: "SDK (sessions)", script: join(servers, "http-sdk.js"), sessions: true },
].filter((t) => only === undefined || t.name === FLOOR || only.some((word) => t.name.includes(word)));

interface Heap {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  rss: number;
}

/** A server child with its heap probe; stopped by stop(). */
class Server {
  private readonly child: ChildProcessByStdio<null, Readable, Readable>;
  private readonly exited: Promise<void>;
  private readonly heaps: ((heap: Heap) => void)[] = [];
  readonly url: Promise<string>;

  constructor(script: string) {
    this.child = spawn(process.execPath, ["--expose-gc", "--import", join(servers, "heap-probe.js"), script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => this.child.on("exit", () => resolve()));
    this.url = new Promise((resolve) => {
      this.child.stdout.setEncoding("utf8");
      this.child.stdout.once("data", (line: string) => resolve(line.trim().split("\n")[0]!));
    });
    let buffered = "";
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.startsWith("HEAP ")) this.heaps.shift()?.(JSON.parse(line.slice(5)) as Heap);
        else process.stderr.write(`${line}\n`);
      }
    });
  }

  /** The heap after full collections (bytes). */
  heap(): Promise<Heap> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the server did not report its heap within 30 s")), 30_000);
      this.heaps.push((heap) => {
        clearTimeout(timer);
        resolve(heap);
      });
      this.child.kill("SIGUSR2");
    });
  }

  /** Peak resident set size so far (MB). */
  peakRssMb(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN) / 1024;
  }

  async stop(): Promise<void> {
    this.child.kill("SIGTERM");
    const killer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await this.exited;
    clearTimeout(killer);
  }
}

/** `count` sessions over shared connections, opened `pool.length` at a time; session i uses connection i % pool.length. */
async function openSessions(url: string, pool: Connection[], count: number): Promise<BenchClient[]> {
  const sessions = new Array<BenchClient>(count);
  await Promise.all(
    pool.map(async (connection, c) => {
      for (let i = c; i < count; i += pool.length) {
        sessions[i] = new BenchClient(url, "legacy", connection);
        await sessions[i]!.open();
      }
    }),
  );
  return sessions;
}

/** Runs `work` for each session, the sessions of one connection (as openSessions spread them) one after the other. */
async function perConnection(sessions: BenchClient[], work: (session: BenchClient) => Promise<void>) {
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      for (let i = c; i < sessions.length; i += connections) await work(sessions[i]!);
    }),
  );
}

interface IdleFigures {
  handshakeKb: number;
  oneCallKb: number;
  afterDeleteKb: number;
}

async function idle(server: Server, url: string, pool: Connection[]): Promise<IdleFigures> {
  // Warm-up: one session's worth of calls, ended, so that code and lazily built tables exist before.
  const [warm] = await openSessions(url, pool.slice(0, 1), 1);
  await warm!.run(200, []);
  await warm!.endSession();
  const before = (await server.heap()).heapUsed;
  const sessions = await openSessions(url, pool, idleSessions);
  const handshake = (await server.heap()).heapUsed;
  await perConnection(sessions, (s) => s.run(1, []));
  const oneCall = (await server.heap()).heapUsed;
  await perConnection(sessions, (s) => s.endSession());
  const after = (await server.heap()).heapUsed;
  const kb = (bytes: number) => bytes / idleSessions / 1024;
  return { handshakeKb: kb(handshake - before), oneCallKb: kb(oneCall - before), afterDeleteKb: kb(after - before) };
}

interface SoakFigures {
  requests: number;
  sessions: number;
  samples: { minute: number; heapMb: number }[];
  /** The heap's least-squares slope over the soak, and its standard error. */
  slopeKbPerMinute: number;
  slopeErrorKb: number;
  peakRssMb: number;
}

async function soak(server: Server, url: string, pool: Connection[], sessionful: boolean): Promise<SoakFigures> {
  let requests = 0;
  let opened = 0;
  const live = await openSessions(url, pool, liveSessions);
  opened += live.length;
  const calls = new Array<number>(live.length).fill(0);
  const began = performance.now();
  const deadline = began + minutes * 60_000;
  const samples: SoakFigures["samples"] = [];
  const sample = async () =>
    samples.push({ minute: (performance.now() - began) / 60_000, heapMb: (await server.heap()).heapUsed / 2 ** 20 });
  await sample();
  let nextSample = began + sampleSeconds * 1000;
  await Promise.all(
    pool.map(async (connection, c) => {
      while (performance.now() < deadline) {
        for (let i = c; i < live.length; i += pool.length) {
          await live[i]!.run(1, []);
          requests++;
          if (++calls[i]! < callsPerSession) continue;
          if (sessionful) await live[i]!.endSession();
          live[i] = new BenchClient(url, "legacy", connection);
          await live[i]!.open();
          calls[i] = 0;
          opened++;
        }
        if (c === 0 && performance.now() >= nextSample) {
          nextSample += sampleSeconds * 1000;
          await sample();
        }
      }
    }),
  );
  await sample();
  // The first sample precedes every call: the slope starts at the second, once each session has been used.
  const line = leastSquares(samples.slice(1).map((s) => ({ x: s.minute, y: s.heapMb * 1024 })));
  return {
    requests,
    sessions: opened,
    samples,
    slopeKbPerMinute: line.slope,
    slopeErrorKb: line.standardError,
    peakRssMb: server.peakRssMb(),
  };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

const MCPGEN = "mcpgen (sessions)";
let mcpgenIdleKb: number | undefined;
let mcpgenFigures: SoakFigures | undefined;
let floorFigures: SoakFigures | undefined;
const idleRows: string[][] = [];
const soakRows: string[][] = [];
const trails: string[] = [];
for (const target of targets) {
  const server = new Server(target.script);
  const url = await server.url;
  const parsed = new URL(url);
  const pool = Array.from({ length: connections }, () => new Connection(parsed.hostname, Number(parsed.port)));
  try {
    if (target.sessions) {
      const figures = await idle(server, url, pool);
      idleRows.push([
        target.name,
        figures.handshakeKb.toFixed(2),
        figures.oneCallKb.toFixed(2),
        figures.afterDeleteKb.toFixed(2),
      ]);
      if (target.name === MCPGEN) mcpgenIdleKb = Math.max(figures.handshakeKb, figures.oneCallKb);
    }
    const figures = await soak(server, url, pool, target.sessions);
    const first = figures.samples[0]!.heapMb;
    const last = figures.samples.at(-1)!.heapMb;
    soakRows.push([
      target.name,
      String(figures.requests),
      target.sessions ? String(figures.sessions) : "-",
      `${first.toFixed(1)} → ${last.toFixed(1)}`,
      figures.slopeKbPerMinute.toFixed(1),
      `± ${(2 * figures.slopeErrorKb).toFixed(1)}`,
      figures.peakRssMb.toFixed(1),
    ]);
    if (target.name === MCPGEN) mcpgenFigures = figures;
    if (target.name === FLOOR) floorFigures = figures;
    trails.push(
      `${target.name}: ${figures.samples.map((s) => `${s.minute.toFixed(1)}m ${s.heapMb.toFixed(1)}`).join(", ")}`,
    );
  } finally {
    for (const connection of pool) connection.close();
    await server.stop();
  }
}

console.log(host.line);
console.log(`Streamable HTTP server memory, Node ${process.version}; heap after full collections (heap-probe)\n`);
console.log(
  `Idle legacy sessions (2025-11-25): ${idleSessions} sessions over ${connections} connections; KB of heap held per session`,
);
console.log(table(["server", "after handshake", "after one tools/call", "after DELETE"], idleRows) + "\n");
console.log(
  `Soak: ${minutes} min, ${liveSessions} sessions live, round robin over ${connections} connections, each ended ` +
    `(DELETE) after ${callsPerSession} tools/call and replaced; heap sampled every ${sampleSeconds} s`,
);
console.log(
  table(["server", "requests", "sessions", "heap MB first → last", "slope KB/min", "95%", "peak RSS MB"], soakRows) +
    "\nslope: the least-squares line through the heap samples after the first, ± twice its standard error (95%).\n",
);
// No growth beyond the floor's: the difference of the two slopes is no evidence of a trend, its 95% interval
// reaching down to 0 or below.
const beyond =
  mcpgenFigures &&
  floorFigures &&
  slopeBeyond(
    { slope: mcpgenFigures.slopeKbPerMinute, standardError: mcpgenFigures.slopeErrorKb },
    { slope: floorFigures.slopeKbPerMinute, standardError: floorFigures.slopeErrorKb },
  );
if (beyond)
  console.log(
    `mcpgen's slope beyond the floor's: ${beyond.slope.toFixed(1)} ± ${(2 * beyond.standardError).toFixed(1)} KB/min (95%)\n`,
  );
const growthFloor = beyond && beyond.slope - 2 * beyond.standardError;
console.log(
  `Targets (issue #14):\n${targetLines([
    { what: "mcpgen: heap per idle legacy session", value: mcpgenIdleKb, bound: "at most", limit: 4, unit: " KB" },
    {
      what: "mcpgen: soak's heap slope beyond the floor's, low end of its 95% interval",
      value: growthFloor,
      bound: "at most",
      limit: 0,
      unit: " KB/min",
      digits: 1,
    },
  ])}\n`,
);
console.log(`Heap samples (minute, MB):\n${trails.join("\n")}`);
console.log(stealLine(host));
