// A smoke run of each benchmark script (bench/): with --quick's tiny counts it
// starts every row's server or client, checks every answer and prints its
// table, whose shape is checked here; the figures themselves mean nothing at
// these counts and are not read. Slow for a smoke: the five scripts, run at
// once, start ~90 Node processes and pack the runtime twice, ~60 s of CPU time
// in all (130 s on the 2-core machine with other work on it); npm test builds
// dist/bench first.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { pairedMiddleHalf, pairedRatio } from "../../bench/stats.js";
import { lock, projectRoot } from "../helpers.js";

const scriptOf = (name: string) => join(projectRoot, "dist", "bench", `${name}.js`);

/** Runs dist/bench/<name>.js --quick; what it printed, once it exited 0 with nothing on stderr. */
async function quickRun(name: string, extra: readonly string[] = []): Promise<string> {
  expect(existsSync(scriptOf(name)), "npm test compiles bench/ first").toBe(true);
  const child = spawn(process.execPath, [scriptOf(name), "--quick", ...extra], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(stderr).toBe("");
  expect(code).toBe(0);
  return stdout;
}

/** A table row: the name, then cells each matching one of `cells` (regular expressions' text), spaced. */
const tableRow = (name: string, cells: readonly string[], flags = "m") =>
  new RegExp(`^${name.replace(/[()+]/g, "\\$&")}${cells.map((cell) => ` +${cell}`).join("")} *$`, flags);
const INT = "\\d+";
const DEC1 = "\\d+\\.\\d";
const RATIO = "\\d+\\.\\d\\d×";

describe.concurrent("each benchmark, --quick", () => {
  test("bench/stdio: a row per server, each with its throughput, latencies, cold start and ratios", async () => {
    const stdout = await quickRun("stdio");
    const cells = [INT, RATIO, INT, INT, RATIO, INT, RATIO, INT, INT, RATIO, DEC1, RATIO, DEC1, RATIO];
    for (const name of [
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
    ])
      expect(stdout, name).toMatch(tableRow(name, cells));
    // A floor is its own base.
    expect(stdout).toMatch(/^floor \(bare Node\) +\d+ +1\.00× +\d+ +\d+ +1\.00×/m);
  }, 240_000);

  test("bench/http: a row per server, each with its ratio to its floor, latencies, CPU time and peak RSS", async () => {
    const stdout = await quickRun("http");
    for (const name of ["floor (node:http)", "floor, per-request body"])
      expect(stdout, name).toMatch(tableRow(name, [INT, "1\\.00×", "-", INT, INT, DEC1, RATIO, DEC1]));
    for (const name of [
      "control: the floor again",
      "mcpgen (sessions)",
      "mcpgen (stateless)",
      "SDK (sessions)",
      "SDK (stateless)",
      "SDK v2 (legacy, stateless)",
      "mcpgen (per-request)",
      "SDK v2 (per-request)",
    ])
      expect(stdout, name).toMatch(
        tableRow(name, [
          INT,
          RATIO,
          "\\d+\\.\\d\\d–\\d+\\.\\d\\d",
          INT,
          INT,
          DEC1,
          `(?:${RATIO}|-)`,
          DEC1,
          `[+-]${DEC1}`,
        ]),
      );
  }, 240_000);

  test("bench/client: every client against both servers, and mcpgen ÷ each SDK client", async () => {
    const stdout = await quickRun("client", ["--no-install"]);
    expect(stdout).toMatch(/^server: canned, .*\n[^]*^server: mcpgen, /m);
    const twice = (pattern: RegExp) => expect([...stdout.matchAll(pattern)], String(pattern)).toHaveLength(2);
    const cells = [INT, RATIO, DEC1, INT, RATIO, DEC1];
    for (const name of ["floor (JSON.parse only)", "mcpgen (pinned 2025-11-25)", "SDK v1", "SDK v2 (default mode)"])
      twice(tableRow(name, ["2025-11-25 \\(handshake\\)", ...cells], "gm"));
    for (const name of ["floor, per-request body", "mcpgen (era detected)", 'SDK v2 (mode "auto")'])
      twice(tableRow(name, ["2026-07-28 \\(per-request\\)", ...cells], "gm"));
    for (const pair of [
      "mcpgen (pinned 2025-11-25) ÷ SDK v1",
      "mcpgen (pinned 2025-11-25) ÷ SDK v2 (default mode)",
      'mcpgen (era detected) ÷ SDK v2 (mode "auto")',
    ])
      twice(tableRow(pair, ["\\S.*?", RATIO, RATIO, RATIO, `${RATIO} / ${RATIO}`], "gm"));
  }, 240_000);

  test("bench/validate: every row agrees with the corpus's verdicts, and each table has its rows", async () => {
    const stdout = await quickRun("validate");
    // Every example the lock pins, of each revision that has some.
    for (const { name, files } of lock.revisions) {
      const examples = files.filter((f) => f.path.startsWith("examples/")).length;
      if (examples > 0) expect(stdout).toMatch(new RegExp(`^upstream ${name}: ${examples} examples as messages$`, "m"));
    }
    expect(stdout.match(/^differs: .*$/gm) ?? []).toEqual([]);
    const cells = [INT, INT, RATIO, "\\d+\\.\\d\\d–\\d+\\.\\d\\d"];
    // Three tables: all valid messages (no SDK row: it speaks 2025-11-25 at most), the invalid ones, the 2025-11-25 valid ones.
    for (const [row, tables] of [
      ["JSON.parse + mcpgen", 3],
      ["JSON.parse + SDK (zod)", 2],
      ["JSON.parse + ajv", 3],
    ] as const)
      expect([...stdout.matchAll(tableRow(row, cells, "gm"))], row).toHaveLength(tables);
    expect(stdout).toMatch(/import\("mcpgen\/2025-11-25"\) +\d+\.\d ms/);
  }, 240_000);

  test("bench/generate: wall clock, the CLI's report, CPU time and peak RSS", async () => {
    const stdout = await quickRun("generate");
    for (const name of ["wall clock ms (spawn to exit)", "CLI's report ms", "CPU ms (user + system)", "peak RSS MB"])
      expect(stdout, name).toMatch(tableRow(name, [INT, INT, INT]));
  }, 240_000);
});

test.each(["stdio", "http", "client", "validate", "generate"])(
  "bench/%s stops at an option it does not know, or a bad count, with exit code 2 before it measures anything",
  (name) => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [scriptOf(name), ...args], { cwd: projectRoot, encoding: "utf8", timeout: 60_000 });
    for (const [args, error] of [
      [["--rounds-typo", "3"], 'unknown option "--rounds-typo"'],
      [["--quick", "--quick"], "--quick is given twice"],
    ] as const) {
      const bad = run([...args]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain(`bench/${name}.js: ${error}`);
      expect(bad.stderr).toContain(`usage: node dist/bench/${name}.js`);
      expect(bad.stdout).toBe("");
    }
    const count = name === "generate" ? "--runs" : name === "validate" ? undefined : "--rounds";
    if (count) expect(run([count, "0"]).stderr).toContain(`${count} "0": must be a positive integer`);
    const help = run(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--quick");
  },
);

test("the ratios to a floor are taken pair by pair: the median of the pairs' ratios, and their middle half", () => {
  // Pairs 1 and 2: the row at 1.2× its floor; pair 3 fell on a busier moment for the row alone.
  // A ratio of the two medians (100 and 100) would say 1.0×.
  expect(pairedRatio([120, 60, 100], [100, 50, 200])).toBeCloseTo(1.2, 10);
  expect(pairedRatio([1, 2], [1, 1])).toBeCloseTo(1.5, 10); // an even count: the mean of the middle two
  // Eight ratios 1..8: the quartiles rounded outwards to ratios measured, 2 and 7.
  const eight = [1, 2, 3, 4, 5, 6, 7, 8];
  expect(
    pairedMiddleHalf(
      eight,
      eight.map(() => 1),
    ),
  ).toEqual({ low: 2, high: 7 });
  expect(() => pairedRatio([1, 2], [1])).toThrow(/2 figures against the floor's 1/);
});
