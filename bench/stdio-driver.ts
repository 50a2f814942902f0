// The stdio benchmarks' client side: a server row started as a child process,
// its echo tool called over the pipes with every answer checked, one at a time
// or with many in flight, and a round of rows measured in turns (bench/stdio.ts,
// bench/stdio-warmup.ts).
import { execFileSync, spawn } from "node:child_process";
import { freeze, thaw } from "./freeze.js";
import type { Pinning } from "./placement.js";

/** Legacy: initialize (2025-11-25) and notifications/initialized first. Per-request: _meta on every call (2026-07-28). */
export type Mode = "legacy" | "per-request";

export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
});

/** What every per-request call's params carry in _meta, serialized once. */
const PER_REQUEST_META = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
});

/**
 * The servers run without NODE_EXTRA_CA_CERTS, which this machine kind sets:
 * Node reads those certificates at start (about 80 ms here), a constant that
 * would hide the differences a cold start is measured for.
 */
export const { NODE_EXTRA_CA_CERTS: _certificates, ...childEnv } = process.env;

/**
 * bench:stdio's warm-up of each server before its measured blocks: calls 64 in flight, then calls
 * one at a time (bench:stdio-warmup runs the same 64-deep warm-up, then windows as long as
 * bench:stdio's measured sequential calls). The sequential part was 5,000 calls, sized on Node 20,
 * whose V8 has compiled mcpgen's request path with TurboFan by then. Node 24's does it in one burst
 * between calls ~7,000 and ~12,000 of a process, so the window after 5,000 measured that burst
 * (legacy 0.65-0.79x its floor there, 0.90-1.07x from call 12,000 on; p99 twice the floor's,
 * then the floor's): bench/RESULTS.md, stdio, thirty-second session.
 */
export function stdioWarmUp(quick: boolean): { pipelined: number; sequential: number } {
  return quick ? { pipelined: 200, sequential: 300 } : { pipelined: 2_000, sequential: 15_000 };
}

/** A tools/call of echo, as a line; per-request lines carry the _meta. */
export function callLine(id: number, mode: Mode): string {
  const meta = mode === "per-request" ? `,"_meta":${PER_REQUEST_META}` : "";
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello ${id}"}${meta}}}\n`;
}

export interface Server {
  readonly pid: number;
  call(id: number): void;
  /** Legacy: initialize (id 0), resolved at its response. Per-request: a first tools/call (id 0), at its response. */
  initialize(): Promise<number>;
  /** After initialize: ms from the spawn to the answer of a first tools/call (per-request: initialize's own figure). */
  firstCall(): Promise<number>;
  onResponse: (id: number) => void;
  /**
   * Stops the process (SIGSTOP) while other rows are measured, and lets it go on: what it does on its own
   * threads between its turns (V8's compilers and collector) then happens in its own turn, not in another row's.
   */
  freeze(): void;
  thaw(): void;
  /**
   * Keeps the server's main thread (JavaScript, and the threads it starts from now on) on `cpus`, in
   * taskset's list form (bench/placement.ts). The threads Node started with (V8's compiler and collector helpers) stay
   * wherever the scheduler puts them, as in any server's process.
   */
  pinMainThread(cpus: string): void;
  stop(): Promise<void>;
}

/** Starts `node ...nodeArgs ...args` as a row's server, spoken to in `mode`; `env` adds to its environment. */
export function startServer(
  args: readonly string[],
  mode: Mode,
  nodeArgs: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Server {
  const perRequest = mode === "per-request";
  const script = args.join(" ");
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...childEnv, ...env },
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), 300_000);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let buffered = "";
  let initialized: ((ms: number) => void) | undefined;
  let firstAnswer = 0;
  const server: Server = {
    pid: child.pid!,
    onResponse: () => {},
    call(id) {
      child.stdin.write(callLine(id, mode));
    },
    initialize() {
      return new Promise((resolve) => {
        initialized = resolve;
        if (perRequest) server.call(0);
        else child.stdin.write(INITIALIZE + "\n");
      });
    },
    firstCall() {
      if (perRequest) return Promise.resolve(firstAnswer);
      return new Promise((resolve) => {
        server.onResponse = () => resolve(performance.now() - started);
        server.call(1);
      });
    },
    freeze: () => freeze(child),
    thaw: () => thaw(child),
    pinMainThread(cpus) {
      execFileSync("taskset", ["-p", "-c", cpus, String(child.pid)], { stdio: "ignore" });
    },
    async stop() {
      server.thaw();
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
      const message = JSON.parse(line) as {
        id?: number;
        result?: { content?: { text: string }[]; resultType?: string };
        error?: unknown;
      };
      if (message.id === undefined) continue;
      if (message.id === 0 && !perRequest) {
        initialized?.((firstAnswer = performance.now() - started));
        child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
        continue;
      }
      if (
        message.result?.content?.[0]?.text !== `hello ${message.id}` ||
        (perRequest && message.result.resultType !== "complete")
      )
        throw new Error(`${script} (${mode}): unexpected answer ${line.slice(0, 200)}`);
      if (message.id === 0) initialized?.((firstAnswer = performance.now() - started));
      else server.onResponse(message.id);
    }
  });
  return server;
}

