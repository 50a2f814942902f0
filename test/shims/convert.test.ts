// The generated shims on what the issue names: every upstream example
// converted to every other revision, the overlay's semantic rules, refusals,
// and the completeness check that makes generation fail when an entry of the
// diff is left uncovered. (Every valid corpus message: corpus-a/b.test.ts.)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { Converted } from "../../runtime/shims.js";
import { ShimError } from "../../runtime/shims.js";
import { SchemaError } from "../../generator/diagnostics.js";
import { generate } from "../../generator/generate.js";
import { shimOverlay } from "../../generator/overlay/shims.js";
import { planStep } from "../../generator/shims/plan.js";
import { diffRevisions } from "../../generator/diff/diff.js";
import { pinnedRevisions, pinnedSource, projectRoot } from "../helpers.js";
import { asMessage, load, type Loaded } from "./support.js";

let loaded: Loaded;
beforeAll(async () => {
  loaded = await load();
});

describe("upstream examples", () => {
  test.each(["2026-07-28", "draft"])(
    "every example message of %s converts to every other revision and validates there, or is refused",
    (from) => {
      const model = loaded.models.get(from)!;
      const dir = join(projectRoot, "spec", from, "examples");
      let messages = 0;
      for (const type of readdirSync(dir)) {
        for (const name of readdirSync(join(dir, type))) {
          const value = JSON.parse(readFileSync(join(dir, type, name), "utf8"));
          const sample = asMessage(model, type, value, `${type}/${name}`);
          if (!sample) continue;
          messages++;
          for (const to of pinnedRevisions.filter((r) => r !== from)) {
            let result: Converted;
            try {
              result = loaded.shims.convert(sample.message, {
                from,
                to,
                ...(sample.method ? { method: sample.method } : {}),
              });
            } catch (error) {
              expect(error, `${type}/${name} → ${to}`).toBeInstanceOf(ShimError);
              continue;
            }
            expect(loaded.validators.get(to)!(result.message, sample.method).result, `${type}/${name} → ${to}`).toEqual(
              { valid: true },
            );
          }
        }
      }
      expect(messages).toBeGreaterThan(30);
    },
  );
});

