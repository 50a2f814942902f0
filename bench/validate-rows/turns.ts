// How bench/validate times a row: beside JSON.parse, taking turns pass by pass.
import type { BenchMessage } from "../corpus.js";
import { FLOOR, type Row } from "./row.js";

/** Per round: the row's ns/message, JSON.parse's in the same turns, and their ratio. */
export interface RowFigures {
  ns: number[];
  floorNs: number[];
  ratios: number[];
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
 * the same load: on a shared machine another tenant's load moves a row's speed
 * within seconds.
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

/** A row beside JSON.parse: a warm-up, then `rounds` rounds of `2 × budgetMs` each, the pair's order alternating. */
export function timeRow(
  row: Row,
  messages: readonly BenchMessage[],
  rounds: number,
  budgetMs: number,
  warmUpMs: number,
): RowFigures {
  const figures: RowFigures = { ns: [], floorNs: [], ratios: [] };
  // Warmed up first, so that the rounds measure the steady state of a long-running process.
  inTurns([FLOOR, row], messages, warmUpMs);
  for (let round = 0; round < rounds; round++) {
    const [floor, ours, passes] =
      round % 2 === 0
        ? inTurns([FLOOR, row], messages, budgetMs * 2)
        : (([a, b, n]) => [b, a, n] as const)(inTurns([row, FLOOR], messages, budgetMs * 2));
    figures.ns.push(ours / (passes * messages.length));
    figures.floorNs.push(floor / (passes * messages.length));
    figures.ratios.push(ours / floor);
  }
  return figures;
}
