// Benchmark: the cost of checking a received MCP message, side by side in one
// run, as ns/message and as a ratio to JSON.parse alone: each row in a process
// of its own, taking turns with JSON.parse pass by pass over the messages
// (bench/validate-rows/turns.ts, child.ts). Rows:
//   JSON.parse                   the floor
//   JSON.parse + mcpgen          validateMessage of the message's revision (classify, then the method's generated check)
//   JSON.parse + SDK (zod)       what @modelcontextprotocol/sdk does on receipt: JSONRPCMessageSchema.parse,
//                                then the method's schema (requests, notifications) or result schema
//                                (responses); 2025-11-25 messages only, the newest revision it speaks
//   JSON.parse + ajv             ajv compiled from the revision's schema.json: JSONRPCMessage, then the method's type
// The corpus (bench/corpus.ts, bench/upstream-corpus.ts): hand-made 2025-11-25
// messages (tool lists of 20 and 100 tools, base64 images, audio and a 16 KiB
// blob, deep structuredContent, sampling, errors) and every upstream example
// of 2026-07-28 and draft in the message it would arrive in; the invalid
// messages are hand-made. Also the cost of importing each, in fresh processes.
//
// Run: npm run bench:validate [-- --quick]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { corpus as handMade, type BenchMessage } from "./corpus.js";
import { upstreamCorpus } from "./upstream-corpus.js";
import { median } from "./stats.js";
import { printTable } from "./table.js";
import { benchOptions, sharedOptions } from "./options.js";
import { FLOOR, type Row } from "./validate-rows/row.js";
import { mcpgenRow, methodTables, revisions } from "./validate-rows/mcpgen.js";
import { sdkRow } from "./validate-rows/sdk.js";
import { ajvRow } from "./validate-rows/ajv.js";
import type { RowFigures } from "./validate-rows/turns.js";
import type { RowJob } from "./validate-rows/child.js";

const options = benchOptions("validate.js", "Parse + validate beside JSON.parse, ajv and the official SDK.", [
  sharedOptions.quick,
]);
const quick = options.has("--quick");
const rounds = quick ? 1 : 15;
/** Each round: about twice this long, a row and JSON.parse taking turns pass by pass. */
const budgetMs = quick ? 10 : 150;
const warmUpMs = quick ? 20 : 4000;
/** Fresh processes per import-cost figure. */
const importRuns = quick ? 1 : 9;

const root = join(import.meta.dirname, "..", "..");
const upstream = ["2026-07-28", "draft"].map((revision) => ({
  revision,
  ...upstreamCorpus(root, revision, revisions[revision]!),
}));
const corpus: BenchMessage[] = [...handMade, ...upstream.flatMap((u) => u.messages)];

// --- rows ---------------------------------------------------------------------
const MCPGEN = mcpgenRow();
const SDK = sdkRow();
const AJV = ajvRow(root, methodTables());
/** Each row's name as bench/validate-rows/child.ts knows it. */
const ROW_IDS = new Map<Row, RowJob["row"]>([
  [FLOOR, "floor"],
  [MCPGEN, "mcpgen"],
  [SDK, "sdk"],
  [AJV, "ajv"],
]);

/**
 * Every message's expected verdict against mcpgen's (a disagreement stops the
 * run: the figures would be of the wrong work) and the others' (printed: the
 * SDK is laxer in places, and schema.json has the defects test/validation/ledger.ts lists).
 */
function checkAgreement(): void {
  for (const m of corpus) {
    const expected = m.valid ? "valid" : "invalid";
    if (MCPGEN.receive(m.text, m) !== m.valid) {
      console.error(`error: ${m.name}: mcpgen does not find it ${expected}`);
      process.exit(1);
    }
    const others = (m.revision === "2025-11-25" ? [SDK, AJV] : [AJV]).filter(
      (row) => row.receive(m.text, m) !== m.valid,
    );
    if (others.length > 0) console.log(`differs: ${m.name}: ${others.map((r) => r.name).join(", ")} not ${expected}`);
  }
}

const jobs = mkdtempSync(join(tmpdir(), "mcpgen-bench-validate-"));
process.on("exit", () => rmSync(jobs, { recursive: true, force: true }));

const childScript = join(import.meta.dirname, "validate-rows", "child.js");
let jobCount = 0;

