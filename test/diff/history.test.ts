// The diff on upstream's own history of schema/draft/schema.ts (SOURCE.md in
// the history folder): consecutive states whose upstream change is read from
// the two files (`diff a.ts b.ts`) diff to exactly that change, and every pair
// whose code and annotations are the same (whitespace, docs and comments
// aside) diffs to nothing.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { diffRevisions, type DiffEntry } from "../../generator/diff/diff.js";
import { buildModel } from "../../generator/generate.js";
import { SchemaError } from "../../generator/diagnostics.js";
import { sha256 } from "../../generator/lock/lock.js";
import type { RevisionModel } from "../../generator/model/types.js";
import { projectRoot } from "../helpers.js";

const historyDir = resolve(
  projectRoot,
  process.env["MCP_SPEC_DIR"] ?? "../shared/mcp-spec/schema",
  "..",
  "history",
  "draft",
);
const states = readdirSync(historyDir)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -".ts".length))
  .sort();
const text = (state: string) => readFileSync(join(historyDir, `${state}.ts`), "utf8");

const models = new Map<string, RevisionModel>();

/**
 * A state as a model. Every state is upstream's schema/draft/schema.ts, so both
 * sides of a pair are named "draft": only the schema differs between them.
 */
function model(state: string): RevisionModel {
  const source = text(state);
  const built =
    models.get(state) ??
    buildModel({
      revision: "draft",
      file: `history/draft/${state}.ts`,
      text: source,
      sha256: sha256(source),
      locked: false,
    });
  models.set(state, built);
  return built;
}

/** Why a state does not generate (whether each does is the history walk's to assert), or undefined when it does. */
function refusal(state: string): string | undefined {
  try {
    model(state);
    return undefined;
  } catch (error) {
    if (error instanceof SchemaError) return error.message.split("\n")[0];
    throw error;
  }
}

const entries = (from: string, to: string) =>
  diffRevisions(model(from), model(to)).entries.map(({ id: _id, location: _location, ...rest }) => rest);

/** The state before `state` in the history. */
const previous = (state: string) => states[states.indexOf(state) - 1]!;

describe("consecutive states of upstream's draft", () => {
  test("the history is there: 95 states", () => {
    expect(states.length).toBe(95);
  });

  test.each<[string, string, Omit<DiffEntry, "id">[]]>([
    ["2025-03-24-880673ae", "a blank line added", []],
    ["2026-01-15-bda81d84", "a typo fixed in a doc comment", []],
    [
      "2026-03-09-3b875c53",
      "@maxItems 100 on a completion's values",
      [
        {
          area: "fields",
          change: "added",
          subject: "CompleteResult.completion.values",
          aspect: "constraint",
          to: "@maxItems 100",
        },
      ],
    ],
    ["2026-03-25-05111eb2", "@nullable on Task.ttl, whose type is already number | null", []],
    ["2026-05-29-9d700ed6", "@TJS-type number on three number fields", []],
    [
      "2025-12-02-35fa160c",
      "a new draft protocol version",
      [
        {
          area: "constants",
          change: "changed",
          subject: "LATEST_PROTOCOL_VERSION",
          aspect: "value",
          from: '"DRAFT-2025-v3"',
          to: '"DRAFT-2026-v1"',
        },
        {
          area: "envelope",
          change: "changed",
          subject: "JSON-RPC",
          aspect: "protocolVersion",
          from: "DRAFT-2025-v3",
          to: "DRAFT-2026-v1",
        },
      ],
    ],
    [
      "2026-05-28-d6323899",
      "ResultType opened to any string",
      [{ area: "types", change: "added", subject: "ResultType", aspect: "member", to: "string" }],
    ],
    [
      "2026-06-04-241568e9",
      "DiscoverResult extends CacheableResult instead of Result",
      [
        {
          area: "fields",
          change: "added",
          subject: "DiscoverResult.cacheScope",
          aspect: "required",
          to: '"public" | "private"',
        },
        {
          area: "fields",
          change: "added",
          subject: "DiscoverResult.ttlMs",
          aspect: "required",
          to: "number (@minimum 0)",
        },
        {
          area: "types",
          change: "changed",
          subject: "DiscoverResult",
          aspect: "extends",
          from: "Result",
          to: "CacheableResult",
        },
      ],
    ],
  ])("%s (%s) names exactly its upstream change", (state, _what, expected) => {
    const before = previous(state);
    expect(text(before), `${before} → ${state} differ`).not.toBe(text(state));
    expect(entries(before, state)).toEqual(expected);
  });
});

/** The code of a schema without whitespace and comments, and the validation annotations its comments hold. */
function code(source: string): { tokens: string[]; annotations: string[] } {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, /* skipTrivia */ true, ts.LanguageVariant.Standard, source);
  const tokens: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan())
    tokens.push(scanner.getTokenText());
  const tag =
    /@(TJS-type|nullable|format|minimum|maximum|exclusiveMinimum|exclusiveMaximum|minLength|maxLength|minItems|maxItems|pattern)\b.*/g;
  return { tokens, annotations: [...source.matchAll(tag)].map((m) => m[0].trim()) };
}

describe("pairs that differ only in whitespace, docs and comments", () => {
  const pairs = states
    .slice(1)
    .map((state) => [previous(state), state] as const)
    .filter(([a, b]) => {
      const [ca, cb] = [code(text(a)), code(text(b))];
      return JSON.stringify(ca) === JSON.stringify(cb);
    });

  test("there are some: upstream commits that touch only docs or layout", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(2);
  });

  test.for(pairs)("%s → %s diffs empty", ([a, b], { skip }) => {
    const refused = refusal(a) ?? refusal(b);
    if (refused !== undefined) skip(`does not generate yet: ${refused}`);
    expect(entries(a, b)).toEqual([]);
  });
});