/** Calls `total` times with at most `depth` outstanding; returns requests/s and latencies in µs. */
export function drive(
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

/** A row's figures in one round: each block's requests a second, and the round's latencies in µs. */
export interface RoundFigures {
  /** The row's server process. */
  pid: number;
  sequential: number[];
  pipelined: number[];
  seqLatencies: number[];
  pipeLatencies: number[];
}

/** How a round is run: each server's warm-up, then `blocks` blocks of each kind of call. */
export interface RoundPlan {
  nodeArgs: readonly string[];
  /** Where the driver and the servers' main threads run during sequential blocks (bench/placement.ts). */
  pinning: Pinning;
  warmUp: { pipelined: number; sequential: number };
  /** Calls sent before each block's measured ones, not counted (see interleavedRound). */
  leadIn: { pipelined: number; sequential: number };
  inFlight: number;
  blocks: number;
  sequentialBlock: number;
  /** 0: no blocks with calls in flight. */
  pipelinedBlock: number;
  /** Added to every server's environment. */
  env?: Readonly<Record<string, string>>;
  /** Called with each server once it is warmed up, before it is first stopped (and awaited). */
  afterWarmUp?: (server: Server) => Promise<void>;
}

/**
 * One round: every row's server started in the order given and warmed up, then measured in blocks, the
 * rows taking turns block by block, so that a row's block and its floor's are at most a turn apart (a
 * row and its floor measured whole, one after the other, were seconds apart, and this machine's speed
 * moves within seconds). Every server but the one being measured is stopped (Server.freeze).
 */
export async function interleavedRound(
  rows: readonly { name: string; args: readonly string[]; mode: Mode }[],
  plan: RoundPlan,
): Promise<Map<string, RoundFigures>> {
  const started: { name: string; server: Server; figures: RoundFigures }[] = [];
  try {
    for (const row of rows) {
      const server = startServer(row.args, row.mode, plan.nodeArgs, plan.env);
      const figures: RoundFigures = {
        pid: server.pid,
        sequential: [],
        pipelined: [],
        seqLatencies: [],
        pipeLatencies: [],
      };
      started.push({ name: row.name, server, figures });
      await server.initialize();
      // Warm up both ways a call can arrive: V8 compiles a path once it is hot, on another thread, and a
      // chunk of 64 lines and a chunk of one take different branches (of the server's framing and of
      // node's streams). With the pipelined warm-up alone, the first few thousand sequential calls ran
      // while that compilation was still going on (every server slower, the one with more code most).
      await drive(server, plan.warmUp.pipelined, plan.inFlight, 1);
      await drive(server, plan.warmUp.sequential, 1, 500_000);
      await plan.afterWarmUp?.(server);
      server.freeze();
    }
    const { serverCpu, allCpus } = plan.pinning;
    /** Pins the driver and every server's main thread, or lets them go (see bench/placement.ts). */
    const pin = (pinned: boolean) => {
      if (serverCpu === undefined || allCpus === undefined) return;
      if (pinned) plan.pinning.hold();
      else plan.pinning.release();
      for (const { server } of started) server.pinMainThread(pinned ? String(serverCpu) : allCpus);
    };
    let id = 1_000_000;
    for (const [depth, size, leadIn] of [
      [1, plan.sequentialBlock, plan.leadIn.sequential],
      [plan.inFlight, plan.pipelinedBlock, plan.leadIn.pipelined],
    ] as const) {
      if (size === 0) continue;
      pin(depth === 1);
      for (let block = 0; block < plan.blocks; block++)
        for (let turn = 0; turn < started.length; turn++) {
          const { server, figures } = started[(turn + block) % started.length]!;
          server.thaw();
          // Between a row's turns the other rows' servers have run and taken the caches: the first calls of
          // a turn are slower by more the more code and data a server has (up to ~8% of a 500-call block
          // for mcpgen, bench/RESULTS.md), which no server serving its client without a pause pays.
          await drive(server, leadIn, depth, id);
          const { rps, latencies } = await drive(server, size, depth, id + leadIn);
          server.freeze();
          id += leadIn + size;
          (depth === 1 ? figures.sequential : figures.pipelined).push(rps);
          (depth === 1 ? figures.seqLatencies : figures.pipeLatencies).push(...latencies);
        }
    }
  } finally {
    plan.pinning.release();
    await Promise.all(started.map(({ server }) => server.stop()));
  }
  return new Map(started.map(({ name, figures }) => [name, figures]));
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
