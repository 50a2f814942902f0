// One row of bench/validate in a process of its own: only that row's library
// is loaded beside the corpus, as in a server that uses it. Measured in one
// process with ajv, its schemas and the SDK loaded too (unused), mcpgen's
// ratio read 0.03-0.05 higher. Run by bench/validate.ts with a job file: timed
// beside JSON.parse (the figures printed as JSON), or, for --instructions, a
// number of untimed passes that the parent counts under callgrind.
import { readFileSync } from "node:fs";
import type { BenchMessage } from "../corpus.js";
import { FLOOR, type MethodTables, type Row } from "./row.js";
import { timeRow } from "./turns.js";

export interface RowJob {
  row: "floor" | "mcpgen" | "sdk" | "ajv";
  root: string;
  methodTables: MethodTables;
  messages: BenchMessage[];
  rounds: number;
  budgetMs: number;
  warmUpMs: number;
  /** For --instructions: run this many passes over the messages, untimed, and print nothing. */
  passes?: number;
}

const job = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as RowJob;
const row: Row =
  job.row === "floor"
    ? FLOOR
    : job.row === "mcpgen"
      ? (await import("./mcpgen.js")).mcpgenRow()
      : job.row === "sdk"
        ? (await import("./sdk.js")).sdkRow()
        : (await import("./ajv.js")).ajvRow(job.root, job.methodTables);
if (job.passes !== undefined) {
  let sink = 0;
  for (let i = 0; i < job.passes; i++) for (const m of job.messages) if (row.receive(m.text, m)) sink++;
  if (sink === -1) console.log("unreachable");
} else {
  process.stdout.write(JSON.stringify(timeRow(row, job.messages, job.rounds, job.budgetMs, job.warmUpMs)));
}