describe("what the overlay says", () => {
  const convert = (message: unknown, from: string, to: string, method?: string) =>
    loaded.shims.convert(message, { from, to, ...(method ? { method } : {}) });

  test("audio content becomes a text block for 2024-11-05 peers", () => {
    const result = convert(
      {
        jsonrpc: "2.0",
        id: 1,
        result: {
          content: [
            { type: "text", text: "hi" },
            { type: "audio", data: "AAAA", mimeType: "audio/wav" },
          ],
        },
      },
      "2025-06-18",
      "2024-11-05",
      "tools/call",
    );
    expect(result.message).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [
          { type: "text", text: "hi" },
          { type: "text", text: "[audio content omitted: audio/wav, 3 bytes]" },
        ],
      },
    });
    expect(result.changes).toEqual([
      {
        path: "/result/content/1",
        change: "mapped",
        detail: "audio content is a text block in 2024-11-05: [audio content omitted: audio/wav, 3 bytes]",
      },
    ]);
  });

  test("a resource link becomes a text block before 2025-06-18", () => {
    const link = { type: "resource_link", uri: "file:///a.txt", name: "a.txt", description: "notes" };
    const result = convert(
      { jsonrpc: "2.0", id: 1, result: { content: [link] } },
      "2025-06-18",
      "2025-03-26",
      "tools/call",
    );
    expect(result.message).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "[resource link: a.txt <file:///a.txt> (notes)]" }] },
    });
  });

  test("structured content without a text block is serialized into one for older peers; not twice", () => {
    const without = convert(
      { jsonrpc: "2.0", id: 1, result: { content: [], structuredContent: { t: 21 } } },
      "2025-06-18",
      "2025-03-26",
      "tools/call",
    );
    expect(without.message).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: '{"t":21}' }] },
    });
    expect(without.changes.map((c) => `${c.change} ${c.path}`)).toEqual([
      "mapped /result/structuredContent",
      "mapped /result/content/0",
    ]);
    const withText = convert(
      {
        jsonrpc: "2.0",
        id: 1,
        result: { content: [{ type: "text", text: '{"t":21}' }], structuredContent: { t: 21 } },
      },
      "2025-06-18",
      "2025-03-26",
      "tools/call",
    );
    expect(withText.message).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: '{"t":21}' }] },
    });
    expect(withText.changes.map((c) => c.change)).toEqual(["dropped"]);
  });

  test("2026-07-28 structured content that is not an object becomes a text block for 2025-11-25 peers", () => {
    const result = convert(
      { jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [], structuredContent: [1, 2] } },
      "2026-07-28",
      "2025-11-25",
      "tools/call",
    );
    expect((result.message as { result: unknown }).result).toEqual({ content: [{ type: "text", text: "[1,2]" }] });
  });

  test("title and icons are dropped for older peers", () => {
    const tool = {
      name: "t",
      title: "T",
      icons: [{ src: "https://example.com/i.png" }],
      inputSchema: { type: "object" },
    };
    const result = convert(
      { jsonrpc: "2.0", id: 1, result: { tools: [tool] } },
      "2025-11-25",
      "2025-03-26",
      "tools/list",
    );
    expect(result.message).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { tools: [{ name: "t", inputSchema: { type: "object" } }] },
    });
    expect(result.changes.map((c) => `${c.change} ${c.path}`).sort()).toEqual([
      "dropped /result/tools/0/icons",
      "dropped /result/tools/0/title",
    ]);
  });

  test('results upgraded to 2026-07-28 get resultType "complete" and the cache fields', () => {
    const result = convert({ jsonrpc: "2.0", id: 1, result: { tools: [] } }, "2025-11-25", "2026-07-28", "tools/list");
    expect((result.message as { result: unknown }).result).toEqual({
      tools: [],
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
    });
    expect(result.changes.map((c) => `${c.change} ${c.path}`)).toEqual([
      "defaulted /result/resultType",
      "defaulted /result/ttlMs",
      "defaulted /result/cacheScope",
    ]);
  });

  test("a tool's schemas keep every keyword on the way up to 2026-07-28, whose schema objects are open; and back down", () => {
    // 2025-11-25 declares inputSchema/outputSchema as { type; properties?; required? }, 2026-07-28 as
    // { $schema?; [key: string]: unknown }: type, properties and required are no longer declared, but fit.
    const inputSchema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    const outputSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    const tool = { name: "t", inputSchema, outputSchema };
    const up = convert({ jsonrpc: "2.0", id: 1, result: { tools: [tool] } }, "2025-11-25", "2026-07-28", "tools/list");
    expect((up.message as { result: { tools: unknown[] } }).result.tools).toEqual([tool]);
    expect(up.changes.filter((c) => c.change === "dropped")).toEqual([]);
    const down = convert(up.message, "2026-07-28", "2025-11-25", "tools/list");
    // Going down, the newer revision's own result fields are dropped as before; the tool is whole.
    expect((down.message as { result: unknown }).result).toEqual({ tools: [tool] });
  });

  test("a roots/list request keeps _meta.progressToken on the way up to 2026-07-28, where _meta is open", () => {
    // 2025-11-25's ListRootsRequest declares params._meta.progressToken (owned by RequestParams._meta);
    // 2026-07-28 no longer declares it there, but its _meta takes any key: the plan keeps it.
    // In 2026-07-28 roots/list travels inside InputRequiredResult: its params convert on their own.
    const params = { _meta: { progressToken: "p" } };
    const up = loaded.shims.convertParams("roots/list", params, { from: "2025-11-25", to: "2026-07-28" });
    expect(up.message).toEqual(params);
    expect(up.changes.filter((c) => c.change === "dropped")).toEqual([]);
  });

  test("requests upgraded to 2026-07-28 state the protocol version and capabilities in _meta", () => {
    const result = convert(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x", _meta: { progressToken: "p" } } },
      "2025-06-18",
      "2026-07-28",
    );
    expect(result.message).toEqual({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name: "x",
        _meta: {
          progressToken: "p",
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    });
  });

  test("resource not found: -32002 becomes -32602 on the way to 2026-07-28", () => {
    const result = convert(
      { jsonrpc: "2.0", id: 4, error: { code: -32002, message: "Resource not found" } },
      "2025-06-18",
      "2026-07-28",
      "resources/read",
    );
    expect(result.message).toEqual({ jsonrpc: "2.0", id: 4, error: { code: -32602, message: "Resource not found" } });
    expect(result.changes).toEqual([
      { path: "/error/code", change: "mapped", detail: "resources/read error -32002 is -32602 in 2026-07-28" },
    ]);
  });

  test("what a revision cannot express is refused with a typed error saying so", () => {
    const discover = {
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    };
    expect(() => convert(discover, "2026-07-28", "2024-11-05")).toThrow(
      new ShimError("server/discover does not exist in 2025-11-25", "2026-07-28", "2024-11-05", "/method"),
    );
    expect(() =>
      convert({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }, "2025-11-25", "2026-07-28"),
    ).toThrow(/initialize does not exist in 2026-07-28/);
    const multiSelect = { jsonrpc: "2.0", id: 1, result: { action: "accept", content: { colours: ["red", "blue"] } } };
    expect(() => convert(multiSelect, "2025-11-25", "2025-06-18", "elicitation/create")).toThrow(
      "cannot convert from 2025-11-25 to 2025-06-18 at /result/content/colours: a multi-select answer (string[]) is new in 2025-11-25",
    );
    expect(() =>
      convert({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} }, "2025-11-25", "2026-07-28"),
    ).toThrow(/names no request to cancel/);
  });

  test("params and results convert on their own, e.g. sampling carried inside InputRequiredResult in 2026-07-28", async () => {
    const index = await import(/* @vite-ignore */ join(projectRoot, "generated", "shims", "index.ts"));
    const result = { role: "assistant", content: { type: "text", text: "hi" }, model: "m", stopReason: "endTurn" };
    // A response message has no standalone form there...
    expect(() =>
      convert({ jsonrpc: "2.0", id: 1, result }, "2025-11-25", "2026-07-28", "sampling/createMessage"),
    ).toThrow(/sampling\/createMessage results travel only inside the retried request's inputResponses in 2026-07-28/);
    // ...but the result itself converts, for inputResponses.
    expect(index.convertResult("sampling/createMessage", result, { from: "2025-11-25", to: "2026-07-28" })).toEqual({
      message: result,
      changes: [],
    });
    const params = index.convertParams("tools/call", { name: "x" }, { from: "2025-06-18", to: "2026-07-28" });
    expect(params.message).toEqual({
      name: "x",
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    });
    expect(params.changes.map((c: { path: string }) => c.path)).toEqual(["/params/_meta"]);
  });

  test("a revision converts to itself unchanged", () => {
    const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", extra: { kept: true } } };
    expect(convert(message, "2025-06-18", "2025-06-18")).toEqual({ message, changes: [] });
  });
});

