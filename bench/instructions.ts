// Instructions a server child executes, counted by valgrind's callgrind (user
// space, every thread). A wall clock or CPU time on this shared machine moves
// by ±20% from one run to the next, whatever else runs; an instruction count
// moves less (±5-10% per request between runs here: a full GC or a late
// optimization falls in one of the two runs and not the other), so it can
// compare a server with its floor on a busy machine. It is not time: two
// servers running the same number of instructions can take different times
// (cache misses, mispredicted branches; see the README).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCallgrind, parsePerfMap, type CallgrindProfile } from "./callgrind-profile.js";

/**
 * Runs `node ...nodeArgs` under callgrind, hands the URL the child prints
 * first to `drive`, stops the child with SIGTERM once `drive` resolves and
 * returns the instructions it executed from start to exit. V8 runs
 * single-threaded, so that where its compiler and collector run does not
 * move the count between runs.
 */
export function instructionsOf(nodeArgs: readonly string[], drive: (url: string) => Promise<void>): Promise<number> {
  return underCallgrind(["--single-threaded", ...nodeArgs], async (child, exited) => {
    const url = await Promise.race([
      new Promise<string>((resolve) => {
        let printed = "";
        child.stdout!.setEncoding("utf8");
        child.stdout!.on("data", (chunk: string) => {
          printed += chunk;
          const line = /^https?:\/\/\S+$/m.exec(printed);
          if (line) resolve(line[0]);
        });
      }),
      exited.then((code) =>
        Promise.reject(new Error(`the server under callgrind exited (${code}) before printing its URL`)),
      ),
    ]);
    try {
      await drive(url);
    } finally {
      child.kill("SIGTERM");
    }
    await exited;
  });
}

/**
 * Runs `node ...nodeArgs` under callgrind to its end (exit code 0) and returns
 * the instructions it executed. Besides running single-threaded, V8's random
 * and hash seeds are pinned: a script that works alone in one process (no
 * sockets, no other process to take turns with) then repeats its count within
 * ~1% (measured: 7% apart without the seeds, which move hash tables' probes).
 * `input`, when given, is written to the child's stdin (left open); else its
 * stdin is empty. `asStarted: true` runs node as a user starts it (its own
 * seeds, its compiler and collector threads), for counting a start: single-
 * threaded, a Node 20 process's own start costs ~65 million instructions
 * more (~120 million to a bare script's first answer; 188 single-threaded).
 * A child still running after `timeoutMs` (10 minutes unless given) is killed.
 */
export function instructionsOfScript(
  nodeArgs: readonly string[],
  { input, asStarted = false, timeoutMs = 600_000 }: { input?: string; asStarted?: boolean; timeoutMs?: number } = {},
): Promise<number> {
  return underCallgrind(
    [...(asStarted ? [] : ["--single-threaded", "--random-seed=7", "--hash-seed=7"]), ...nodeArgs],
    async (child, exited) => {
      child.stdout!.resume();
      if (input !== undefined) child.stdin!.write(input);
      // A child that never exits (a server that never answers) would hold the run forever.
      const killer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      const code = await exited;
      clearTimeout(killer);
      child.stdin?.destroy();
      if (code !== 0) throw new Error(`node ${nodeArgs.join(" ")} under callgrind exited with ${code}`);
    },
    input !== undefined,
  );
}

/**
 * The caches callgrind simulates: one stated geometry, not the CPU's it runs on
 * (its default), so that miss counts compare across hosts. This machine kind's
 * hardware changes from day to day: the same instructions missed the L1
 * instruction cache 362 times a call on one host and 109 on another, whose is
 * 64 KB (bench/RESULTS.md, thirty-third session). 32 KB 8-way L1
 * instruction and data caches and an 8 MB 16-way last level, 64-byte lines: a
 * common x86 server core of recent years. Size, associativity, line size.
 */
export const SIMULATED_CACHES = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"] as const;
/** SIMULATED_CACHES in words, for the benches' headers. */
export const SIMULATED_CACHES_TEXT = "simulated caches: 32 KB 8-way L1i and L1d, 8 MB 16-way last level";

/**
 * Runs `node ...nodeArgs` under callgrind with its cache and branch simulation
 * (V8 single-threaded, seeds pinned, as instructionsOfScript) and V8's perf
 * map, to its end, and returns the self costs of every function, JIT code
 * named from the perf map (callgrind-profile.ts). Several times slower than
 * counting instructions alone.
 */
export async function profileOfScript(
  nodeArgs: readonly string[],
  { timeoutMs = 600_000 }: { timeoutMs?: number } = {},
): Promise<CallgrindProfile> {
  let profile: CallgrindProfile | undefined;
  // valgrind runs node in its own process: V8 (Node 20) writes the perf map to /tmp/perf-<that pid>.map, a fixed path.
  let perfMapFile: string | undefined;
  try {
    await underCallgrind(
      // --perf-basic-prof also turns V8's event log on, which would leave an isolate-*-v8.log in the working directory.
      [
        "--single-threaded",
        "--random-seed=7",
        "--hash-seed=7",
        "--perf-basic-prof",
        "--logfile=/dev/null",
        ...nodeArgs,
      ],
      async (child, exited) => {
        perfMapFile = `/tmp/perf-${child.pid}.map`;
        child.stdout!.resume();
        const killer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        const code = await exited;
        clearTimeout(killer);
        if (code !== 0) throw new Error(`node ${nodeArgs.join(" ")} under callgrind exited with ${code}`);
      },
      false,
      ["--cache-sim=yes", "--branch-sim=yes", "--dump-instr=yes", ...SIMULATED_CACHES],
      (files) => {
        if (files.length !== 1) throw new Error(`callgrind wrote ${files.length} outputs, expected one`);
        profile = parseCallgrind(readFileSync(files[0]!, "utf8"), parsePerfMap(readFileSync(perfMapFile!, "utf8")));
      },
    );
  } finally {
    if (perfMapFile) rmSync(perfMapFile, { force: true });
  }
  return profile!;
}

async function underCallgrind(
  nodeArgs: readonly string[],
  run: (child: ChildProcess, exited: Promise<number | null>) => Promise<void>,
  withStdin = false,
  valgrindArgs: readonly string[] = [],
  read?: (files: string[]) => void,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-bench-callgrind-"));
  try {
    // Without NODE_EXTRA_CA_CERTS, which this machine kind sets: reading them costs every start the same.
    const env = { ...process.env };
    delete env["NODE_EXTRA_CA_CERTS"];
    const child = spawn(
      "valgrind",
      [
        "--tool=callgrind",
        ...valgrindArgs,
        `--callgrind-out-file=${join(dir, "callgrind.out.%p")}`,
        process.execPath,
        ...nodeArgs,
      ],
      { stdio: [withStdin ? "pipe" : "ignore", "pipe", "ignore"], env },
    );
    const exited = new Promise<number | null>((resolve, reject) => {
      child.once("error", (error: NodeJS.ErrnoException) =>
        reject(
          error.code === "ENOENT"
            ? new Error("--instructions needs valgrind (Debian: apt-get install valgrind)")
            : error,
        ),
      );
      child.once("exit", resolve);
    });
    await run(child, exited);
    read?.(readdirSync(dir).map((file) => join(dir, file)));
    let total = 0;
    for (const file of readdirSync(dir)) {
      const summary = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, file), "utf8"));
      if (!summary) throw new Error(`callgrind wrote no total into ${file}`);
      total += Number(summary[1]);
    }
    return total;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
