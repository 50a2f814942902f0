// Benchmark: the cost of checking a received MCP message, side by side in one
// run, as ns/message and as a ratio to JSON.parse alone, each row taking turns
// with JSON.parse pass by pass over the messages (see inTurns). Rows:
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

/** Nanoseconds one row takes for one pass over the messages. */
function pass(row: Row, messages: readonly BenchMessage[]): number {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (const m of messages) if (row.receive(m.text, m)) sink++;
  const ns = Number(process.hrtime.bigint() - start);
  if (sink === -1) console.log("unreachable");
  return ns;
}

/**
 * Two rows' passes over the messages taken in turn (one pass of each, again
 * and again) for about `ms`: each row's total nanoseconds and the number of
 * passes. Taking turns pass by pass (~1 ms each) puts a row and the floor under
 * the same machine: on this machine kind another tenant's load moves a row's
 * speed by a fifth within seconds, and rows timed one after the other for
 * 150 ms each gave ratios that scattered by ±0.3 from round to round. Only the
 * floor takes turns with a row: a third row in between (ajv's compiled code)
 * would evict the row's code and data from the caches before each pass.
 */
function inTurns(pair: readonly [Row, Row], messages: readonly BenchMessage[], ms: number): [number, number, number] {
  let first = 0;
  let second = 0;
  let passes = 0;
  const deadline = performance.now() + ms;
  do {
    first += pass(pair[0], messages);
    second += pass(pair[1], messages);
    passes++;
  } while (performance.now() < deadline);
  return [first, second, passes];
}

function table(
  title: string,
  rows: readonly Row[],
  messages: readonly BenchMessage[],
  rounds: number,
  budgetMs: number,
): Map<string, number> {
  // Per row: its ns/message, JSON.parse's in the same turns, and the ratio, one of each per round.
  const figures = new Map(
    rows.map((row) => [row.name, { ns: [] as number[], floorNs: [] as number[], ratios: [] as number[] }]),
  );
  // Warm-up until V8's optimizing compiler has compiled what the messages run: a check that runs once
  // per pass is optimized only after ~1,000 passes, and before that runs as baseline code.
  for (const row of rows) inTurns([FLOOR, row], messages, warmUpMs / rows.length);
  for (let round = 0; round < rounds; round++) {
    // Rotate the order each round so that no row always runs first or last, and alternate which of a pair goes first.
    for (let i = 0; i < rows.length; i++) {
      const row = rows[(i + round) % rows.length]!;
      const [floor, ours, passes] =
        round % 2 === 0
          ? inTurns([FLOOR, row], messages, budgetMs * 2)
          : (([a, b, n]) => [b, a, n] as const)(inTurns([row, FLOOR], messages, budgetMs * 2));
      const f = figures.get(row.name)!;
      f.ns.push(ours / (passes * messages.length));
      f.floorNs.push(floor / (passes * messages.length));
      f.ratios.push(ours / floor);
    }
  }
  console.log(
    `\n${title} (${messages.length} messages, ${rounds} rounds, each row taking turns with JSON.parse pass by pass; median ns/message, JSON.parse's in the same turns, the median of per-round ratios and their range)`,
  );
  console.log(
    `${"row".padEnd(26)} ${"ns/message".padStart(11)} ${"JSON.parse".padStart(11)} ${"× JSON.parse".padStart(13)}  ${"range".padStart(11)}`,
  );
  for (const row of rows) {
    const f = figures.get(row.name)!;
    console.log(
      `${row.name.padEnd(26)} ${median(f.ns).toFixed(0).padStart(11)} ${median(f.floorNs).toFixed(0).padStart(11)} ${median(f.ratios).toFixed(2).padStart(12)}×  ${`${Math.min(...f.ratios).toFixed(2)}–${Math.max(...f.ratios).toFixed(2)}`.padStart(11)}`,
    );
  }
  return new Map(rows.map((row) => [row.name, median(figures.get(row.name)!.ratios)]));
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
const warmUpMs = quick ? 300 : 6000;
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
  [MCPGEN, AJV],
  valid,
  rounds,
  budget,
);
const invalidRatios = table(`Invalid messages (2025-11-25)`, [MCPGEN, SDK, AJV], invalid, rounds, budget);
table(
  `Valid messages, the 2025-11-25 ones alone (the SDK's revision)`,
  [MCPGEN, SDK, AJV],
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