/** One row timed beside JSON.parse in a child process of its own (bench/validate-rows/child.ts). */
function timeInChild(row: Row, messages: readonly BenchMessage[]): RowFigures {
  const job: RowJob = {
    row: ROW_IDS.get(row)!,
    root,
    methodTables: methodTables(),
    messages: [...messages],
    rounds,
    budgetMs,
    warmUpMs,
  };
  const file = join(jobs, `${job.row}-${jobCount++}.json`);
  writeFileSync(file, JSON.stringify(job));
  const out = execFileSync(process.execPath, [childScript, file], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(out) as RowFigures;
}

/** Times `rows` over `messages` and prints their table. */
function table(title: string, rows: readonly Row[], messages: readonly BenchMessage[]): void {
  const figures = rows.map((row) => ({ row, ...timeInChild(row, messages) }));
  console.log(
    `\n${title} (${messages.length} messages, ${rounds} round(s); each row in a process of its own, taking turns with ` +
      `JSON.parse pass by pass; ns/message and JSON.parse's in the same turns: medians of the rounds; × JSON.parse: ` +
      `the median of the rounds' ratios, and their range)\n`,
  );
  printTable(
    ["row", "ns/message", "JSON.parse", "× JSON.parse", "range"],
    figures.map((f) => [
      f.row.name,
      median(f.ns).toFixed(0),
      median(f.floorNs).toFixed(0),
      `${median(f.ratios).toFixed(2)}×`,
      `${Math.min(...f.ratios).toFixed(2)}–${Math.max(...f.ratios).toFixed(2)}`,
    ]),
  );
}

/** Median milliseconds to import a module in a fresh Node process. */
function importTime(specifier: string, runs: number): number {
  const times: number[] = [];
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    times.push(Number(out.trim()));
  }
  return median(times);
}

function ajvCompileTime(runs: number): number {
  const script = `
    const t = performance.now();
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const schema = JSON.parse((await import("node:fs")).readFileSync("spec/2025-11-25/schema.json", "utf8"));
    const ajv = new Ajv2020({ strict: false, formats: { uri: true, "uri-template": true, byte: true } });
    ajv.addSchema(schema, "mcp");
    for (const t of ["JSONRPCMessage", "InitializeRequest", "ListToolsRequest", "CallToolRequest", "ReadResourceRequest", "ProgressNotification", "InitializeResult", "ListToolsResult", "CallToolResult", "ReadResourceResult"]) ajv.getSchema("mcp#/$defs/" + t);
    console.log(performance.now() - t);`;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(
      Number(
        execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }).trim(),
      ),
    );
  }
  return median(times);
}

console.log(`mcpgen validation benchmark; node ${process.version}; ${quick ? "quick" : "full"} run`);
for (const u of upstream)
  console.log(
    `upstream ${u.revision}: ${u.messages.length} examples as messages` +
      (u.leftOut.length > 0 ? `; left out (no message takes them): ${u.leftOut.join(", ")}` : ""),
  );
checkAgreement();
const valid = corpus.filter((m) => m.valid);
const invalid = corpus.filter((m) => !m.valid);
const handMadeValid = valid.filter((m) => m.revision === "2025-11-25");

table(
  `Valid messages: ${handMadeValid.length} hand-made 2025-11-25 and ${valid.length - handMadeValid.length} upstream examples of 2026-07-28 and draft`,
  [MCPGEN, AJV],
  valid,
);
table(`Invalid messages (2025-11-25)`, [MCPGEN, SDK, AJV], invalid);
table(`Valid messages, the 2025-11-25 ones alone (the SDK's revision)`, [MCPGEN, SDK, AJV], handMadeValid);
console.log(`\nImport cost in a fresh process (median of ${importRuns}):`);
console.log(
  `  import("mcpgen/2025-11-25")                   ${importTime("mcpgen/2025-11-25", importRuns).toFixed(1)} ms`,
);
console.log(
  `  import("@modelcontextprotocol/sdk/types.js")  ${importTime("@modelcontextprotocol/sdk/types.js", importRuns).toFixed(1)} ms`,
);
console.log(`  ajv: import, addSchema(schema.json), compile 10 types  ${ajvCompileTime(importRuns).toFixed(1)} ms`);
