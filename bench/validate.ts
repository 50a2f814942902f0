// Benchmark: the cost of checking a received MCP message, side by side in one
// run, as ns/message and as a ratio to JSON.parse alone measured in the same
// round. Rows:
//   JSON.parse                   the floor
//   JSON.parse + mcpgen          validateMessage (classify, then the method's generated check)
//   JSON.parse + SDK (zod)       what @modelcontextprotocol/sdk does on receipt: JSONRPCMessageSchema.parse,
//                                then the method's schema (requests, notifications) or result schema (responses)
//   JSON.parse + ajv             ajv compiled from the revision's schema.json: JSONRPCMessage, then the method's type
// Also the cost of importing each, in fresh processes.
//
// Run: npm run bench:validate. Revision 2025-11-25, the newest the SDK speaks.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import * as sdk from "@modelcontextprotocol/sdk/types.js";
import { validateMessage } from "mcpgen/2025-11-25";
import { corpus, type BenchMessage } from "./corpus.js";

const revision = "2025-11-25";
const root = join(import.meta.dirname, "..", "..");

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

// --- ajv from schema.json ---------------------------------------------------
const schemaJson = JSON.parse(readFileSync(join(root, "spec", revision, "schema.json"), "utf8"));
const ajv = new Ajv2020({ strict: false, formats: { uri: true, "uri-template": true } });
(addFormats as unknown as (a: Ajv2020, f: string[]) => void)(ajv, ["byte"]);
ajv.addSchema(schemaJson, "mcp");
const ajvType = (name: string) => ajv.getSchema(`mcp#/$defs/${name}`)!;
const ajvEnvelope = ajvType("JSONRPCMessage");
const ajvMessage: Record<string, ReturnType<typeof ajvType>> = {
  initialize: ajvType("InitializeRequest"),
  "tools/list": ajvType("ListToolsRequest"),
  "tools/call": ajvType("CallToolRequest"),
  "resources/read": ajvType("ReadResourceRequest"),
  "notifications/progress": ajvType("ProgressNotification"),
};
const ajvResult: Record<string, ReturnType<typeof ajvType>> = {
  initialize: ajvType("InitializeResult"),
  "tools/list": ajvType("ListToolsResult"),
  "tools/call": ajvType("CallToolResult"),
  "resources/read": ajvType("ReadResourceResult"),
};

function ajvReceive(text: string, m: BenchMessage): boolean {
  const message = JSON.parse(text) as Record<string, unknown>;
  if (!ajvEnvelope(message)) return false;
  if (typeof message["method"] === "string") return ajvMessage[message["method"]]?.(message) === true;
  if ("result" in message) return ajvResult[m.requestMethod!]!(message["result"]) === true;
  return true;
}

// --- rows ---------------------------------------------------------------------
interface Row {
  name: string;
  receive(text: string, m: BenchMessage): boolean;
}

const rows: Row[] = [
  { name: "JSON.parse", receive: (text) => JSON.parse(text) !== undefined },
  {
    name: "JSON.parse + mcpgen",
    receive: (text, m) => validateMessage(JSON.parse(text), m.requestMethod).result.valid,
  },
  { name: "JSON.parse + SDK (zod)", receive: sdkReceive },
  { name: "JSON.parse + ajv", receive: ajvReceive },
];

function checkAgreement(): void {
  for (const m of corpus) {
    const verdicts = rows.slice(1).map((row) => row.receive(m.text, m));
    const expected = m.valid;
    const wrong = rows
      .slice(1)
      .filter((_, i) => verdicts[i] !== expected)
      .map((r) => r.name);
    if (wrong.length > 0)
      console.log(
        `note: ${m.name}: ${wrong.join(", ")} disagree with the expected verdict (${expected ? "valid" : "invalid"})`,
      );
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

function table(title: string, messages: readonly BenchMessage[], rounds: number, budgetMs: number): void {
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
}

/** Median milliseconds to import a module in a fresh Node process. */
function importTime(specifier: string, runs: number): number {
  const require = createRequire(import.meta.url);
  void require;
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
    const schema = JSON.parse((await import("node:fs")).readFileSync("spec/${revision}/schema.json", "utf8"));
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

const quick = process.argv.includes("--quick");
const rounds = quick ? 3 : 15;
const budget = quick ? 50 : 150;
console.log(
  `mcpgen validation benchmark, revision ${revision}; node ${process.version}; ${quick ? "quick" : "full"} run`,
);
checkAgreement();
table(
  "Valid messages",
  corpus.filter((m) => m.valid),
  rounds,
  budget,
);
table(
  "Invalid messages",
  corpus.filter((m) => !m.valid),
  rounds,
  budget,
);
for (const m of corpus) {
  const floor = measure(rows[0]!, [m], quick ? 20 : 60);
  const ours = measure(rows[1]!, [m], quick ? 20 : 60);
  console.log(
    `  ${m.name.padEnd(44)} ${m.text.length.toString().padStart(7)} bytes  parse ${floor.toFixed(0).padStart(7)} ns  + mcpgen ${(ours / floor).toFixed(2)}×`,
  );
}
const runs = quick ? 3 : 9;
console.log(`\nImport cost in a fresh process (median of ${runs}):`);
console.log(`  import("mcpgen/${revision}")                   ${importTime(`mcpgen/${revision}`, runs).toFixed(1)} ms`);
console.log(
  `  import("@modelcontextprotocol/sdk/types.js")  ${importTime("@modelcontextprotocol/sdk/types.js", runs).toFixed(1)} ms`,
);
console.log(`  ajv: import, addSchema(schema.json), compile 10 types  ${ajvCompileTime(runs).toFixed(1)} ms`);
