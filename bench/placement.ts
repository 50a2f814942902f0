// Where a stdio benchmark's driver and servers run: which CPUs each may use
// (Linux affinity, set with util-linux's taskset).
//
// Unpinned, a sequential call's time on this 2-core machine kind depends on
// whether the scheduler has the driver and the server on one core (~21 µs a
// call: two context switches) or on two (~75 µs: each call wakes the other
// core), and it keeps one configuration or the other for a while: the middle
// half of the block-by-block ratios of two copies of the floor spanned
// 0.38–2.52× in one run (bench/RESULTS.md, twenty-eighth session), and
// 0.98–1.02× pinned. Pinned, every row runs in the same configuration.
// What is pinned is the driver (every thread) and each server's main thread,
// where its JavaScript runs; the helper threads a server's Node started with
// (V8's compilers and collector) go where the scheduler puts them, as in any
// server's process. Only sequential calls are pinned: with 64 in flight both
// processes are always busy and the scheduler keeps them on separate cores by
// itself, while a pinned server could not leave a core the host had stalled
// (the 64-deep p99 of pinned rounds reached 3.4× its floor's).
//   split  the driver on one CPU, every server's main thread on another: a client
//          and a server each on a core, as on any multi-core host
//   same   the driver and every server's main thread on one CPU
//   free   no pinning (the scheduler decides, as before)
import { execFileSync } from "node:child_process";
import type { OptionSpec, Options } from "./options.js";

export type Placement = "split" | "same" | "free";
export const placements: readonly Placement[] = ["split", "same", "free"];

export interface Pinning {
  placement: Placement;
  /** The CPU every server's main thread is kept on while pinned (undefined: never pinned). */
  serverCpu?: number;
  /** Every CPU this process may use, in taskset's list form: where a server's main thread goes back to. */
  allCpus?: string;
  /** What the header says about it. */
  description: string;
  /** Pins the driver (this process, every thread) to its CPU. */
  hold(): void;
  /** Gives the driver back every CPU it had (before cold starts, whose servers inherit its affinity). */
  release(): void;
}

/** The CPUs in taskset's list form ("0,1", "0-3,6"), or undefined when `list` is not one. */
export function cpuList(list: string): number[] | undefined {
  const cpus: number[] = [];
  for (const part of list.split(",")) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) return undefined;
    const from = Number(match[1]);
    const to = Number(match[2] ?? match[1]);
    if (to < from) return undefined;
    for (let cpu = from; cpu <= to; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** The CPUs this process may run on (`taskset -p`), or why they cannot be read. */
function allowedCpus(): number[] | string {
  let out: string;
  try {
    out = execFileSync("taskset", ["-c", "-p", String(process.pid)], { encoding: "utf8" });
  } catch (error) {
    return `taskset failed: ${(error as Error).message.split("\n")[0]}`;
  }
  // "pid 123's current affinity list: 0,1"
  return cpuList(out.slice(out.lastIndexOf(":") + 1)) ?? `taskset printed ${JSON.stringify(out.trim())}`;
}

/** Every thread of this process (`-a`: V8's and libuv's too) limited to `cpus`. */
function pinSelf(cpus: string): void {
  execFileSync("taskset", ["-a", "-c", "-p", cpus, String(process.pid)], { stdio: "ignore" });
}

/**
 * The CPUs of `placement` on this machine, to be held while the timed rounds run. `explicit`: the
 * placement was asked for, so one that cannot be had is an error; the default falls back to free, the
 * reason in the description.
 */
export function pinning(placement: Placement, explicit: boolean): Pinning {
  const unpinned = (description: string): Pinning => ({ placement: "free", description, hold() {}, release() {} });
  if (placement === "free") return unpinned("free (not pinned)");
  const cpus = allowedCpus();
  if (typeof cpus === "string" || (placement === "split" && cpus.length < 2)) {
    const problem = typeof cpus === "string" ? cpus : `only CPU ${cpus.join(",")} is allowed`;
    if (explicit) throw new Error(`--placement ${placement}: ${problem}`);
    return unpinned(`free (not pinned: ${problem})`);
  }
  const driverCpu = cpus[0]!;
  const serverCpu = placement === "split" ? cpus[1]! : driverCpu;
  return {
    placement,
    serverCpu,
    allCpus: cpus.join(","),
    description:
      (placement === "split"
        ? `split (sequential calls: the driver on CPU ${driverCpu}, every server's main thread on CPU ${serverCpu}`
        : `same (sequential calls: the driver and every server's main thread on CPU ${driverCpu}`) +
      "; 64 in flight: not pinned)",
    hold: () => pinSelf(String(driverCpu)),
    release: () => pinSelf(cpus.join(",")),
  };
}

/** The --placement option of a stdio benchmark. */
export const placementOption: OptionSpec = {
  name: "--placement",
  takes: "text",
  label: "split|same|free",
  help: "CPUs for sequential calls: the driver on one and every server's main thread on another (split, the default), all on one (same), or not pinned (free)",
};

/** The pinning --placement asks for (split when not given); a placement that is not one, or cannot be had, exits 2. */
export function pinningOf(options: Options, script: string): Pinning {
  const asked = options.text("--placement");
  try {
    if (asked !== undefined && !placements.includes(asked as Placement))
      throw new Error(`--placement ${JSON.stringify(asked)}: ${placements.join(", ")}`);
    return pinning((asked as Placement | undefined) ?? "split", asked !== undefined);
  } catch (error) {
    console.error(`bench/${script}: ${(error as Error).message}`);
    process.exit(2);
  }
}
