// Benchmark: `mcpgen generate` of every pinned revision and extension (what
// the README's first command runs), as a fresh process each time into a
// temporary folder: wall clock from spawn to exit, the CLI's own report (from
// reading the inputs to the output written), and the process's CPU time and
// peak RSS, medians over runs.
//
// Run: npm run bench:generate [-- --runs N] [--quick]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchOptions, sharedOptions } from "./options.js";
import { median } from "./stats.js";

const options = benchOptions(
  "generate.js",
  "mcpgen generate of every pinned revision and extension, a fresh process per run.",
  [{ name: "--runs", takes: "count", help: "runs (default 5; 1 with --quick)" }, sharedOptions.quick],
);
const runs = options.number("--runs", options.has("--quick") ? 1 : 5);
const root = resolve(import.meta.dirname, "..", "..");
const bin = join(root, "bin", "mcpgen.js");

interface Run {
  wallMs: number;
  reportedMs: number;
  cpuMs: number;
  peakRssMb: number;
}

/** One generation in a child process: its wall clock, the CLI's report, and its CPU time and peak RSS as it exits. */
function generateOnce(out: string): Promise<Run> {
  return new Promise((done, fail) => {
    const started = performance.now();
    // `node -e` wrapper: reports the child's resource usage the way process.resourceUsage() sees it at exit.
    const wrapper = `
      process.on("exit", () => {
        const u = process.resourceUsage();
        process.stderr.write("\\nUSAGE " + JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1000, rss: u.maxRSS / 1024 }) + "\\n");
      });
      process.argv = [process.argv[0], ${JSON.stringify(bin)}, "generate", "--json", "--out", ${JSON.stringify(out)}, "--surface", ${JSON.stringify(join(out, "surface"))}];
      import(${JSON.stringify(`file://${bin}`)});
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", wrapper], { cwd: root });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("exit", (code) => {
      const wallMs = performance.now() - started;
      const usage = /USAGE (\{.*\})/.exec(stderr);
      if (code !== 0 || !usage) return fail(new Error(`mcpgen generate exited ${code}: ${stderr.slice(-2000)}`));
      const report = JSON.parse(stdout) as { ms: number; revisions: unknown[] };
      const { cpu, rss } = JSON.parse(usage[1]!) as { cpu: number; rss: number };
      done({ wallMs, reportedMs: report.ms, cpuMs: cpu, peakRssMb: rss });
    });
  });
}

const results: Run[] = [];
for (let i = 0; i < runs; i++) {
  const out = mkdtempSync(join(tmpdir(), "mcpgen-bench-generate-"));
  try {
    results.push(await generateOnce(out));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const wall = results.map((r) => r.wallMs);
console.log(
  `mcpgen generate, every pinned revision and extension, Node ${process.version}; median of ${runs} run(s)\n`,
);
console.log(
  [
    ["", "median", "min", "max"],
    ["wall clock ms (spawn to exit)", median(wall), Math.min(...wall), Math.max(...wall)],
    ["CLI's report ms", ...spread(results.map((r) => r.reportedMs))],
    ["CPU ms (user + system)", ...spread(results.map((r) => r.cpuMs))],
    ["peak RSS MB", ...spread(results.map((r) => r.peakRssMb))],
  ]
    .map((row) => row.map((cell, i) => (typeof cell === "number" ? cell.toFixed(0) : cell).padStart(i === 0 ? 0 : 8)))
    .map(([label, ...cells]) => `${label!.padEnd(32)}${cells.join("")}`)
    .join("\n"),
);

function spread(values: number[]): number[] {
  return [median(values), Math.min(...values), Math.max(...values)];
}
