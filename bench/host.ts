// The machine a benchmark ran on, printed as each bench's first line. This
// project's machine kind is a VM whose host hardware changes from day to day:
// on 2026-11-29 an "AMD EPYC" at 2.0 GHz with a 64 KB L1 instruction cache
// read mcpgen's ratios lower than earlier days' runs, and its in-process
// instruction-cache misses differed (callgrind simulated the host's caches
// then; bench/instructions.ts now fixes their geometry).
// A figure is comparable with another only on the same hardware, so every run
// says which it had, with the load average when it started.
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

/** One line: CPU model, count and clock (where known), caches (Linux only), the 1-minute load average. */
export function hostLine(cacheFolder = "/sys/devices/system/cpu/cpu0/cache"): string {
  const all = cpus();
  const first = all[0];
  const mhz = first && first.speed > 0 ? first.speed : cpuinfoMhz();
  const cpu = first ? `${first.model.trim()}, ${all.length} CPU(s)${mhz ? ` at ${mhz} MHz` : ""}` : "CPU unknown";
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
function cpuinfoMhz(): number | undefined {
  try {
    const match = /^cpu MHz\s*:\s*([\d.]+)/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    return match ? Math.round(Number(match[1])) : undefined;
  } catch {
    return undefined;
  }
}
