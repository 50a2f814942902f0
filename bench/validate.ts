// Benchmark: the cost of checking a received MCP message, side by side in one
// run, as ns/message and as a ratio to JSON.parse alone measured in the same
// round. Rows:
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
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import * as sdk from "@modelcontextprotocol/sdk/types.js";
import * as rev20251125 from "mcpgen/2025-11-25";
import * as rev20260728 from "mcpgen/2026-07-28";
import * as revDraft from "mcpgen/draft";
import { corpus as handMade, type BenchMessage } from "./corpus.js";
import { upstreamCorpus, type RevisionModule } from "./upstream-corpus.js";
import { targetLines } from "./targets.js";
import { benchOptions, sharedOptions } from "./options.js";

const options = benchOptions("validate.js", "Parse + validate beside JSON.parse, ajv and the official SDK.", [
  sharedOptions.quick,
]);
const quick = options.has("--quick");

const root = join(import.meta.dirname, "..", "..");
const revisions: Record<string, RevisionModule> = {
  "2025-11-25": rev20251125 as unknown as RevisionModule,
  "2026-07-28": rev20260728 as unknown as RevisionModule,
  draft: revDraft as unknown as RevisionModule,
};
const upstream = ["2026-07-28", "draft"].map((revision) => ({
  revision,
  ...upstreamCorpus(root, revision, revisions[revision]!),
}));
const corpus: BenchMessage[] = [...handMade, ...upstream.flatMap((u) => u.messages)];

// --- the SDK, as on receipt -------------------------------------------------
type ZodLike = { parse(value: unknown): unknown; safeParse(value: unknown): { success: boolean } };
const sdkSchemas = sdk as unknown as Record<string, ZodLike>;
/** The SDK's schema for each method's request or notification, and for each request's result. */
const sdkMessage: Record<string, ZodLike> = {
  initialize: sdkSchemas["InitializeRequestSchema"]!,
  "tools/list": sdkSchemas["ListToolsRequestSchema"]!,
  "tools/call": sdkSchemas["CallToolRequestSchema"]!,
  "resources/read": sdkSchemas["ReadResourceRequestSchema"]!,
  "notifications/progress": sdkSchemas["ProgressNotificationSchema"]!,
  "sampling/createMessage": sdkSchemas["CreateMessageRequestSchema"]!,
};
const sdkResult: Record<string, ZodLike> = {
  initialize: sdkSchemas["InitializeResultSchema"]!,
  "tools/list": sdkSchemas["ListToolsResultSchema"]!,
  "tools/call": sdkSchemas["CallToolResultSchema"]!,
  "resources/read": sdkSchemas["ReadResourceResultSchema"]!,
};

function sdkReceive(text: string, m: BenchMessage): boolean {
  try {
    const message = sdkSchemas["JSONRPCMessageSchema"]!.parse(JSON.parse(text)) as Record<string, unknown>;
    if ("method" in message) sdkMessage[message["method"] as string]!.parse(message);
    else if ("result" in message) return sdkResult[m.requestMethod!]!.safeParse(message["result"]).success;
    return true;
  } catch {
    return false; // the SDK throws on invalid messages
  }
}

// --- ajv from schema.json, per revision ----------------------------------------
type AjvCheck = ((value: unknown) => boolean) | undefined;
const ajvOf = new Map<string, { envelope: AjvCheck; type(name: string | null | undefined): AjvCheck }>();
for (const revision of Object.keys(revisions)) {
  const schemaJson = JSON.parse(readFileSync(join(root, "spec", revision, "schema.json"), "utf8"));
  const ajv = new Ajv2020({ strict: false, formats: { uri: true, "uri-template": true } });
  (addFormats as unknown as (a: Ajv2020, f: string[]) => void)(ajv, ["byte"]);
  ajv.addSchema(schemaJson, "mcp");
  const compiled = new Map<string, AjvCheck>();
  const type = (name: string | null | undefined): AjvCheck => {
    if (!name) return undefined;
    if (!compiled.has(name)) compiled.set(name, ajv.getSchema(`mcp#/$defs/${name}`) as AjvCheck);
    return compiled.get(name);
  };
  ajvOf.set(revision, { envelope: type("JSONRPCMessage"), type });
}
interface MethodTypes {
  type?: string;
  result?: string | null;
  resultResponse?: string | null;
}

function ajvReceive(text: string, m: BenchMessage): boolean {
  const message = JSON.parse(text) as Record<string, unknown>;
  const ajv = ajvOf.get(m.revision)!;
  if (!ajv.envelope!(message)) return false;
  const methods = revisions[m.revision]!.methods as Record<string, MethodTypes>;
  if (typeof message["method"] === "string") return ajv.type(methods[message["method"]]?.type)?.(message) === true;
  if ("result" in message) {
    // The response type where there is one: its result may be a union (2026-07-28: X | InputRequiredResult).
    const entry = methods[m.requestMethod!];
    const response = ajv.type(entry?.resultResponse);
    return response ? response(message) : ajv.type(entry?.result)?.(message["result"]) === true;
  }
  return true;
}

