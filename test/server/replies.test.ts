// runtime/server/replies.ts: the JSON text of responses, and what writing it
// leaves to the young generation's collections.
import { GCProfiler } from "node:v8";
import { describe, expect, test } from "vitest";
import { errorJson, idJson, resultJson } from "../../runtime/server/replies.js";

describe("reply text", () => {
  test("a result and an error response, with number and string ids", () => {
    for (const id of [0, 7, 2 ** 40, -3, 'a"b', ""]) {
      expect(JSON.parse(resultJson(id, '{"content":[]}'))).toEqual({ jsonrpc: "2.0", id, result: { content: [] } });
      expect(JSON.parse(errorJson(id, -32600, "no"))).toEqual({
        jsonrpc: "2.0",
        id,
        error: { code: -32600, message: "no" },
      });
    }
    expect(idJson(12)).toBe("12");
    expect(idJson("12")).toBe('"12"');
  });
});

/** Bytes that survived scavenges while `make` ran for ids start..start+count. */
function survivedWhile(make: (id: number) => string, start: number, count: number): number {
  const used = (side: ReturnType<GCProfiler["stop"]>["statistics"][number]["beforeGC"], space: string) =>
    side.heapSpaceStatistics.find((s) => s.spaceName === space)!.spaceUsedSize;
  let length = 0;
  // Warm: the function compiled, and what the worker allocated before promoted by the scavenges this causes.
  for (let id = -count; id < 0; id++) length += make(id).length;
  const profiler = new GCProfiler();
  profiler.start();
  for (let id = start; id < start + count; id++) length += make(id).length;
  const { statistics } = profiler.stop();
  expect(length).toBeGreaterThan(2 * count);
  let survived = 0;
  for (const gc of statistics)
    if (gc.gcType === "Scavenge")
      survived += used(gc.afterGC, "new_space") + used(gc.afterGC, "old_space") - used(gc.beforeGC, "old_space");
  return survived;
}

test("a new id's digits are not kept alive by V8's number-to-string cache", () => {
  const COUNT = 1_000_000;
  // The control: digits from a template literal go through the cache, and survive.
  const cached = survivedWhile((id) => `{"jsonrpc":"2.0","id":${id},"result":{}}`, 10_000_000, COUNT);
  const written = survivedWhile((id) => resultJson(id, "{}"), 20_000_000, COUNT);
  expect(cached, "the control no longer shows the cache's survivors").toBeGreaterThan(1_000_000);
  expect(written).toBeLessThan(cached / 10);
});
