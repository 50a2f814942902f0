// The HTTP benchmarks' measuring loop (bench:http, bench:fetch): servers as
// child processes on loopback, each row beside a floor process of its own,
// measured in blocks of short turns, and the figures of every row.
// Every process is started and warmed up once. Each round measures every pair
// in blocks: the pairs take turns, and within a pair the row and its floor go
// one right after the other. Figures: req/s (median of the blocks), ×floor
// (median of the per-block ratios, with their middle half), p50/p99 latency,
// the server's CPU time per request and its peak RSS (VmHWM), from /proc.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { BenchClient, type Mode } from "./http-client.js";
import { median, pairedMiddleHalf, pairedRatio, percentile } from "./stats.js";

/** A server to measure: a script that prints its URL on its first line of output. */
export interface ServerTarget {
  name: string;
  script: string;
  args: string[];
  mode: Mode;
  /** The name of the floor this row is measured beside (a floor names itself). */
  floor: string;
  /** The executable and its arguments before the script (default: this Node). */
  runtime?: { command: string; args: string[] };
}

export interface Counts {
  rounds: number;
  /** A round's blocks, each a turn of every pair. */
  blocks: number;
  /** Clients, each on its own keep-alive connection. */
  clients: number;
  /** A client's calls in a block's measured window. */
  callsPerClient: number;
  /** A client's calls before each window, not counted. */
  leadInPerClient: number;
  /** A client's calls when its server has started. */
  warmupPerClient: number;
}

export interface RowFigures {
  target: ServerTarget;
  isFloor: boolean;
  rps: number;
  /** The median over blocks of the row's req/s ÷ its floor's in the same turn. */
  ratio: number;
  /** The middle half of those per-block ratios: how far one block's ratio moves in this run. */
  ratioRange: { low: number; high: number } | undefined;
  /** Per block: the row's req/s and its floor's (empty for a floor). */
  blocks: { row: number[]; floor: number[] };
  /** The median over rounds of CPU µs/req ÷ the floor's; undefined when a floor's round took no tick. */
  cpuRatio: number | undefined;
  p50: number;
  p99: number;
  /** Peak RSS (a floor: the median of its processes'). */
  rssMb: number;
  rssBeyondFloor: number;
  cpuUs: number;
}

/** One measuring window of a server: `callsPerClient` calls of every client, after a lead-in. */
interface Window {
  rps: number;
  /** The server's CPU time (user + system) over the window, in clock ticks (TICKS_PER_SECOND). */
  cpuTicks: number;
}

/** A server child, warmed up, with its clients connected. */
interface Running {
  target: ServerTarget;
  child: ChildProcess;
  team: BenchClient[];
  exited: Promise<void>;
}

/**
 * Every server process started, from its spawn on. Whatever ends the run (a failed call, a deadline,
 * ^C, a SIGTERM), none outlives it: they read no input whose end would stop them.
 */
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const)
  process.once(signal, () => process.exit(code));

/** A window or warm-up that has not ended after this long is a hung server or driver: the run fails. */
const DEADLINE_MS = 300_000;

