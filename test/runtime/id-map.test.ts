// runtime/id-map.ts: the map of what is in flight (and of the ids a session
// remembers) must behave as a Map, let go of a value once its entry is
// deleted, and not rebuild tables as ids come and go: a V8 Map or Set does,
// and after a full GC its outgrown tables are promoted one after the other
// (with what they hold) until the next. Measured in fresh processes
// (node --expose-gc), where the heap holds nothing else in motion.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IdMap } from "../../runtime/id-map.js";

const root = join(import.meta.dirname, "..", "..");
const idMapModule = JSON.stringify(join(root, "dist", "runtime", "id-map.js"));

function runScript(script: string): number {
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return Number(out);
}

const heapUsed = `
  import { getHeapSpaceStatistics } from "node:v8";
  const used = (...spaces) => getHeapSpaceStatistics()
    .filter((s) => spaces.includes(s.space_name))
    .reduce((sum, s) => sum + s.space_used_size, 0);`;

/**
 * KB still held after two young-generation collections that followed 2,000
 * values (~1 KB each) going through a map with 64 entries at a time, ids
 * always new, the map's table promoted by a full GC before.
 */
function retainedKb(kind: "Map" | "IdMap"): number {
  return runScript(`
    import { IdMap } from ${idMapModule};
    ${heapUsed}
    const map = ${kind === "Map" ? "new Map()" : "new IdMap()"};
    for (let i = 0; i < 8; i++) map.set(-i, { i });
    gc(); gc({ type: "minor" });
    const before = used("new_space", "old_space");
    for (let i = 0; i < 2000; i++) {
      map.set(i, new Array(128).fill(i));
      if (i >= 64) map.delete(i - 64);
    }
    for (let i = 1936; i < 2000; i++) map.delete(i);
    gc({ type: "minor" }); gc({ type: "minor" });
    // Measured before process.stdout is first touched: a pipe's stream costs ~175 KB to set up.
    const grown = used("new_space", "old_space") - before;
    process.stdout.write(String(Math.round(grown / 1024)));
  `);
}

/**
 * Bytes of old generation (large objects included: a Set of 4,096 ids has a
 * table of ~160 KB) grown per id while a window of 4,096 ids slides over
 * 200,000 new ones (one in, one out, as a session remembers finished ids),
 * young-generation collections only, after a full GC promoted the table.
 */
function promotedBytesPerId(kind: "Set" | "IdMap"): number {
  return runScript(`
    import { IdMap } from ${idMapModule};
    ${heapUsed}
    const ids = ${kind === "Set" ? "new Set()" : "new IdMap()"};
    const add = ${kind === "Set" ? "(id) => ids.add(id)" : "(id) => ids.set(id, true)"};
    for (let i = 0; i < 4096; i++) add(i);
    gc(); gc();
    const before = used("old_space", "large_object_space");
    const count = 200000;
    for (let i = 4096; i < 4096 + count; i++) {
      ids.delete(i - 4096);
      add(i);
      if (i % 10000 === 0) gc({ type: "minor" });
    }
    const grown = used("old_space", "large_object_space") - before; // before process.stdout is set up, as above
    process.stdout.write(String(grown / count));
  `);
}

describe("IdMap", () => {
  it("behaves as a map: set, get, has, take, delete, keys, values, clear", () => {
    const map = new IdMap<string | number, { n: number }>();
    map.set(1, { n: 1 });
    map.set("1", { n: 2 });
    map.set(1, { n: 3 }); // replaces
    expect(map.size).toBe(2);
    expect(map.get(1)).toEqual({ n: 3 });
    expect(map.has("1")).toBe(true);
    expect(map.take("1")).toEqual({ n: 2 });
    expect(map.take("1")).toBeUndefined();
    expect(map.has("1")).toBe(false);
    map.set(2, { n: 4 });
    expect(map.keys().sort()).toEqual([1, 2]);
    for (const key of map.keys()) map.delete(key); // deleting while going through keys() is safe
    expect(map.size).toBe(0);
    expect(map.delete(2)).toBe(false);
    map.set(5, { n: 5 });
    expect(map.values()).toEqual([{ n: 5 }]);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.get(5)).toBeUndefined();
    map.set(-0, { n: 6 }); // JSON's -0 is the id 0, as a Map has it
    expect(map.get(0)).toEqual({ n: 6 });
  });

  it("clears a map that never held an entry; maps without a table share nothing", () => {
    const map = new IdMap<number, number>();
    map.clear(); // no table yet: nothing to clear
    expect(map.keys()).toEqual([]);
    for (let i = 0; i < 5; i++) map.set(i, i * 10); // the first table of two slots doubles three times
    expect(map.values().sort((a, b) => a - b)).toEqual([0, 10, 20, 30, 40]);
    map.clear();
    map.clear();
    map.set(7, 70);
    expect([map.get(7), map.size]).toEqual([70, 1]);
    // A map made after others held and cleared entries starts empty: no slots were written while shared.
    const fresh = new IdMap<number, number>();
    expect([fresh.keys(), fresh.values(), fresh.get(0), fresh.size]).toEqual([[], [], undefined, 0]);
  });

  it("agrees with a Map over a seeded run of sets, gets and deletes of string and number ids", () => {
    let state = 0x2545f491;
    const random = (n: number) => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) % n;
    };
    // Few distinct ids, so that the same ones come back, collide and are deleted mid-chain.
    const pool: (string | number)[] = [];
    for (let i = 0; i < 300; i++)
      pool.push(i, String(i), i + 0.5, -i - 1, 2 ** 40 + i, `req-${i}-${"x".repeat(i % 7)}`);
    const map = new IdMap<string | number, number>();
    const reference = new Map<string | number, number>();
    for (let step = 0; step < 60_000; step++) {
      const key = pool[random(pool.length)]!;
      const op = random(10);
      if (op < 4) {
        map.set(key, step);
        reference.set(key, step);
      } else if (op < 8) {
        expect(map.delete(key)).toBe(reference.delete(key));
      } else {
        expect(map.get(key)).toBe(reference.get(key));
        expect(map.has(key)).toBe(reference.has(key));
      }
      expect(map.size).toBe(reference.size);
      if (step % 5_000 === 0) {
        // keys() and values() list the entries in one order (a Map's is insertion order, not promised here).
        const keys = map.keys();
        expect(new Set(keys)).toEqual(new Set(reference.keys()));
        expect(map.values()).toEqual(keys.map((key) => reference.get(key)));
      }
    }
    for (const key of pool) expect(map.get(key)).toBe(reference.get(key));
  });

  it("releases deleted values to young-generation collections after a full GC, where a Map holds them", () => {
    const plain = retainedKb("Map");
    const ours = retainedKb("IdMap");
    // 2,000 values of ~1 KB went through each map: a plain Map keeps most of them.
    expect(plain).toBeGreaterThan(700);
    expect(ours).toBeLessThan(plain / 10);
  });

  it("does not grow the old generation while a window of ids slides, where a Set's tables are promoted", () => {
    const set = promotedBytesPerId("Set");
    const ours = promotedBytesPerId("IdMap");
    // A Set rebuilds its table every 4,096 ids (as many deleted entries as live ones) and, once a full GC
    // has moved the table, each young-generation collection keeps the new one through the old one's link.
    expect(set).toBeGreaterThan(20);
    expect(ours).toBeLessThan(2);
  });
});
