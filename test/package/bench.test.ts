// The benchmarks run from their npm scripts' build and print every row; the
// figures themselves are for the README, not asserted (this machine is shared
// and noisy).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { projectRoot, tempDir } from "../helpers.js";
import {
  leastSquares,
  pairedMiddleHalf,
  pairedRange,
  pairedRatio,
  slopeBeyond,
  targetLines,
} from "../../bench/targets.js";
import { cpuList } from "../../bench/placement.js";
import { AREAS } from "../../bench/callgrind-profile.js";
import { cacheSummary, cpuinfoGeneration, hostLine, parseCpuTimes, stealLine } from "../../bench/host.js";

/** Runs dist/bench/<name>.js --quick and returns what it printed, once it exited 0 with nothing on stderr. */
function quickRun(name: string, extra: readonly string[] = [], timeoutMs = 120_000): string {
  const script = join(projectRoot, "dist", "bench", `${name}.js`);
  expect(existsSync(script), "npm test compiles bench/ first").toBe(true);
  const run = spawnSync(process.execPath, [script, "--quick", ...extra], {
    cwd: projectRoot,
    encoding: "utf8",
    timeout: timeoutMs,
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  // A timed run ends with what the hypervisor took from it (bench/host.ts); a counted one (callgrind) does not.
  if (!extra.some((option) => option === "--instructions" || option === "--cache"))
    expect(run.stdout.trimEnd().split("\n").at(-1)).toMatch(
      /^host over the run's \d+ s: \d+\.\d% of the CPUs' time went to other guests \(steal\); load average \d+\.\d\d as it ended$/,
    );
  return run.stdout;
}

test("pairedRatio: the median of the rounds' own ratios, not a ratio of two medians", () => {
  // Rounds 1 and 2: the row at 1.2x its floor; round 3 fell on a busier moment for the row alone.
  // The medians (100 and 100) would say 1.0x.
  expect(pairedRatio([120, 60, 100], [100, 50, 200])).toBeCloseTo(1.2, 10);
  expect(pairedRatio([1, 2], [1, 1])).toBeCloseTo(1.5, 10); // an even count: the mean of the middle two
  expect(() => pairedRatio([1, 2], [1])).toThrow(/2 rounds against the floor's 1/);
});

test("pairedMiddleHalf: the first and third quartile of the paired ratios, each a ratio measured", () => {
  // Ratios 0.5, 1, 1.1, 1.2, 3 (sorted): quartile indices 1 and 3 of 0..4.
  expect(pairedMiddleHalf([1, 1, 1.2, 1.1, 1.5], [2, 1, 1, 1, 0.5])).toEqual({ low: 1, high: 1.2 });
  // Eight ratios 1..8: indices floor(7/4) = 1 and ceil(21/4) = 6, outwards of the exact quartiles.
  const eight = [1, 2, 3, 4, 5, 6, 7, 8];
  expect(
    pairedMiddleHalf(
      eight,
      eight.map(() => 1),
    ),
  ).toEqual({ low: 2, high: 7 });
  expect(pairedMiddleHalf([3], [2])).toEqual({ low: 1.5, high: 1.5 });
  expect(() => pairedMiddleHalf([1], [])).toThrow(/1 rounds against the floor's 0/);
});

test("cpuList: taskset's list form, ranges included; anything else is not one", () => {
  expect(cpuList(" 0,1\n")).toEqual([0, 1]);
  expect(cpuList("0-3,6")).toEqual([0, 1, 2, 3, 6]);
  for (const bad of ["", "0,", "a", "3-1", "0x1"]) expect(cpuList(bad)).toBeUndefined();
});

test("pairedRange: the lowest and highest of the rounds' own ratios", () => {
  expect(pairedRange([120, 60, 100], [100, 50, 200])).toEqual({ low: 0.5, high: 1.2 });
  expect(pairedRange([3], [2])).toEqual({ low: 1.5, high: 1.5 });
  expect(() => pairedRange([], [])).toThrow(/0 rounds against the floor's 0/);
});

test("targetLines: a target's range follows its verdict, aligned; a target without one ends at its verdict", () => {
  const lines = targetLines([
    { what: "a", value: 0.89, bound: "at least", limit: 0.9, unit: "×", range: { of: "rounds", low: 0.8, high: 0.95 } },
    {
      what: "a longer one",
      value: 1.1,
      bound: "at most",
      limit: 1.2,
      unit: "×",
      range: { of: "spawns", low: 1, high: 2 },
    },
    { what: "b", value: 3, bound: "at most", limit: 4, unit: " KB" },
  ]).split("\n");
  expect(lines).toEqual([
    "  a                 0.89×  target ≥ 0.90×: NOT MET  (rounds 0.80×–0.95×)",
    "  a longer one      1.10×  target ≤ 1.20×: met      (spawns 1.00×–2.00×)",
    "  b               3.00 KB  target ≤ 4.00 KB: met",
  ]);
});

test("leastSquares: the slope and its standard error, which is 0 on a line and grows with the scatter", () => {
  const onLine = leastSquares([0, 1, 2, 3].map((x) => ({ x, y: 5 + 2 * x })));
  expect(onLine.slope).toBeCloseTo(2, 12);
  expect(onLine.standardError).toBeCloseTo(0, 12);
  // y = 0, 1, 0, 1 at x = 0..3: slope 0.2; residuals -0.2, 0.6, -0.6, 0.2 (sum of squares 0.8) over
  // n - 2 = 2 degrees of freedom and a spread of x of 5: the error is sqrt(0.8 / 2 / 5).
  const scattered = leastSquares([0, 1, 0, 1].map((y, x) => ({ x, y })));
  expect(scattered.slope).toBeCloseTo(0.2, 12);
  expect(scattered.standardError).toBeCloseTo(Math.sqrt(0.08), 12);
  expect(() =>
    leastSquares([
      { x: 0, y: 0 },
      { x: 1, y: 1 },
    ]),
  ).toThrow(/2 points/);
  expect(() => leastSquares([0, 0, 0].map((x) => ({ x, y: x })))).toThrow(/same x/);
});

test("slopeBeyond: a row's slope less its floor's, their errors added in quadrature", () => {
  const beyond = slopeBeyond({ slope: 8.7, standardError: 3 }, { slope: 5.6, standardError: 4 });
  expect(beyond.slope).toBeCloseTo(3.1, 12);
  expect(beyond.standardError).toBeCloseTo(5, 12); // sqrt(3² + 4²)
  // A row that grows while its floor holds keeps its whole slope.
  expect(slopeBeyond({ slope: 40, standardError: 1 }, { slope: 0, standardError: 0 })).toEqual({
    slope: 40,
    standardError: 1,
  });
});

test("cacheSummary: caches by level, data before instruction, in sysfs's sizes", () => {
  expect(
    cacheSummary([
      { level: "3", type: "Unified", size: "8192K" },
      { level: "1", type: "Instruction", size: "64K" },
      { level: "2", type: "Unified", size: "512K" },
      { level: "1", type: "Data", size: "32K" },
    ]),
  ).toBe("L1d 32K, L1i 64K, L2 512K, L3 8192K");
  expect(cacheSummary([])).toBe("");
});

test("hostLine: the CPU and its family and model, the caches sysfs lists in the folder given (none without one), the load average", () => {
  const folder = tempDir();
  for (const [index, level, type, size] of [
    ["index0", "1", "Data", "48K"],
    ["index1", "2", "Unified", "2048K"],
  ] as const) {
    mkdirSync(join(folder, index));
    writeFileSync(join(folder, index, "level"), `${level}\n`);
    writeFileSync(join(folder, index, "type"), `${type}\n`);
    writeFileSync(join(folder, index, "size"), `${size}\n`);
  }
  writeFileSync(join(folder, "uevent"), ""); // not a cache
  const cpuinfo = join(folder, "cpuinfo");
  writeFileSync(
    cpuinfo,
    "processor\t: 0\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2596.146\n",
  );
  expect(hostLine(folder, cpuinfo)).toMatch(
    /^host: .+ \(family 25, model 17\), \d+ CPU\(s\)( at \d+ MHz)?; caches L1d 48K, L2 2048K; load average \d+\.\d\d$/,
  );
  const bare = hostLine(join(folder, "absent"), join(folder, "absent"));
  expect(bare).toMatch(/^host: .+, \d+ CPU\(s\)( at \d+ MHz)?; load average \d+\.\d\d$/);
  expect(bare).not.toContain("(family"); // a model name may have parentheses of its own ("Intel(R) Xeon(R)")
});

test("cpuinfoGeneration: the first CPU's family and model numbers, where /proc/cpuinfo has both", () => {
  const entry = (family: number, model: number) =>
    `processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: ${family}\nmodel\t\t: ${model}\nmodel name\t: AMD EPYC\n`;
  expect(cpuinfoGeneration(entry(25, 17) + "\n" + entry(23, 49))).toBe("family 25, model 17");
  // "model name" is not "model"; an ARM cpuinfo has neither line.
  expect(cpuinfoGeneration("processor\t: 0\ncpu family\t: 25\nmodel name\t: AMD EPYC\n")).toBeUndefined();
  expect(cpuinfoGeneration("processor\t: 0\nCPU implementer\t: 0x41\n")).toBeUndefined();
});

test("parseCpuTimes and stealLine: the hypervisor's share of the CPUs' ticks between two readings of /proc/stat", () => {
  // user nice system idle iowait irq softirq steal guest guest_nice: the total is the first eight.
  const stat = (idle: number, steal: number) =>
    `cpu  600 0 200 ${idle} 0 0 0 ${steal} 50 0\ncpu0 300 0 100 ${idle / 2} 0 0 0 ${steal / 2} 25 0\nintr 1 2\n`;
  const before = parseCpuTimes(stat(9000, 200));
  expect(before).toEqual({ total: 10_000, steal: 200 });
  expect(parseCpuTimes("cpu  1 2 3 4\n")).toBeUndefined(); // a kernel older than steal
  expect(parseCpuTimes("")).toBeUndefined();
  const start = { line: "host: test", times: before, startedMs: 1_000 };
  // 1,000 ticks later, 80 of them stolen: 8.0%.
  expect(stealLine(start, parseCpuTimes(stat(9920, 280)), 31_400)).toMatch(
    /^host over the run's 30 s: 8\.0% of the CPUs' time went to other guests \(steal\); load average \d+\.\d\d as it ended$/,
  );
  expect(stealLine({ ...start, times: undefined }, before, 2_000)).toMatch(
    /^host over the run's 1 s: steal unknown \(no \/proc\/stat\); load average/,
  );
});

test("bench/validate runs (quick mode) and every implementation agrees with the corpus verdicts", () => {
  const stdout = quickRun("validate");
  // Its first line says what machine ran it (bench/host.ts).
  expect(stdout.split("\n")[0]).toMatch(/^host: .+ CPU\(s\)( at \d+ MHz)?; caches .+; load average \d+\.\d\d$/);
  // Three tables: all valid messages (no SDK row: it speaks 2025-11-25 at most), the invalid ones, the 2025-11-25
  // valid ones. Each row: its ns/message, JSON.parse's in the same turns, the median ratio and the range of ratios.
  for (const [row, tables] of [
    ["JSON.parse + mcpgen", 3],
    ["JSON.parse + SDK (zod)", 2],
    ["JSON.parse + ajv", 3],
  ] as const) {
    const lines = [
      ...stdout.matchAll(
        new RegExp(
          `^${row.replace(/[+()]/g, "\\$&")} +(\\d+) +(\\d+) +(\\d+\\.\\d\\d)× +(\\d+\\.\\d\\d)–(\\d+\\.\\d\\d)$`,
          "gm",
        ),
      ),
    ];
    expect(lines).toHaveLength(tables);
    for (const [, , , median, low, high] of lines) {
      expect(Number(low)).toBeLessThanOrEqual(Number(median));
      expect(Number(median)).toBeLessThanOrEqual(Number(high));
    }
  }
  // Every upstream example of 2026-07-28 and draft is in the corpus as a message.
  expect(stdout).toMatch(/^upstream 2026-07-28: 129 examples as messages$/m);
  expect(stdout).toMatch(/^upstream draft: 129 examples as messages$/m);
  expect(stdout).not.toContain("error:"); // mcpgen's verdict is every message's expected one
  // ajv from schema.json and the SDK's zod schemas agree with every verdict too
  expect(stdout.match(/^differs: .*$/gm) ?? []).toEqual([]);
  expect(stdout).toMatch(/import\("mcpgen\/2025-11-25"\) +\d+\.\d ms/);
}, 180_000);

/** The processes whose parent is `parent`, with their state letter (R, S, T for stopped, ...), from /proc. */
function childrenOf(parent: number): Map<number, string> {
  const found = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after its last ")".
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(ppid) === parent) found.set(Number(entry), state!);
  }
  return found;
}

// A stopped process reads neither the end of its input nor a SIGTERM: the bench kills its servers on
// the way out. bench/stdio's servers that are running end at their input's end by themselves, so there
// the stopped ones are watched; bench/http's read no input, so there every one is.
test.each([
  { bench: "stdio", watched: "the stopped ones" },
  { bench: "http", watched: "every one" },
])(
  "bench/$bench ended while servers are stopped between their turns leaves none of them behind ($watched)",
  async ({ bench: name, watched }) => {
    const script = join(projectRoot, "dist", "bench", `${name}.js`);
    const bench = spawn(process.execPath, [script, "--quick", "--only", "mcpgen"], { stdio: "ignore" });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      bench.on("exit", (code, signal) => resolve(signal ?? code)),
    );
    let children = new Map<number, string>();
    for (let waited = 0; ![...children.values()].includes("T") && waited < 90_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      children = childrenOf(bench.pid!);
    }
    const stopped = [...children].filter(([, state]) => state === "T").map(([pid]) => pid);
    expect(stopped.length, "the bench reached its interleaved rounds").toBeGreaterThan(0);
    const watchedPids = watched === "every one" ? [...children.keys()] : stopped;
    bench.kill("SIGTERM");
    expect(await exited).toBe(143);
    // Killed on the way out: none is left alive (a dead one may wait a moment for init to reap it).
    const alive = () =>
      watchedPids.filter((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
          return stat[stat.lastIndexOf(")") + 2] !== "Z";
        } catch {
          return false; // gone
        }
      });
    for (let waited = 0; alive().length > 0 && waited < 5_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive()).toEqual([]);
  },
  120_000,
);

// V8's profiler gives a sample the time since the one before: a process stopped between its turns
// had its stops charged to whatever ran when it went on (bench/freeze.ts). Profiling, none is stopped.
test("bench/http --cpu-prof (quick mode) stops no server between its turns, and each writes its profile", async () => {
  const folder = mkdtempSync(join(tmpdir(), "mcpgen-bench-prof-"));
  try {
    const script = join(projectRoot, "dist", "bench", "http.js");
    const bench = spawn(process.execPath, [script, "--quick", "--only", "mcpgen", "--cpu-prof", folder], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    bench.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    let running = true;
    const exited = new Promise<number | null>((resolve) =>
      bench.on("exit", (code) => {
        running = false;
        resolve(code);
      }),
    );
    const seen = new Set<number>();
    const stopped = new Set<number>();
    for (let waited = 0; running && waited < 110_000; waited += 10) {
      for (const [pid, state] of childrenOf(bench.pid!)) {
        seen.add(pid);
        if (state === "T") stopped.add(pid);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await exited).toBe(0);
    expect(seen.size, "the servers were watched").toBeGreaterThan(0);
    expect([...stopped]).toEqual([]);
    expect(stdout).toContain("the idle processes not stopped (CPU profiles are written)");
    const profiles = readdirSync(folder).filter((file) => file.endsWith(".cpuprofile"));
    // Each row and its own floor process: the control, sessions, stateless and per-request pairs.
    expect(profiles.length).toBe(8);
    for (const file of profiles) {
      const profile = JSON.parse(readFileSync(join(folder, file), "utf8")) as { samples: number[] };
      expect(profile.samples.length, file).toBeGreaterThan(0);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 120_000);

/** bench:stdio's rows, in the order of its tables. */
const stdioRows = [
  "floor (bare Node)",
  "control: the floor again",
  "floor, per-request body",
  "mcpgen",
  "mcpgen (per-request)",
  "mcpgen (dist/)",
  "mcpgen (bundled with the server)",
  "mcpgen (startup snapshot)",
  "mcpgen (startup snapshot), per-request",
  "SDK",
];

test("bench/stdio --server-time (quick mode) times every sequential call in each server, before its write and in it", () => {
  const stdout = quickRun("stdio", ["--server-time", "--only", "mcpgen"]);
  // server, calls, before write p50, p90, write p50, p90, round trip p50 (µs)
  const rows = new Map(
    [...stdout.matchAll(/^(.+?) +(\d+) +(\d+\.\d) +(\d+\.\d) +(\d+\.\d) +(\d+\.\d) +(\d+\.\d)$/gm)].map((m) => [
      m[1]!,
      m.slice(2).map(Number),
    ]),
  );
  // The snapshot's rows start from their blob, where a preload has no place; --only mcpgen leaves out the SDK.
  expect([...rows.keys()]).toEqual(stdioRows.filter((name) => !name.includes("startup snapshot") && name !== "SDK"));
  for (const [name, [calls, beforeP50, beforeP90, writeP50, writeP90, roundTrip]] of rows) {
    // Quick mode: 3 blocks of 100 calls after 10 not counted; the probe counts from the end of the
    // warm-up, every call that arrived alone, each with the one write of its answer.
    expect(calls, name).toBe(330);
    expect(beforeP50, name).toBeGreaterThan(0);
    expect(beforeP90, name).toBeGreaterThanOrEqual(beforeP50!);
    expect(writeP50, name).toBeGreaterThan(0);
    expect(writeP90, name).toBeGreaterThanOrEqual(writeP50!);
    // The server's part of a call lies within the driver's round trip of it.
    expect(roundTrip, name).toBeGreaterThan(beforeP50! + writeP50!);
  }
}, 120_000);

test("bench/stdio runs (quick mode): every server answers every call, and the table has a row per server", () => {
  const stdout = quickRun("stdio");
  // server, seq req/s, ×floor, p50, p99, 64-deep req/s, ×floor, p50, p99, cold start ms, ×floor, first call ms, ×floor
  const row = (name: string) =>
    new RegExp(
      `^${name.replace(/[()]/g, "\\$&")} +\\d+ +\\d+\\.\\d\\d× +\\d+ +\\d+ +\\d+ +\\d+\\.\\d\\d× +\\d+ +\\d+ +\\d+\\.\\d +\\d+\\.\\d\\d× +\\d+\\.\\d +\\d+\\.\\d\\d×$`,
      "m",
    );
  for (const name of stdioRows) expect(stdout).toMatch(row(name));
  // In process: server, µs/call, ×floor, bytes allocated/call, beyond the floor's (blank on the floors' own rows)
  const inProcess = (name: string, floor: boolean) =>
    new RegExp(
      `^${name.replace(/[()]/g, "\\$&")} +\\d+\\.\\d\\d +\\d+\\.\\d\\d× +\\d+${floor ? " *" : " +[+-]\\d+"}$`,
      "m",
    );
  for (const name of ["floor (bare Node)", "floor, per-request body"]) expect(stdout).toMatch(inProcess(name, true));
  for (const name of ["mcpgen", "mcpgen (per-request)", "SDK"]) expect(stdout).toMatch(inProcess(name, false));
  // Issue #14's targets: each judged median beside the spread of the ratios behind it (the middle
  // half of the blocks', the extremes of the rounds' for p99 and the spawns' for the cold start), the
  // median within it.
  const judged = [
    ...stdout.matchAll(
      /^ {2}(mcpgen[^:]*): (.+?) +(\d+\.\d\d)× {2}target [≥≤] \d+\.\d\d×: (?:met|NOT MET) +\((blocks' middle half|rounds|spawns) (\d+\.\d\d)×–(\d+\.\d\d)×\)$/gm,
    ),
  ];
  expect(judged.map(([, row, what, , of]) => `${row}: ${what} (${of})`)).toEqual([
    ...["mcpgen", "mcpgen (per-request)"].flatMap((row) => [
      `${row}: sequential req/s ÷ floor (blocks' middle half)`,
      `${row}: 64-deep req/s ÷ floor (blocks' middle half)`,
      `${row}: sequential p99 ÷ floor's (rounds)`,
      `${row}: 64-deep p99 ÷ floor's (rounds)`,
      `${row}: cold start ÷ floor (spawns)`,
    ]),
    "mcpgen (startup snapshot): cold start ÷ floor (spawns)",
    "mcpgen (startup snapshot), per-request: cold start ÷ floor (spawns)",
  ]);
  for (const [, , , median, , low, high] of judged) {
    expect(Number(low)).toBeLessThanOrEqual(Number(median));
    expect(Number(median)).toBeLessThanOrEqual(Number(high));
  }
  // Beside them, the control's own spread: what the run's noise makes of a ratio of 1.
  const spread = "(\\d+\\.\\d\\d)× \\(blocks' middle half (\\d+\\.\\d\\d)×–(\\d+\\.\\d\\d)×\\)";
  const control = new RegExp(`^\\(the control, the floor again: sequential ${spread}, 64-deep ${spread}\\)$`, "m").exec(
    stdout,
  );
  expect(control).not.toBeNull();
  const [seq, seqLow, seqHigh, deep, deepLow, deepHigh] = control!.slice(1).map(Number);
  expect(seqLow).toBeLessThanOrEqual(seq!);
  expect(seq).toBeLessThanOrEqual(seqHigh!);
  expect(deepLow).toBeLessThanOrEqual(deep!);
  expect(deep).toBeLessThanOrEqual(deepHigh!);
}, 180_000);

test("bench/stdio-warmup runs (quick mode): each row's requests a second and its ratio to its floor, window by window", () => {
  const stdout = quickRun("stdio-warmup");
  const [perSecond, ratios] = stdout.split("÷ the row's floor");
  // Quick mode: three windows of 300 calls after 200 calls 64 in flight.
  const row = (name: string, cell: string) => new RegExp(`^${name.replace(/[()]/g, "\\$&")}(?: +${cell}){3}$`, "m");
  expect(perSecond).toContain("1: 201–500");
  for (const name of [
    "floor (bare Node)",
    "control: the floor again",
    "floor, per-request body",
    "mcpgen",
    "mcpgen (per-request)",
  ])
    expect(perSecond).toMatch(row(name, "\\d+"));
  for (const name of ["control: the floor again", "mcpgen", "mcpgen (per-request)"])
    expect(ratios).toMatch(row(name, "\\d+\\.\\d\\d×"));
  // A floor is not divided by itself.
  expect(ratios).not.toMatch(/^floor/m);
}, 120_000);

test("bench/http runs (quick mode): every server answers every call, and the table has a row per server", () => {
  const stdout = quickRun("http");
  // server, req/s, ×floor, the middle half of the blocks' ×floor (a floor: -), p50, p99, CPU µs/req, CPU ×floor, peak RSS MB
  for (const name of [
    "floor (node:http)",
    "control: the floor again",
    "mcpgen (sessions)",
    "mcpgen (stateless)",
    "SDK (sessions)",
    "SDK (stateless)",
    "SDK v2 (legacy, stateless)",
    "floor, per-request body",
    "mcpgen (per-request)",
    "SDK v2 (per-request)",
  ]) {
    const row = new RegExp(
      `^${name.replace(/[()]/g, "\\$&")} +\\d+ +(\\d+\\.\\d\\d)× +(?:(\\d+\\.\\d\\d)–(\\d+\\.\\d\\d)|-) +\\d+ +\\d+ +\\d+\\.\\d +(\\d+\\.\\d\\d×|-) +\\d+\\.\\d$`,
      "m",
    ).exec(stdout);
    expect(row, name).not.toBeNull();
    const [, ratio, lowest, highest] = row!;
    if (name.startsWith("floor"))
      expect(lowest, name).toBeUndefined(); // a floor is 1.00× by definition
    else {
      // The median of the blocks' ratios lies within their middle half (each printed to two places).
      expect(Number(lowest), name).toBeLessThanOrEqual(Number(ratio) + 0.005);
      expect(Number(highest), name).toBeGreaterThanOrEqual(Number(ratio) - 0.005);
    }
  }
  // The control's line under the targets: its median within its middle half.
  const control =
    /^\(the control, the floor again: (\d+\.\d\d)× \(blocks' middle half (\d+\.\d\d)×–(\d+\.\d\d)×\)\)$/m.exec(stdout);
  expect(control).not.toBeNull();
  expect(Number(control![2])).toBeLessThanOrEqual(Number(control![1]) + 0.005);
  expect(Number(control![3])).toBeGreaterThanOrEqual(Number(control![1]) - 0.005);
}, 180_000);

/**
 * An --instructions table's rows (server, thousand instructions, ×floor), checked to be `rows` in
 * that order, each floor (a row whose name starts with "floor") at 1.00×.
 */
function instructionCounts(stdout: string, rows: readonly string[]): Map<string, { k: number; ratio: string }> {
  const counts = new Map(
    [...stdout.matchAll(/^(.+?) +(\d+\.\d+) +(\d+\.\d\d)×$/gm)].map((m) => [m[1]!, { k: Number(m[2]), ratio: m[3]! }]),
  );
  expect([...counts.keys()]).toEqual(rows);
  for (const row of rows.filter((r) => r.startsWith("floor"))) expect(counts.get(row)!.ratio).toBe("1.00");
  return counts;
}

test("bench/http --instructions (quick mode) counts each floor's and mcpgen row's instructions per request", () => {
  // Ten servers started under valgrind, two at a time.
  const counts = instructionCounts(quickRun("http", ["--instructions"], 400_000), [
    "floor (node:http)",
    "mcpgen (sessions)",
    "mcpgen (stateless)",
    "floor, per-request body",
    "mcpgen (per-request)",
  ]);
  // Parsing, answering and writing a request over node:http is tens of thousands of instructions at least.
  for (const { k } of counts.values()) expect(k).toBeGreaterThan(20);
}, 420_000);

test("bench/validate --instructions (quick mode) counts JSON.parse's and mcpgen's instructions per message", () => {
  // Four children under valgrind per set of messages, two at a time.
  const stdout = quickRun("validate", ["--instructions"], 400_000);
  const [valid, invalid] = stdout.split(/^invalid messages \(\d+\)$/m);
  expect(invalid).toBeDefined();
  for (const part of [valid!, invalid!]) {
    const counts = instructionCounts(part, ["JSON.parse", "JSON.parse + mcpgen"]);
    // Parsing a message is a thousand instructions at least, and checking it adds to that.
    expect(counts.get("JSON.parse")!.k).toBeGreaterThan(1);
    expect(counts.get("JSON.parse + mcpgen")!.k).toBeGreaterThan(counts.get("JSON.parse")!.k);
  }
}, 420_000);

test("bench/validate --cache (quick mode) splits JSON.parse's and mcpgen's costs by area, and names mcpgen's functions", () => {
  // Four children under valgrind's cache simulation, two runs of each row.
  const stdout = quickRun("validate", ["--cache"], 400_000);
  const areas = new Map(
    [...stdout.matchAll(/^(.+?) +(-?\d+(?:\.\d)?) +(-?\d+(?:\.\d)?) +(-?\d+(?:\.\d)?) +(-?\d+(?:\.\d)?)$/gm)].map(
      (m) => [m[1]!, { floorIr: Number(m[2]), oursIr: Number(m[3]), floorI1: Number(m[4]), oursI1: Number(m[5]) }],
    ),
  );
  // Every area, in the order bench/callgrind-profile.ts declares them, then the total.
  expect([...areas.keys()]).toEqual([...AREAS, "total"]);
  // Both rows parse the same messages; only the mcpgen row runs mcpgen's code, which the perf map names.
  const parser = areas.get("JSON.parse: V8's JSON parser")!;
  expect(parser.floorIr).toBeGreaterThan(1000);
  expect(Math.abs(parser.oursIr - parser.floorIr) / parser.floorIr).toBeLessThan(0.05);
  for (const area of ["mcpgen runtime", "generated checks, validators and shims"]) {
    expect(areas.get(area)!.floorIr).toBe(0);
    expect(areas.get(area)!.oursIr).toBeGreaterThan(10);
  }
  expect(areas.get("total")!.oursIr).toBeGreaterThan(areas.get("total")!.floorIr);
  expect(stdout).toMatch(/^JS:\S+ (runtime|generated)\/\S+ +\d/m);
  // The perf map V8 writes for the names is removed, and its event log (which --perf-basic-prof turns on) never written.
  expect(readdirSync(projectRoot).filter((file) => /^isolate-.*\.log$/.test(file))).toEqual([]);
}, 420_000);

test("bench/stdio --cache (quick mode) splits each mcpgen row's costs per call by area beside its floor's", () => {
  // Eight children under valgrind's cache simulation: each row's two runs.
  const stdout = quickRun("stdio", ["--cache"], 400_000);
  // Its miss counts are the simulated geometry's, but the run still names the machine it ran on.
  expect(stdout.split("\n")[0]).toMatch(/^host: .+ CPU\(s\)/);
  const tables = stdout.split(/^mcpgen.* beside .*$/m).slice(1);
  expect(tables).toHaveLength(2); // the legacy row and the per-request row
  for (const table of tables) {
    const areas = new Map(
      [...table.matchAll(/^(.+?) +(-?\d+(?:\.\d)?) +(-?\d+(?:\.\d)?) +(-?\d+(?:\.\d)?) +(-?\d+(?:\.\d)?)$/gm)].map(
        (m) => [m[1]!, { floorIr: Number(m[2]), oursIr: Number(m[3]) }],
      ),
    );
    expect([...areas.keys()]).toEqual([...AREAS, "total"]);
    // The floor runs no mcpgen code; the mcpgen row runs its runtime and generated checks on every call.
    for (const area of ["mcpgen runtime", "generated checks, validators and shims"]) {
      expect(areas.get(area)!.floorIr).toBe(0);
      expect(areas.get(area)!.oursIr).toBeGreaterThan(100);
    }
    // Both parse the same lines.
    const parser = areas.get("JSON.parse: V8's JSON parser")!;
    expect(Math.abs(parser.oursIr - parser.floorIr) / parser.floorIr).toBeLessThan(0.05);
  }
}, 420_000);

test("bench/stdio --instructions (quick mode) counts the in-process rows' instructions per call, and each row's cold start", () => {
  const stdout = quickRun("stdio", ["--instructions", "--only", "mcpgen"], 400_000);
  const [perCall, coldStart] = stdout.split(/^cold start in instructions: .*$/m);
  expect(coldStart).toBeDefined();
  const counts = instructionCounts(perCall!, [
    "floor (bare Node)",
    "floor, per-request body",
    "mcpgen",
    "mcpgen (per-request)",
  ]);
  // Parsing a line and writing an answer through a stream is thousands of instructions at least,
  // and the servers do more than the floors with the same lines.
  for (const { k } of counts.values()) expect(k).toBeGreaterThan(5);
  expect(counts.get("mcpgen")!.k).toBeGreaterThan(counts.get("floor (bare Node)")!.k);
  // Millions of instructions from a process's start to its first answer: Node's own start is ~100.
  const starts = instructionCounts(coldStart!, [
    "floor (bare Node)",
    "floor, per-request body",
    "mcpgen",
    "mcpgen (per-request)",
    "mcpgen (dist/)",
    "mcpgen (bundled with the server)",
  ]);
  for (const { k } of starts.values()) expect(k).toBeGreaterThan(50);
  expect(starts.get("mcpgen")!.k).toBeGreaterThan(starts.get("floor (bare Node)")!.k);
}, 420_000);

test("bench/client runs (quick mode): every client answers every call, and every table has its rows", () => {
  const stdout = quickRun("client");
  // client, speaks, seq req/s, ×floor, CPU µs/call, 64-deep req/s, ×floor, CPU µs/call
  const row = (name: string, speaks: string) =>
    new RegExp(
      `^${name.replace(/[()]/g, "\\$&")} +${speaks.replace(/[()]/g, "\\$&")} +\\d+ +\\d+\\.\\d\\d× +\\d+\\.\\d +\\d+ +\\d+\\.\\d\\d× +\\d+\\.\\d$`,
      "gm",
    );
  // One table per server: the canned (client-bound) one, then mcpgen's own server end to end.
  expect(stdout).toMatch(/^server: canned, .*\n[^]*^server: mcpgen, /m);
  const twice = (pattern: RegExp) => expect([...stdout.matchAll(pattern)].length).toBe(2);
  for (const name of ["floor (JSON.parse only)", "mcpgen (pinned 2025-11-25)", "SDK v1", "SDK v2 (default mode)"])
    twice(row(name, "2025-11-25 (handshake)"));
  for (const name of ["floor, per-request body", "mcpgen (era detected)", 'SDK v2 (mode "auto")'])
    twice(row(name, "2026-07-28 (per-request)"));
  // mcpgen ÷ SDK: each SDK row against the mcpgen row that speaks the same revision; then floor ÷ SDK
  for (const pair of [
    "mcpgen (pinned 2025-11-25) ÷ SDK v1",
    "mcpgen (pinned 2025-11-25) ÷ SDK v2 (default mode)",
    'mcpgen (era detected) ÷ SDK v2 (mode "auto")',
  ])
    twice(
      new RegExp(
        `^${pair.replace(/[()]/g, "\\$&")} +\\S.* +\\d+\\.\\d\\d× +\\d+\\.\\d\\d× +\\d+\\.\\d\\d× +\\d+\\.\\d\\d× / \\d+\\.\\d\\d×$`,
        "gm",
      ),
    );
  // install: packages, files, MB on disk
  for (const name of ["mcpgen (the runtime package)", "SDK v1", "SDK v2"])
    expect(stdout).toMatch(
      new RegExp(`^${name.replace(/[()]/g, "\\$&")} +\\S+ +(?:\\(packed\\) +)?\\d+ +\\d+ +\\d+\\.\\d$`, "m"),
    );
}, 300_000);

test("bench/memory runs (quick mode): idle-session and soak rows for every server, with heap samples", () => {
  const stdout = quickRun("memory");
  // Idle legacy sessions: server, KB after handshake, after one call, after DELETE (the floor has no sessions).
  for (const name of ["mcpgen (sessions)", "SDK (sessions)"])
    expect(stdout).toMatch(
      new RegExp(`^${name.replace(/[()]/g, "\\$&")} +-?\\d+\\.\\d\\d +-?\\d+\\.\\d\\d +-?\\d+\\.\\d\\d$`, "m"),
    );
  // Soak: server, requests, sessions, heap first → last, slope, its 95% interval, peak RSS.
  for (const [name, sessions] of [
    ["floor (node:http)", "-"],
    ["mcpgen (sessions)", "\\d+"],
    ["SDK (sessions)", "\\d+"],
  ])
    expect(stdout).toMatch(
      new RegExp(
        `^${name!.replace(/[()]/g, "\\$&")} +[1-9]\\d* +${sessions} +\\d+\\.\\d → \\d+\\.\\d +-?\\d+\\.\\d +± \\d+\\.\\d +\\d+\\.\\d$`,
        "m",
      ),
    );
  expect(stdout).toMatch(/^mcpgen \(sessions\): 0\.0m \d+\.\d, /m);
  // The targets under the tables, each with this run's figure and a verdict.
  expect(stdout).toMatch(
    /^ {2}mcpgen: heap per idle legacy session +\d+\.\d\d KB {2}target ≤ 4\.00 KB: (met|NOT MET)$/m,
  );
  // "No growth" is judged beside the floor: mcpgen's slope less the floor's, and the low end of its interval.
  const beyond = /^mcpgen's slope beyond the floor's: (-?\d+\.\d) ± (\d+\.\d) KB\/min \(95%\)$/m.exec(stdout);
  expect(beyond).not.toBeNull();
  const verdict =
    /^ {2}mcpgen: soak's heap slope beyond the floor's, low end of its 95% interval +(-?\d+\.\d) KB\/min {2}target ≤ 0\.0 KB\/min: (met|NOT MET)$/m.exec(
      stdout,
    );
  expect(verdict).not.toBeNull();
  expect(Number(verdict![1])).toBeCloseTo(Number(beyond![1]) - Number(beyond![2]), 0);
  expect(verdict![2]).toBe(Number(verdict![1]) <= 0 ? "met" : "NOT MET");
}, 180_000);
