// bench:stdio's client side: a server row started as a child process, its echo
// tool called over the pipes with every answer checked, one at a time or with
// many in flight, and a round of rows measured in turns.
import { spawn } from "node:child_process";

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
 * The servers run without NODE_EXTRA_CA_CERTS: Node reads those certificates at start, a constant
 * that would hide the differences a cold start is measured for.
 */
export const { NODE_EXTRA_CA_CERTS: _certificates, ...childEnv } = process.env;

/** A tools/call of echo, as a line; per-request lines carry the _meta. */
export function callLine(id: number, mode: Mode): string {
  const meta = mode === "per-request" ? `,"_meta":${PER_REQUEST_META}` : "";
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello ${id}"}${meta}}}\n`;
}

export interface Server {
  call(id: number): void;
  /** Legacy: initialize (id 0), resolved at its response. Per-request: a first tools/call (id 0), at its response. */
  initialize(): Promise<number>;
  /** After initialize: ms from the spawn to the answer of a first tools/call (per-request: initialize's own figure). */
  firstCall(): Promise<number>;
  onResponse: (id: number) => void;
  stop(): Promise<void>;
}

/** Starts `node ...args` as a row's server, spoken to in `mode`. */
export function startServer(args: readonly string[], mode: Mode): Server {
  const perRequest = mode === "per-request";
  const script = args.join(" ");
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"], env: childEnv });
  const killer = setTimeout(() => child.kill("SIGKILL"), 300_000);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let buffered = "";
  let initialized: ((ms: number) => void) | undefined;
  let firstAnswer = 0;
  const server: Server = {
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
  sequential: number[];
  pipelined: number[];
  seqLatencies: number[];
  pipeLatencies: number[];
}

/** How a round is run: each server's warm-up, then `blocks` blocks of each kind of call. */
export interface RoundPlan {
  warmUp: { pipelined: number; sequential: number };
  /** Calls sent before each block's measured ones, not counted (see interleavedRound). */
  leadIn: { pipelined: number; sequential: number };
  inFlight: number;
  blocks: number;
  sequentialBlock: number;
  pipelinedBlock: number;
}

/**
 * One round: every row's server started in the order given and warmed up, then measured in blocks, the
 * rows taking turns block by block, so that a row's block and its floor's are at most a turn apart
 * (a shared machine's speed moves within seconds). A server waits idle while the others are measured.
 */
export async function interleavedRound(
  rows: readonly { name: string; args: readonly string[]; mode: Mode }[],
  plan: RoundPlan,
): Promise<Map<string, RoundFigures>> {
  const started: { name: string; server: Server; figures: RoundFigures }[] = [];
  try {
    for (const row of rows) {
      const server = startServer(row.args, row.mode);
      const figures: RoundFigures = { sequential: [], pipelined: [], seqLatencies: [], pipeLatencies: [] };
      started.push({ name: row.name, server, figures });
      await server.initialize();
      // Warmed up both ways a call can arrive (a chunk of 64 lines, a chunk of one), so that the measured
      // blocks see a server in its steady state, as one that has served for a while.
      await drive(server, plan.warmUp.pipelined, plan.inFlight, 1);
      await drive(server, plan.warmUp.sequential, 1, 500_000);
    }
    let id = 1_000_000;
    for (const [depth, size, leadIn] of [
      [1, plan.sequentialBlock, plan.leadIn.sequential],
      [plan.inFlight, plan.pipelinedBlock, plan.leadIn.pipelined],
    ] as const) {
      for (let block = 0; block < plan.blocks; block++)
        for (let turn = 0; turn < started.length; turn++) {
          const { server, figures } = started[(turn + block) % started.length]!;
          // A lead-in, not counted: the first calls after another row's turn pay for its pause, which a
          // server serving its client without one does not.
          await drive(server, leadIn, depth, id);
          const { rps, latencies } = await drive(server, size, depth, id + leadIn);
          id += leadIn + size;
          (depth === 1 ? figures.sequential : figures.pipelined).push(rps);
          (depth === 1 ? figures.seqLatencies : figures.pipeLatencies).push(...latencies);
        }
    }
  } finally {
    await Promise.all(started.map(({ server }) => server.stop()));
  }
  return new Map(started.map(({ name, figures }) => [name, figures]));
}
