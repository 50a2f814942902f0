// What bench/validate measures: a row receives one message as text, as a
// server would (parse, then check), and says whether it found it valid.
import type { BenchMessage } from "../corpus.js";

export interface Row {
  name: string;
  receive(text: string, m: BenchMessage): boolean;
}

/** Which schema types a revision's method takes (its generated method table, as data). */
export interface MethodTypes {
  type?: string;
  result?: string | null;
  resultResponse?: string | null;
}
export type MethodTables = Record<string, Record<string, MethodTypes>>;

export const FLOOR: Row = { name: "JSON.parse", receive: (text) => JSON.parse(text) !== undefined };
