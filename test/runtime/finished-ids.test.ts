// FinishedIds against a plain model (the last N ids in an array): whatever the
// ids, exactly the last `capacity` added are remembered.
import { describe, expect, test } from "vitest";
import { FinishedIds } from "../../runtime/finished-ids.js";
import { random } from "../support/random.js";

type Id = string | number;

/** Adds `ids` one by one and checks after each that exactly the last `capacity` (and no other id) are remembered. */
function checkAgainstModel(capacity: number, ids: readonly Id[], probes: readonly Id[]): void {
  const finished = new FinishedIds(capacity);
  const model: Id[] = [];
  ids.forEach((id, i) => {
    expect(finished.has(id), `id ${String(id)} before its add #${i}`).toBe(model.includes(id));
    finished.add(id);
    model.push(id);
    if (model.length > capacity) model.shift();
    for (const probe of [...probes, ...ids.slice(Math.max(0, i - 2 * capacity), i + 1)])
      expect(finished.has(probe), `has(${JSON.stringify(probe)}) after add #${i}`).toBe(model.includes(probe));
  });
}

describe("FinishedIds", () => {
  test("ids counting up, from 0 and from far up", () => {
    checkAgainstModel(
      8,
      Array.from({ length: 60 }, (_, i) => i),
      [-1, 60, 61, "0"],
    );
    checkAgainstModel(
      8,
      Array.from({ length: 60 }, (_, i) => 2 ** 40 + i),
      [2 ** 40 - 1, 2 ** 40 + 60],
    );
  });

  test("the smallest capacities, where the first id (held alone until a second comes) is forgotten at once or next", () => {
    for (const capacity of [1, 2])
      checkAgainstModel(capacity, [5, "x", 5.5, 0, 7, 9, -0, "x", 2 ** 53], [1, "5", 6, 8, -1]);
    checkAgainstModel(1, [0], [-0, "0", 1]);
  });

  test("ids whose table slots collide (steps of the table's size, and of half of it)", () => {
    // The table has 2 * capacity slots: these ids all share slots and spill into the map.
    checkAgainstModel(
      4,
      Array.from({ length: 40 }, (_, i) => i * 8),
      [8 * 40, 3, 4],
    );
    checkAgainstModel(
      4,
      Array.from({ length: 40 }, (_, i) => (i % 3) * 4 + Math.floor(i / 3) * 1000),
      [5, 1000],
    );
  });

  test("strings, negatives, fractions, unsafe integers and numbers that look like strings", () => {
    const ids: Id[] = ["a", -1, 0.5, 2 ** 53, 2 ** 53 + 2, "1", 1, -0.5, "", 3, "a-1", 1e21, 5, 7];
    checkAgainstModel(3, [...ids, ...ids.map((id) => (typeof id === "string" ? `${id}!` : -id - 100))], ["b", 2]);
  });

  test("random ids mixing all kinds, against the model", () => {
    const next = random(0x9e3779b9);
    const ids: Id[] = [];
    const used = new Set<Id>();
    while (ids.length < 400) {
      const r = next();
      const id: Id =
        r < 0.5
          ? Math.floor(next() * 64) // small integers: many share a slot
          : r < 0.7
            ? `s${Math.floor(next() * 64)}`
            : r < 0.85
              ? Math.floor(next() * 2 ** 53)
              : -Math.floor(next() * 64);
      // A session refuses a remembered id before it finishes: the ids added are never remembered ones.
      const recent = ids.slice(-16);
      if (recent.includes(id)) continue;
      ids.push(id);
      used.add(id);
    }
    checkAgainstModel(16, ids, [...used].slice(0, 32));
  });

  test("a table that grows (from 8 slots to twice the capacity) keeps what it held, colliding ids included", () => {
    const ids = [
      ...Array.from({ length: 150 }, (_, i) => i * 7),
      ...Array.from({ length: 150 }, (_, i) => 5000 + i),
      ...Array.from({ length: 60 }, (_, i) => 9 + i * 64),
    ];
    checkAgainstModel(100, ids, [1, 6, 5150, 73]);
  });

  test("a busy session's ids are kept outside V8's heap (in ArrayBuffers), not grown through its young generation", () => {
    const before = process.memoryUsage().arrayBuffers;
    const sessions = Array.from({ length: 16 }, () => new FinishedIds(1024));
    for (let id = 0; id < 1024; id++) for (const finished of sessions) finished.add(id);
    // 1,024 ids and 2,048 table slots of 8 bytes a session.
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThanOrEqual(16 * 3 * 1024 * 8);
    expect(sessions.every((finished) => finished.has(0) && finished.has(1023))).toBe(true);
  });

  test("a capacity that is not a positive integer is refused", () => {
    expect(() => new FinishedIds(0)).toThrow(RangeError);
    expect(() => new FinishedIds(1.5)).toThrow(RangeError);
  });
});
