// Stopping a benchmark's idle server processes while another row is measured
// (SIGSTOP), and letting them go on (SIGCONT): what a server's own threads do
// between its turns (V8's compilers and collector) then happens in its own
// turn, not in another row's. Used by bench/stdio-driver.ts and bench/http.ts.
import type { ChildProcess } from "node:child_process";

/**
 * The processes stopped and not yet let go. A stopped process never reads the end of its input
 * nor a SIGTERM, so if this process ends while one is stopped (an error, a test's timeout, ^C),
 * nothing else would end it: they are killed on the way out.
 */
const frozen = new Set<ChildProcess>();
let killFrozenOnExit = false;

function killFrozen(): void {
  for (const child of frozen) child.kill("SIGKILL");
  frozen.clear();
}

function watchFrozen(): void {
  if (killFrozenOnExit) return;
  killFrozenOnExit = true;
  process.on("exit", killFrozen);
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)
    process.once(signal, () => {
      killFrozen();
      process.exit(code);
    });
}

/**
 * Whether freeze() stops anything. Not while the children write CPU profiles (--cpu-prof): V8's
 * profiler gives each sample the time since the one before it, so a process's first sample after
 * it went on carried the whole time it was stopped, and the function running then read as the
 * profile's hottest (node:net's `_unrefTimer` at 42% of a bench:http server's time, sampled 0.3%).
 */
let stopping = true;

/** Turns freeze() on or off (on unless said otherwise). */
export function stopIdleProcesses(on: boolean): void {
  stopping = on;
}

/** What the benches' headers say of the idle processes. */
export function idleProcesses(): string {
  return stopping ? "the idle processes stopped" : "the idle processes not stopped (CPU profiles are written)";
}

/** Stops `child` (SIGSTOP) until thaw(); it is killed if this process ends first. A no-op while profiling. */
export function freeze(child: ChildProcess): void {
  if (!stopping) return;
  watchFrozen();
  frozen.add(child);
  child.kill("SIGSTOP");
}

/** Lets a frozen `child` go on (SIGCONT); harmless on one that is not stopped. */
export function thaw(child: ChildProcess): void {
  child.kill("SIGCONT");
  frozen.delete(child);
}
