// The machine a benchmark ran on, printed as each bench's first line. This
// project's machine kind is a VM whose host hardware changes from day to day:
// on 2026-11-29 an "AMD EPYC" at 2.0 GHz with a 64 KB L1 instruction cache
// read mcpgen's ratios lower than earlier days' runs, and its in-process
// instruction-cache misses differed (callgrind simulated the host's caches
// then; bench/instructions.ts now fixes their geometry).
// A figure is comparable with another only on the same hardware, so every run
// says which it had, with the load average when it started; and, as a timed run
// ends, how much of the CPUs' time the hypervisor gave other guests meanwhile
// (steal), which the load average does not show: on 2026-12-01 a bench:http run
// and the minutes after it lost 0.6% of it, a bench:stdio run after them 10.8%.
import { readdirSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";

/** One cache of a CPU, as Linux describes it under /sys/devices/system/cpu/cpu0/cache/index<N>. */
export interface CacheEntry {
  readonly level: string;
  readonly type: string;
  readonly size: string;
}

/** Caches as "L1d 32K, L1i 64K, L2 512K, L3 8192K": by level, data before instruction. */
export function cacheSummary(entries: readonly CacheEntry[]): string {
  const name = (entry: CacheEntry) =>
    `L${entry.level}${entry.type === "Data" ? "d" : entry.type === "Instruction" ? "i" : ""}`;
  return [...entries]
    .sort((a, b) => (a.level === b.level ? (name(a) < name(b) ? -1 : 1) : Number(a.level) - Number(b.level)))
    .map((entry) => `${name(entry)} ${entry.size}`)
    .join(", ");
}

/**
 * One line: CPU model (with its family and model numbers where /proc/cpuinfo has them: a VM's model
 * name may be only "AMD EPYC", and the numbers tell its generation), count and clock (where known),
 * caches (Linux only), the 1-minute load average.
 */
export function hostLine(cacheFolder = "/sys/devices/system/cpu/cpu0/cache", cpuinfoFile = "/proc/cpuinfo"): string {
  const all = cpus();
  const first = all[0];
  const cpuinfo = readOrUndefined(cpuinfoFile);
  const mhz = first && first.speed > 0 ? first.speed : cpuinfo && cpuinfoMhz(cpuinfo);
  const generation = cpuinfo && cpuinfoGeneration(cpuinfo);
  const cpu = first
    ? `${first.model.trim()}${generation ? ` (${generation})` : ""}, ${all.length} CPU(s)${mhz ? ` at ${mhz} MHz` : ""}`
    : "CPU unknown";
  const caches = cacheSummary(readCaches(cacheFolder));
  const load = loadavg()[0]!.toFixed(2);
  return `host: ${cpu}${caches ? `; caches ${caches}` : ""}; load average ${load}`;
}

function readCaches(folder: string): CacheEntry[] {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => /^index\d+$/.test(name));
  } catch {
    return []; // not Linux, or no sysfs: the line goes without caches
  }
  const read = (name: string, file: string) => readFileSync(join(folder, name, file), "utf8").trim();
  return names.map((name) => ({ level: read(name, "level"), type: read(name, "type"), size: read(name, "size") }));
}

/** The clock /proc/cpuinfo states: libuv reports 0 MHz where the VM has no cpufreq folder, as this machine kind. */
function cpuinfoMhz(cpuinfo: string): number | undefined {
  const match = /^cpu MHz\s*:\s*([\d.]+)/m.exec(cpuinfo);
  return match ? Math.round(Number(match[1])) : undefined;
}

/** "family 25, model 17" from the first CPU's entry in /proc/cpuinfo (x86 names them so). */
export function cpuinfoGeneration(cpuinfo: string): string | undefined {
  const family = /^cpu family\s*:\s*(\d+)/m.exec(cpuinfo);
  const model = /^model\s*:\s*(\d+)/m.exec(cpuinfo);
  return family && model ? `family ${family[1]}, model ${model[1]}` : undefined;
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The CPUs' time as the first line of /proc/stat counts it, in clock ticks: all of it, and the hypervisor's steal. */
export interface CpuTimes {
  readonly total: number;
  readonly steal: number;
}

/**
 * The "cpu" line of /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal, then guest
 * and guest_nice, which user and nice already include (proc(5)). Undefined without a steal field.
 */
export function parseCpuTimes(procStat: string): CpuTimes | undefined {
  const line = /^cpu\s+([\d ]+)$/m.exec(procStat);
  const fields = line ? line[1]!.trim().split(/\s+/).map(Number) : [];
  if (fields.length < 8) return undefined;
  return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7]! };
}

/** A run's start: the host line, and the CPU times and clock to measure the run's steal against. */
export interface HostAtStart {
  readonly line: string;
  readonly times: CpuTimes | undefined;
  readonly startedMs: number;
}

export function hostAtStart(): HostAtStart {
  const times = parseCpuTimes(readOrUndefined("/proc/stat") ?? "");
  return { line: hostLine(), times, startedMs: performance.now() };
}

/**
 * The line a timed run ends with: the share of the CPUs' time the hypervisor gave other guests
 * while the run went on, and the load average as it ends. `now` is /proc/stat's reading (the
 * tests pass their own).
 */
export function stealLine(
  start: HostAtStart,
  now = parseCpuTimes(readOrUndefined("/proc/stat") ?? ""),
  nowMs = performance.now(),
): string {
  const seconds = Math.round((nowMs - start.startedMs) / 1000);
  const load = loadavg()[0]!.toFixed(2);
  const ticks = start.times && now ? now.total - start.times.total : 0;
  const stolen =
    start.times && now && ticks > 0
      ? `${(((now.steal - start.times.steal) / ticks) * 100).toFixed(1)}% of the CPUs' time went to other guests (steal)`
      : "steal unknown (no /proc/stat)";
  return `host over the run's ${seconds} s: ${stolen}; load average ${load} as it ended`;
}
