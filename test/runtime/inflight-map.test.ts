// runtime/inflight-map.ts: a map of what is in flight must let go of a value
// once its entry is deleted, even after a full GC has moved the map's table to
// the old generation (a plain Map does not: its outgrown tables keep their
// values alive through young-generation collections). Measured in a fresh
// process (node --expose-gc), where the heap holds nothing else in motion.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InflightMap } from "../../runtime/inflight-map.js";

const root = join(import.meta.dirname, "..", "..");

/**
 * KB still held after two young-generation collections that followed 2,000
 * values (~1 KB each) going through a map with 64 entries at a time, ids
 * always new, the map's table promoted by a full GC before.
 */
function retainedKb(kind: "Map" | "InflightMap"): number {
  const script = `
    import { InflightMap } from ${JSON.stringify(join(root, "dist", "runtime", "inflight-map.js"))};
    import { getHeapSpaceStatistics } from "node:v8";
    const used = () => getHeapSpaceStatistics()
      .filter((s) => s.space_name === "new_space" || s.space_name === "old_space")
      .reduce((sum, s) => sum + s.space_used_size, 0);
    const map = ${kind === "Map" ? "new Map()" : "new InflightMap()"};
    const take = ${
      kind === "Map"
        ? "(key) => { const value = map.get(key); map.delete(key); return value; }"
        : "(key) => map.take(key)"
    };
    for (let i = 0; i < 8; i++) map.set(-i, { i });
    gc(); gc({ type: "minor" });
    const before = used();
    for (let i = 0; i < 2000; i++) {
      map.set(i, new Array(128).fill(i));
      if (i >= 64) take(i - 64);
    }
    for (let i = 1936; i < 2000; i++) take(i);
    gc({ type: "minor" }); gc({ type: "minor" });
    process.stdout.write(String(Math.round((used() - before) / 1024)));
  `;
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 30_000,
  });
  return Number(out);
}

describe("InflightMap", () => {
  it("behaves as a map: set, get, has, take, delete, keys, values, clear", () => {
    const map = new InflightMap<string | number, { n: number }>();
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
    expect(map.keys()).toEqual([1, 2]);
    for (const key of map.keys()) map.delete(key); // deleting while going through keys() is safe
    expect(map.size).toBe(0);
    expect(map.delete(2)).toBe(false);
    map.set(5, { n: 5 });
    expect(map.values()).toEqual([{ n: 5 }]);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.get(5)).toBeUndefined();
  });

  it("releases deleted values to young-generation collections after a full GC, where a Map holds them", () => {
    const plain = retainedKb("Map");
    const inflight = retainedKb("InflightMap");
    // 2,000 values of ~1 KB went through each map: a plain Map keeps most of them.
    expect(plain).toBeGreaterThan(700);
    expect(inflight).toBeLessThan(plain / 3);
  });
});