describe("completeness", () => {
  test("every overlay entry is consulted by some pinned step", () => {
    const used = new Set<string>();
    for (let i = 1; i < pinnedRevisions.length; i++) {
      const [a, b] = [loaded.models.get(pinnedRevisions[i - 1]!)!, loaded.models.get(pinnedRevisions[i]!)!];
      planStep(a, b, diffRevisions(a, b), shimOverlay).used.forEach((u) => used.add(u));
    }
    const declared = [
      ...shimOverlay.defaults.map((d) => `defaults:${d.field}`),
      ...shimOverlay.members.map((m) => `members:${m.member}`),
      ...shimOverlay.narrowing.map((n) => `narrowing:${n.field}`),
      ...shimOverlay.hooks.map((h) => `hooks:${h.type}:${h.rule}`),
      ...shimOverlay.errorCodes.map((e) => `errorCodes:${e.method}:${e.code}`),
    ];
    expect(declared.filter((d) => !used.has(d))).toEqual([]);
    for (const entry of [
      ...shimOverlay.defaults,
      ...shimOverlay.members,
      ...shimOverlay.narrowing,
      ...shimOverlay.hooks,
      ...shimOverlay.errorCodes,
    ]) {
      expect(entry.cite.trim()).not.toBe("");
    }
  });

  test("generation fails, naming the entry, when an overlay entry it needs is removed", async () => {
    const withoutAudio = { ...shimOverlay, members: shimOverlay.members.filter((m) => m.member !== "AudioContent") };
    const sources = ["2024-11-05", "2025-03-26"].map(pinnedSource);
    const failure = await generate(sources, { shims: withoutAudio }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SchemaError);
    expect((failure as SchemaError).diagnostics.map((d) => `${d.code}: ${d.message}`)).toContain(
      "E_SHIM_UNCOVERED: 2025-03-26 → 2024-11-05: fields:CallToolResult.content[]:member:added:AudioContent: AudioContent has no counterpart in 2024-11-05; add a member rule (or a refusal) to generator/overlay/shims.ts",
    );
    const withoutDefault = {
      ...shimOverlay,
      defaults: shimOverlay.defaults.filter((d) => d.field !== "Result.resultType"),
    };
    const failure2 = await generate(["2025-11-25", "2026-07-28"].map(pinnedSource), { shims: withoutDefault }).catch(
      (error: unknown) => error,
    );
    expect((failure2 as SchemaError).diagnostics.map((d) => d.message)).toContain(
      "2025-11-25 → 2026-07-28: fields:Result.resultType:required:added: Result.resultType is required in 2026-07-28; add a default (or a refusal) to generator/overlay/shims.ts",
    );
  });

  test("for a revision the lock does not pin, an uncovered entry is a warning, not an error", async () => {
    const withoutAudio = { ...shimOverlay, members: shimOverlay.members.filter((m) => m.member !== "AudioContent") };
    const next = { ...pinnedSource("2025-03-26"), revision: "2025-03-27", locked: false };
    const generation = await generate([pinnedSource("2024-11-05"), next], { shims: withoutAudio });
    expect(generation.warnings.map((w) => w.diagnostic.code)).toContain("E_SHIM_UNCOVERED");
  });
});