async function withDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${DEADLINE_MS / 1000} s`)), DEADLINE_MS);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** USER_HZ: the unit of utime and stime in /proc/<pid>/stat (100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The CPU time (user + system, in ticks) a process has used so far. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** A server's peak RSS so far (VmHWM), in MB. */
function peakRssMb(server: Running): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN) / 1024;
}

/**
 * Measures `targets` (rows and their floors) and returns each one's figures, in the order given.
 * Every row runs beside a floor process of its own (another process of its floor's script),
 * measured right before or after it in every block, and every process serves one window a block:
 * a shared machine's speed moves within seconds, so a row is compared with its floor of the same
 * moment, in many short turns; and a floor shared by several rows would serve more windows than
 * they do and rest less between them. A floor without rows (--only) is measured alone.
 */
export async function measureRows(targets: readonly ServerTarget[], counts: Counts): Promise<RowFigures[]> {
  const { rounds, blocks, clients, callsPerClient, leadInPerClient, warmupPerClient } = counts;

  async function start(target: ServerTarget): Promise<Running> {
    const command = target.runtime?.command ?? process.execPath;
    const child = spawn(command, [...(target.runtime?.args ?? []), target.script, ...target.args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.add(child);
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    try {
      const url = await withDeadline(
        new Promise<string>((resolve, reject) => {
          child.once("error", reject);
          child.once("exit", (code) => reject(new Error(`${target.name} exited with ${code} before its URL`)));
          child.stdout!.setEncoding("utf8");
          child.stdout!.once("data", (line: string) => resolve(line.trim().split("\n")[0]!));
        }),
        `${target.name}: printing its URL`,
      );
      const team = Array.from({ length: clients }, () => new BenchClient(url, target.mode));
      await withDeadline(
        (async () => {
          await Promise.all(team.map((c) => c.open()));
          await Promise.all(team.map((c) => c.run(warmupPerClient, [])));
        })(),
        `${target.name}: the warm-up`,
      );
      return { target, child, team, exited };
    } catch (error) {
      child.kill("SIGKILL");
      throw error;
    }
  }

  /** A turn of a server: the lead-in, then the window (its latencies added to `latencies`). */
  async function measureWindow(server: Running, latencies: number[]): Promise<Window> {
    await withDeadline(
      Promise.all(server.team.map((c) => c.run(leadInPerClient, []))),
      `${server.target.name}: a lead-in of ${leadInPerClient} calls a client`,
    );
    const cpuBefore = cpuTicks(server.child.pid!);
    const began = performance.now();
    await withDeadline(
      Promise.all(server.team.map((c) => c.run(callsPerClient, latencies))),
      `${server.target.name}: a window of ${callsPerClient} calls a client`,
    );
    const seconds = (performance.now() - began) / 1000;
    return { rps: (clients * callsPerClient) / seconds, cpuTicks: cpuTicks(server.child.pid!) - cpuBefore };
  }

  async function stop(server: Running): Promise<void> {
    for (const c of server.team) c.close();
    server.child.kill("SIGTERM");
    await server.exited;
  }

  const isFloor = (t: ServerTarget) => t.name === t.floor;
  const floorTarget = (t: ServerTarget) => {
    const floor = targets.find((f) => f.name === t.floor && isFloor(f));
    if (!floor) throw new Error(`${t.name}: no floor named ${JSON.stringify(t.floor)}`);
    return floor;
  };
  const rowTargets = targets.filter((t) => !isFloor(t));
  const running: Running[] = [];
  /** Each row with its floor; a floor without rows is measured alone, for its line of the table. */
  const pairs: { row: Running | undefined; floor: Running }[] = [];
  try {
    for (const target of rowTargets) {
      const row = await start(target);
      running.push(row);
      const floor = await start(floorTarget(target));
      running.push(floor);
      pairs.push({ row, floor });
    }
    for (const floorOnly of targets.filter((t) => isFloor(t) && !rowTargets.some((r) => r.floor === t.name))) {
      const floor = await start(floorOnly);
      running.push(floor);
      pairs.push({ row: undefined, floor });
    }
  } catch (error) {
    for (const server of running) server.child.kill("SIGKILL");
    throw error;
  }
  /** Per server name: the req/s of every block of the processes of that name (a floor's twins together). */
  const blockRps = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  /** Per server name: each round's p50 and p99 latency of each process of that name. */
  const roundLatencies = new Map<string, { p50: number; p99: number }[]>(targets.map((t) => [t.name, []]));
  /** Per process: its CPU µs per request, one a round (over the round's windows). */
  const roundCpuUs = new Map<Running, number[]>(running.map((r) => [r, []]));
  /** Per row: its req/s and its floor's, block by block (the same turn). */
  const paired = new Map<string, { row: number[]; floor: number[] }>(
    rowTargets.map((t) => [t.name, { row: [], floor: [] }]),
  );
  /** Per process: its peak RSS (VmHWM) once it has served the warm-up and every round. */
  const peaks = new Map<Running, number>();
  for (let round = 0; round < rounds; round++) {
    const latencies = new Map<Running, number[]>(running.map((r) => [r, []]));
    const ticks = new Map<Running, number>(running.map((r) => [r, 0]));
    const measure = async (server: Running) => {
      const window = await measureWindow(server, latencies.get(server)!);
      blockRps.get(server.target.name)!.push(window.rps);
      ticks.set(server, ticks.get(server)! + window.cpuTicks);
      return window;
    };
    for (let block = 0; block < blocks; block++) {
      const turn = round * blocks + block;
      for (let i = 0; i < pairs.length; i++) {
        const { row, floor } = pairs[(i + turn) % pairs.length]!;
        if (!row) {
          await measure(floor);
          continue;
        }
        let own: Window;
        let base: Window;
        if (turn % 2 === 0) {
          own = await measure(row);
          base = await measure(floor);
        } else {
          base = await measure(floor);
          own = await measure(row);
        }
        const pair = paired.get(row.target.name)!;
        pair.row.push(own.rps);
        pair.floor.push(base.rps);
      }
    }
    for (const server of running) {
      const own = latencies.get(server)!;
      roundLatencies.get(server.target.name)!.push({ p50: percentile(own, 0.5), p99: percentile(own, 0.99) });
      const seconds = ticks.get(server)! / TICKS_PER_SECOND;
      roundCpuUs.get(server)!.push((seconds * 1e6) / (blocks * clients * callsPerClient));
    }
  }
  for (const server of running) {
    peaks.set(server, peakRssMb(server));
    await stop(server);
  }

  return targets.map((t) => {
    const floor = isFloor(t);
    const pair = pairs.find((p) => p.row?.target === t);
    const blocksPaired = paired.get(t.name) ?? { row: [], floor: [] };
    const ownCpu = pairs
      .filter((p) => (floor ? p.floor : p.row)?.target === t)
      .flatMap((p) => roundCpuUs.get(floor ? p.floor : p.row!)!);
    // CPU ×floor: each round's CPU µs a request ÷ the floor process's of the same round; undefined when a
    // floor's round took no clock tick of CPU (--quick).
    const cpuRatios = pair
      ? roundCpuUs
          .get(pair.row!)!
          .map((us, round) => us / roundCpuUs.get(pair.floor)![round]!)
          .filter(Number.isFinite)
      : [];
    // A row's peak RSS beyond the floor's is its own less its twin floor's; a floor shows the median of its twins'.
    const floorPeaks = pairs.filter((p) => p.floor.target === t).map((p) => peaks.get(p.floor)!);
    const latency = roundLatencies.get(t.name)!;
    return {
      target: t,
      isFloor: floor,
      rps: median(blockRps.get(t.name)!),
      ratio: floor ? 1 : pairedRatio(blocksPaired.row, blocksPaired.floor),
      ratioRange: floor ? undefined : pairedMiddleHalf(blocksPaired.row, blocksPaired.floor),
      blocks: blocksPaired,
      cpuRatio: floor ? 1 : cpuRatios.length > 0 ? median(cpuRatios) : undefined,
      p50: median(latency.map((l) => l.p50)),
      p99: median(latency.map((l) => l.p99)),
      rssMb: floor ? median(floorPeaks) : peaks.get(pair!.row!)!,
      rssBeyondFloor: floor ? 0 : peaks.get(pair!.row!)! - peaks.get(pair!.floor)!,
      cpuUs: median(ownCpu),
    };
  });
}
