// bench/callgrind-profile.ts: callgrind's self costs by function, the code V8
// compiles at run time named from a perf map, summed by area.
import { expect, test } from "vitest";
import {
  UNNAMED_JIT,
  areaOf,
  byArea,
  difference,
  parseCallgrind,
  parsePerfMap,
} from "../../bench/callgrind-profile.js";

// A callgrind output as --dump-instr=yes writes it: positions "instr line", addresses absolute or relative
// to the line before, names compressed to "(id)" after their first use, and after a calls= line the call's
// inclusive cost (the callee's, not the caller's).
const output = `version: 1
creator: callgrind-3.19.0
positions: instr line
events: Ir I1mr
summary: 30 4

ob=(1) /usr/bin/node
fn=(1) v8::internal::JsonParser<unsigned char>::ParseJsonValue()
0x1000 0 10 1
+4 0 5
fn=(2) 0x0000000000002000
0x2000 0 7 2
+8 * 3 1
cfn=(1)
calls=1 0x1000 0
+2 0 100 9
fn=(3) 0x0000000000009000
0x9000 0 4
fn=(1)
0x1008 0 1
`;
const perfMap = parsePerfMap(
  "2000 20 JS:*cTool file:///x/dist/generated/2026-07-28/checks.js:10:3\n3000 10 JS:*run file:///x/dist/runtime/validation.js:1:1\n",
);

test("parseCallgrind: self costs by function, JIT code named from the perf map, call costs left to the callee", () => {
  const profile = parseCallgrind(output, perfMap);
  expect(profile.events).toEqual(["Ir", "I1mr"]);
  expect(Object.fromEntries(profile.byFunction)).toEqual({
    "v8::internal::JsonParser<unsigned char>::ParseJsonValue()": [16, 1],
    "JS:*cTool file:///x/dist/generated/2026-07-28/checks.js:10:3": [10, 3],
    // 0x9000 lies in no code object of the map.
    [UNNAMED_JIT]: [4, 0],
  });
  expect(() => parseCallgrind("not a profile\n", perfMap)).toThrow(/no events line/);
});

test("areaOf: the parser, V8, builtins, mcpgen's runtime and generated code, the bench and the rest", () => {
  expect(areaOf("v8::internal::JsonParser<unsigned char>::BuildJsonObject()")).toBe("JSON.parse: V8's JSON parser");
  expect(areaOf("v8::internal::Factory::NewJSObjectFromMap()")).toBe("V8 runtime (objects, strings, maps, GC)");
  expect(areaOf("v8::internal::compiler::GraphReducer::ReduceNode()")).toBe("V8's optimizing compiler");
  expect(areaOf("Builtins_LoadIC_Megamorphic")).toBe("V8 builtins (property-load stubs, calls, Map)");
  expect(areaOf("JS:*checkMessage file:///w/dist/runtime/messages.js:148:29")).toBe("mcpgen runtime");
  // The installed package's bundle: the runtime's chunks, and the generated modules and shims chunks.
  expect(areaOf("JS:*admit file:///p/node_modules/mcpgen/dist/chunks/server-BMGy0kBx.js:1794:15")).toBe(
    "mcpgen runtime",
  );
  const generated = "generated checks, validators and shims";
  expect(areaOf("JS:^cTool file:///w/dist/generated/2025-11-25/checks.js:1:1")).toBe(generated);
  expect(areaOf("JS:*cTool file:///p/node_modules/mcpgen/dist/generated/2025-11-25/index.js:1:1")).toBe(generated);
  expect(areaOf("JS:*up file:///p/node_modules/mcpgen/dist/chunks/shims-2025-11-25-CzyGCqRF.js:1:1")).toBe(generated);
  // A revision's or extension's checks and tables, in a chunk of their own (packages/bundle.mjs).
  expect(areaOf("JS:*cTool file:///p/node_modules/mcpgen/dist/chunks/2025-11-25-9RQVTuqG.js:1:1")).toBe(generated);
  expect(areaOf("JS:*cTask file:///p/node_modules/mcpgen/dist/chunks/ext-tasks-BAMbIcEc.js:1:1")).toBe(generated);
  expect(areaOf("JS:^withWire file:///p/node_modules/mcpgen/dist/chunks/runtime-Ab12Cd34.js:1:1")).toBe(
    "mcpgen runtime",
  );
  const bench = "the bench's own code (driver, handlers, loop)";
  expect(areaOf("JS:*receive file:///w/dist/bench/validate-rows/mcpgen.js:17:18")).toBe(bench);
  expect(areaOf("JS:*callLine file:///tmp/mcpgen-bench-installed-Ab12/in-process.js:32:18")).toBe(bench);
  expect(areaOf("JS:*normalizeString node:path:94:25")).toBe("Node's JavaScript (streams, buffers)");
  expect(areaOf("JS:*somewhere file:///elsewhere/x.js:1:1")).toBe("other JavaScript, stubs and unnamed code");
  expect(areaOf(UNNAMED_JIT)).toBe("other JavaScript, stubs and unnamed code");
  expect(areaOf("__memcpy_avx_unaligned_erms")).toBe("libc, Node and other native code");
});

test("difference and byArea: the longer run's costs beyond the shorter one's, per unit, summed by area", () => {
  const base = parseCallgrind(output, perfMap);
  // The longer run: the same code, the parser and cTool twice as often; cTool compiled at another
  // address and source position, so only its name without the position matches.
  const longer = output
    .replace("0x1000 0 10 1", "0x1000 0 26 2")
    .replace("0x2000 0 7 2", "0x3000 0 17 5")
    .replace("fn=(2) 0x0000000000002000", "fn=(2) 0x0000000000003000");
  const perfMapLater = parsePerfMap("3000 20 JS:*cTool file:///x/dist/generated/2026-07-28/checks.js:11:3\n");
  const perUnit = difference(base, parseCallgrind(longer, perfMapLater), 2);
  expect(perUnit.byFunction.get("v8::internal::JsonParser<unsigned char>::ParseJsonValue()")).toEqual([8, 0.5]);
  expect(perUnit.byFunction.get("JS:*cTool file:///x/dist/generated/2026-07-28/checks.js")).toEqual([5, 1.5]);
  const areas = byArea(perUnit, ["Ir", "I1mr"]);
  expect(areas.get("JSON.parse: V8's JSON parser")).toEqual([8, 0.5]);
  expect(areas.get("generated checks, validators and shims")).toEqual([5, 1.5]);
  expect(areas.get("mcpgen runtime")).toEqual([0, 0]);
  expect(areas.get("total")).toEqual([13, 2]);
  expect(() => byArea(perUnit, ["D1mr"])).toThrow(/no D1mr event/);
});
