// bench:stdio --server-time: where a sequential call's time goes, server by
// server. One interleaved round of sequential blocks only (the timed rounds'
// placement, lead-ins and stopped idle servers), every server started with the
// preload bench/servers/write-probe.js, which times in the server each call
// that arrives alone: from stdin's data event to its answer's write, and the
// write itself. Beside them, the driver's round trip of the same calls. On
// this machine kind the write (which wakes the driver on the other CPU) is
// most of a server's part, and a call that arrives alone runs on cold caches:
// these figures, not the in-process ones, are what a sequential row's ratio is
// made of (bench/RESULTS.md, twenty-ninth session).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { interleavedRound, percentile, type Mode, type RoundPlan } from "./stdio-driver.js";
import { printTable } from "./table.js";
import { hostAtStart, stealLine } from "./host.js";

/** The machine and its load as the run starts, before the run loads it (bench/host.ts). */
const host = hostAtStart();

/** What the probe wrote for one server: calls timed, and µs before the write and in it. */
interface ProbeFigures {
  calls: number;
  beforeWrite: { p50: number; p90: number };
  write: { p50: number; p90: number };
}

/** Runs the round and prints a row per server; `probe` is the built write-probe.js. */
export async function printServerTime(
  rows: readonly { name: string; args: readonly string[]; mode: Mode }[],
  plan: RoundPlan,
  probe: string,
): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "mcpgen-bench-server-time-"));
  try {
    const figures = await interleavedRound(rows, {
      ...plan,
      nodeArgs: [...plan.nodeArgs, "--import", probe],
      pipelinedBlock: 0,
      env: { ...plan.env, MCPGEN_BENCH_WRITE_PROBE: folder },
      // The warm-up's calls are not counted: the probe starts again at SIGUSR2, and says so.
      afterWarmUp: async (server) => {
        process.kill(server.pid, "SIGUSR2");
        const started = join(folder, `${server.pid}.started`);
        for (let waited = 0; !existsSync(started); waited += 5) {
          if (waited > 10_000) throw new Error(`bench/servers/write-probe.js did not answer SIGUSR2 in ${server.pid}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      },
    });
    const table = rows.map(({ name }) => {
      const own = figures.get(name)!;
      const probed = JSON.parse(readFileSync(join(folder, `${own.pid}.json`), "utf8")) as ProbeFigures;
      const us = (value: number) => value.toFixed(1);
      return [
        name,
        String(probed.calls),
        us(probed.beforeWrite.p50),
        us(probed.beforeWrite.p90),
        us(probed.write.p50),
        us(probed.write.p90),
        us(percentile(own.seqLatencies, 0.5)),
      ];
    });
    console.log(host.line);
    console.log(
      `sequential tools/call over stdio, Node ${process.version}: each server's own time per call that arrives alone, ` +
        `timed in the server (bench/servers/write-probe.ts); one round of ${plan.blocks} blocks of ${plan.sequentialBlock} ` +
        `calls a row after ${plan.leadIn.sequential} not counted, the rows taking turns; CPUs: ${plan.pinning.description}\n`,
    );
    printTable(["server", "calls", "before write µs p50", "p90", "write µs p50", "p90", "round trip µs p50"], table);
    console.log(
      `\ncalls: those the probe timed (the lead-ins' too); before write: from stdin's data event to the answer's ` +
        `process.stdout.write; write: that call, which hands the answer to the pipe and wakes the driver; round trip: ` +
        `the driver's, from its write of the call to its read of the answer (measured calls only).`,
    );
    console.log(stealLine(host));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