describe("the shortcut (one generated check instead of the walk)", () => {
  /** The 2025-11-25 ↔ 2026-07-28 step, with 2025-11-25's check of `type` counting its runs. */
  async function countingTables(type: string) {
    const generated = await import(join(projectRoot, "generated", "index.ts"));
    const { shimRules } = await import("../../runtime/shim-rules.js");
    const [older, newer] = await Promise.all([
      generated.loadShimShapes["2025-11-25"](),
      generated.loadShimShapes["2026-07-28"](),
    ]);
    const step = await generated.loadShimStep["2025-11-25--2026-07-28"]();
    const counter = { checked: 0 };
    const counted = {
      ...older,
      checks: {
        ...older.checks,
        [type]: (value: unknown, failure: unknown) => (counter.checked++, older.checks[type](value, failure)),
      },
    };
    return { older, counter, tables: { revisions: [counted, newer], steps: [step], rules: shimRules } };
  }

  test("a 2026-07-28 tools/call result goes to 2025-11-25, whose result is CallToolResult | CreateTaskResult, by one check of the shared member", async () => {
    const { convertResult } = await import("../../runtime/shims.js");
    const { older, counter, tables } = await countingTables("CallToolResult");
    expect(older.results["tools/call"].shape.kind).toBe("union"); // the overlay's alternative result
    const result = { resultType: "complete", content: [{ type: "text", text: "hi" }] };
    const converted = convertResult(tables, "tools/call", result, { from: "2026-07-28", to: "2025-11-25" });
    expect(converted.message).toEqual({ content: [{ type: "text", text: "hi" }] });
    expect(counter.checked).toBe(1);
    // Said in the answer, so that the server does not run the same check again before sending it.
    expect(converted.checked).toBe(tables.revisions[0]!.checks["CallToolResult"]);
  });

  test("a walked conversion names no check: its result is checked at the wire as before", async () => {
    const { convertResult } = await import("../../runtime/shims.js");
    const { tables } = await countingTables("CallToolResult");
    // structuredContent that is not an object has no place in 2025-11-25: the hook moves it, so the walk runs.
    const result = { resultType: "complete", content: [], structuredContent: [1, 2] };
    const converted = convertResult(tables, "tools/call", result, { from: "2026-07-28", to: "2025-11-25" });
    expect(converted.changes.map((c) => c.change)).toContain("mapped");
    expect(converted.checked).toBeUndefined();
  });

  test("a 2026-07-28 tools/call's params go to 2025-11-25 by one check: a hook under a field the target lacks (inputResponses) never runs", async () => {
    const { convertParams } = await import("../../runtime/shims.js");
    const { counter, tables } = await countingTables("CallToolRequestParams");
    const down = { from: "2026-07-28", to: "2025-11-25" };
    const params = { name: "search", arguments: { query: "x" }, _meta: { progressToken: 7 } };
    const plain = convertParams(tables, "tools/call", params, down);
    expect(plain.message).toBe(params); // nothing to change: the value itself
    expect(plain.changes).toEqual([]);
    expect(counter.checked).toBe(1);

    // With inputResponses (a sampling result holding a tool result, whose type has a hook): dropped, reported.
    const inputResponses = {
      s1: {
        role: "assistant",
        model: "m",
        content: [{ type: "tool_result", toolUseId: "t", content: [], structuredContent: [1, 2] }],
      },
    };
    const retried = convertParams(tables, "tools/call", { ...params, inputResponses, requestState: "abc" }, down);
    expect(retried.message).toEqual(params);
    expect(retried.changes.map((c) => `${c.change} ${c.path}`)).toEqual([
      "dropped /params/inputResponses",
      "dropped /params/requestState",
    ]);
  });
});