// --- rows ---------------------------------------------------------------------
interface Row {
  name: string;
  receive(text: string, m: BenchMessage): boolean;
}

const FLOOR: Row = { name: "JSON.parse", receive: (text) => JSON.parse(text) !== undefined };
const MCPGEN: Row = {
  name: "JSON.parse + mcpgen",
  receive: (text, m) => revisions[m.revision]!.validateMessage(JSON.parse(text), m.requestMethod).result.valid,
};
const SDK: Row = { name: "JSON.parse + SDK (zod)", receive: sdkReceive };
const AJV: Row = { name: "JSON.parse + ajv", receive: ajvReceive };

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

/** ns per message for one row over a set of messages, run for about `budgetMs`. */
function measure(row: Row, messages: readonly BenchMessage[], budgetMs: number): number {
  let sink = 0;
  let count = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(budgetMs * 1e6);
  let now = start;
  while (now < deadline) {
    for (let k = 0; k < 50; k++) for (const m of messages) if (row.receive(m.text, m)) sink++;
    count += 50 * messages.length;
    now = process.hrtime.bigint();
  }
  if (sink === -1) console.log("unreachable");
  return Number(now - start) / count;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function table(
  title: string,
  rows: readonly Row[],
  messages: readonly BenchMessage[],
  rounds: number,
  budgetMs: number,
): Map<string, number> {
  const ns = new Map<string, number[]>(rows.map((r) => [r.name, []]));
  const ratios = new Map<string, number[]>(rows.map((r) => [r.name, []]));
  for (const row of rows) measure(row, messages, 200); // warm-up
  for (let round = 0; round < rounds; round++) {
    // Rotate the order each round so that no row always runs first or last.
    const order = rows.map((_, i) => rows[(i + round) % rows.length]!);
    const results = new Map(order.map((row) => [row.name, measure(row, messages, budgetMs)]));
    const floor = results.get("JSON.parse")!;
    for (const [name, value] of results) {
      ns.get(name)!.push(value);
      ratios.get(name)!.push(value / floor);
    }
  }
  console.log(
    `\n${title} (${messages.length} messages, ${rounds} rounds; median ns/message, median of per-round ratios to JSON.parse)`,
  );
  console.log(`${"row".padEnd(26)} ${"ns/message".padStart(11)} ${"× JSON.parse".padStart(13)}`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(26)} ${median(ns.get(row.name)!).toFixed(0).padStart(11)} ${median(ratios.get(row.name)!).toFixed(2).padStart(12)}×`,
    );
  }
  return new Map(rows.map((row) => [row.name, median(ratios.get(row.name)!)]));
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

const rounds = quick ? 3 : 15;
const budget = quick ? 50 : 150;
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
const validRatios = table(
  `Valid messages: ${handMadeValid.length} hand-made 2025-11-25 and ${valid.length - handMadeValid.length} upstream examples of 2026-07-28 and draft`,
  [FLOOR, MCPGEN, AJV],
  valid,
  rounds,
  budget,
);
const invalidRatios = table(`Invalid messages (2025-11-25)`, [FLOOR, MCPGEN, SDK, AJV], invalid, rounds, budget);
table(
  `Valid messages, the 2025-11-25 ones alone (the SDK's revision)`,
  [FLOOR, MCPGEN, SDK, AJV],
  handMadeValid,
  rounds,
  budget,
);
console.log(
  `\nTargets (issue #14):\n${targetLines([
    {
      what: "valid messages, mcpgen ÷ JSON.parse",
      value: validRatios.get(MCPGEN.name),
      bound: "at most",
      limit: 1.15,
      unit: "×",
    },
    {
      what: "invalid messages, mcpgen ÷ JSON.parse",
      value: invalidRatios.get(MCPGEN.name),
      bound: "at most",
      limit: 1.1,
      unit: "×",
    },
  ])}`,
);
console.log("\nPer message (mcpgen ÷ JSON.parse):");
for (const m of corpus) {
  const floor = measure(FLOOR, [m], quick ? 10 : 60);
  const ours = measure(MCPGEN, [m], quick ? 10 : 60);
  console.log(
    `  ${m.name.slice(0, 70).padEnd(70)} ${m.valid ? "valid  " : "invalid"} ${m.text.length.toString().padStart(7)} bytes  parse ${floor.toFixed(0).padStart(7)} ns  + mcpgen ${(ours / floor).toFixed(2)}×`,
  );
}
const runs = quick ? 3 : 9;
console.log(`\nImport cost in a fresh process (median of ${runs}):`);
console.log(`  import("mcpgen/2025-11-25")                   ${importTime("mcpgen/2025-11-25", runs).toFixed(1)} ms`);
console.log(
  `  import("@modelcontextprotocol/sdk/types.js")  ${importTime("@modelcontextprotocol/sdk/types.js", runs).toFixed(1)} ms`,
);
console.log(`  ajv: import, addSchema(schema.json), compile 10 types  ${ajvCompileTime(runs).toFixed(1)} ms`);
