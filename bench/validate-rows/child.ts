// One row of bench:validate in a process of its own: only that row's library
// is loaded beside the corpus, as in a server that uses it. Run by
// bench/validate.ts with a job file; prints the row's figures as JSON.
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
process.stdout.write(JSON.stringify(timeRow(row, job.messages, job.rounds, job.budgetMs, job.warmUpMs)));
