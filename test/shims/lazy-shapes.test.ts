// A revision's shapes (every type as data, ~300 KB of objects) are built on a
// walk's first read: a conversion that one of the step's generated shortcuts
// covers (generator/shims/shortcuts.ts) reads only the target's checks. A
// legacy session's usual traffic (a call's params up, its result down) so
// never builds them.
import { expect, test } from "vitest";
import { loadShimShapes, loadShimStep } from "../../generated/index.js";
import { shimRules } from "../../runtime/shim-rules.js";
import { convertParams, convertResult, type RevisionShapes, type ShimTables } from "../../runtime/shims.js";

/** Which of a revision's shapes have been built (a built one is a plain data property, no longer a getter). */
const built = (shapes: RevisionShapes) =>
  (["types", "params", "results"] as const).filter((key) => !Object.getOwnPropertyDescriptor(shapes, key)!.get);

test("a 2025-11-25 session's tools/call goes up and down by the step's shortcuts without building either revision's shapes; a walk builds them", async () => {
  const [older, newer] = await Promise.all([loadShimShapes["2025-11-25"](), loadShimShapes["2026-07-28"]()]);
  const tables: ShimTables = {
    revisions: [older, newer],
    steps: [await loadShimStep["2025-11-25--2026-07-28"]!()],
    rules: shimRules,
  };
  const up = { from: "2025-11-25", to: "2026-07-28" };
  const down = { from: "2026-07-28", to: "2025-11-25" };
  // As the server hands them over: a handshake session's params carry the revision and capabilities in _meta.
  const params = {
    name: "echo",
    arguments: { text: "hi" },
    task: { ttl: 1000 },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2025-11-25",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  };
  const upgraded = convertParams(tables, "tools/call", params, up);
  expect(upgraded.checked).toBe(newer.checks["CallToolRequestParams"]);
  // The one field 2026-07-28 lacks is dropped, and reported, by the shortcut too.
  expect(upgraded.message).toEqual({ name: "echo", arguments: { text: "hi" }, _meta: params._meta });
  expect(upgraded.changes).toEqual([
    { path: "/params/task", change: "dropped", detail: "TaskAugmentedRequestParams.task does not exist in 2026-07-28" },
  ]);
  const result = { resultType: "complete", content: [{ type: "text", text: "hi" }], structuredContent: { n: 1 } };
  const downgraded = convertResult(tables, "tools/call", result, down);
  expect(downgraded.checked).toBe(older.checks["CallToolResult"]);
  const { resultType: _dropped, ...withoutResultType } = result;
  expect(downgraded.message).toEqual(withoutResultType);
  expect([built(older), built(newer)]).toEqual([[], []]);

  // structuredContent that is not an object has no place in 2025-11-25: the hook changes the value, so the walk runs.
  const walked = convertResult(tables, "tools/call", { ...result, structuredContent: [1, 2] }, down);
  expect(walked.checked).toBeUndefined();
  expect(walked.message).toMatchObject({
    content: [
      { type: "text", text: "hi" },
      { type: "text", text: "[1,2]" },
    ],
  });
  expect(built(older)).toContain("types");
  expect(built(newer)).toEqual(["types", "results"]);
});
