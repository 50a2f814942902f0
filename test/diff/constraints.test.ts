// What a validator accepts is part of the diff: the pinned draft with
// constraints added the way upstream's "security constraints" change adds them
// (@maxLength on a tool's name, @maxItems, @minimum, @pattern) diffs to exactly
// those constraints, and the generated validator's verdict changes with them;
// the same schema reformatted, its docs and comments reworded and a
// declaration moved, diffs to nothing.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { format } from "prettier";
import { beforeAll, describe, expect, test } from "vitest";
import { diffRevisions, type DiffEntry } from "../../generator/diff/diff.js";
import { formatText } from "../../generator/diff/format.js";
import { run } from "../../generator/emit/run.js";
import { surfaceOf } from "../../generator/emit/surface.js";
import { buildModel } from "../../generator/generate.js";
import type { RevisionModel } from "../../generator/model/types.js";
import type { ValidationResult } from "../../runtime/validation.js";
import { importGenerated, pinnedSource, snippetSource, tempDir } from "../helpers.js";

/** `text` with `find` replaced once; fails when `find` is not there, so a changed upstream file cannot make the test vacuous. */
function edit(text: string, find: string, replace: string): string {
  const at = text.indexOf(find);
  if (at < 0 || text.indexOf(find, at + 1) >= 0) throw new Error(`expected exactly one ${JSON.stringify(find)}`);
  return text.slice(0, at) + replace + text.slice(at + find.length);
}

const pattern = "^[A-Za-z0-9_.-]+$";

/** The pinned draft with constraints added, changed and removed. */
function constrained(text: string): string {
  let s = edit(
    text,
    "export interface Tool extends BaseMetadata, Icons {\n",
    `export interface Tool extends BaseMetadata, Icons {\n  /**\n   * @maxLength 128\n   * @pattern ${pattern}\n   */\n  name: string;\n\n`,
  );
  s = edit(s, "  tools: Tool[];\n", "  /**\n   * @maxItems 1000\n   */\n  tools: Tool[];\n");
  s = edit(s, "     * @maxItems 100\n", "     * @maxItems 50\n");
  s = edit(s, "   * @maximum 1\n   */\n  costPriority?: number;", "   */\n  costPriority?: number;");
  const sampleFewer = "   * The client MAY choose to sample fewer tokens than the requested maximum.\n";
  s = edit(s, sampleFewer, `${sampleFewer}   *\n   * @minimum 1\n`);
  s = edit(
    s,
    " * @category Common Types\n */\nexport type Cursor = string;",
    " * @category Common Types\n * @maxLength 1024\n */\nexport type Cursor = string;",
  );
  return s;
}

const entriesOf = (a: RevisionModel, b: RevisionModel) =>
  diffRevisions(a, b).entries.map(({ id: _id, location: _location, ...rest }) => rest);

describe("constraints added to the pinned draft", () => {
  let pinned: RevisionModel;
  let changed: RevisionModel;
  beforeAll(() => {
    pinned = buildModel(pinnedSource("draft"));
    changed = buildModel(snippetSource(constrained(pinnedSource("draft").text), { revision: "draft" }));
  });

  test("every constraint added, changed or removed is an entry, and nothing else is", () => {
    const added = (subject: string, to: string): Omit<DiffEntry, "id"> => ({
      area: "fields",
      change: "added",
      subject,
      aspect: "constraint",
      to,
    });
    expect(entriesOf(pinned, changed)).toEqual<Omit<DiffEntry, "id">[]>([
      {
        area: "fields",
        change: "changed",
        subject: "CompleteResult.completion.values",
        aspect: "constraint",
        from: "@maxItems 100",
        to: "@maxItems 50",
      },
      added("CreateMessageRequestParams.maxTokens", "@minimum 1"),
      added("ListToolsResult.tools", "@maxItems 1000"),
      {
        area: "fields",
        change: "removed",
        subject: "ModelPreferences.costPriority",
        aspect: "constraint",
        from: "@maximum 1",
      },
      added("Tool.name", "@maxLength 128"),
      added("Tool.name", `@pattern ${pattern}`),
      { area: "types", change: "added", subject: "Cursor", aspect: "constraint", to: "@maxLength 1024" },
    ]);
  });

  test("the way back mirrors them, and the text form names each", () => {
    const back = entriesOf(changed, pinned);
    expect(back.map((e) => e.change).sort()).toEqual([
      "added",
      "changed",
      "removed",
      "removed",
      "removed",
      "removed",
      "removed",
    ]);
    const text = formatText(diffRevisions(pinned, changed), { color: false });
    expect(text).toContain("+ Tool.name: constraint @maxLength 128 added");
    expect(text).toContain("~ CompleteResult.completion.values constraint: @maxItems 100 → @maxItems 50");
    expect(text).toContain("- ModelPreferences.costPriority: constraint @maximum 1 removed");
  });

  test("spec/surface lists the constraints where they are declared", () => {
    const surface = JSON.parse(surfaceOf(changed)).constraints as Record<string, string[]>;
    const before = JSON.parse(surfaceOf(pinned)).constraints as Record<string, string[]>;
    expect(surface["Tool.name"]).toEqual(["@maxLength 128", `@pattern ${pattern}`]);
    expect(before["Tool.name"]).toBeUndefined();
    expect(surface["Cursor"]).toEqual(["@maxLength 1024"]);
    expect(before["CompleteResult.completion.values"]).toEqual(["@maxItems 100"]);
    expect(surface["CompleteResult.completion.values"]).toEqual(["@maxItems 50"]);
    expect(before["ModelPreferences.costPriority"]).toEqual(["@minimum 0", "@maximum 1"]);
    expect(surface["ModelPreferences.costPriority"]).toEqual(["@minimum 0"]);
  });

  test("a 300-character tool name: valid under the pinned draft, invalid under the constrained one", async () => {
    type Tables = { validate(type: string, value: unknown): ValidationResult };
    const before = await importGenerated<Tables>("draft", "tables");
    const dir = tempDir();
    for (const file of (await run([changed])).files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    const after = (await import(/* @vite-ignore */ join(dir, "draft", "tables.ts"))) as Tables;
    const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
    const long = tool("t".repeat(300));
    expect(before.validate("Tool", long)).toEqual({ valid: true });
    expect(after.validate("Tool", long)).toMatchObject({
      valid: false,
      errors: [{ path: "/name", keyword: "maxLength" }],
    });
    expect(after.validate("Tool", tool("t".repeat(128)))).toEqual({ valid: true });
    expect(after.validate("Tool", tool("two words"))).toMatchObject({
      valid: false,
      errors: [{ path: "/name", keyword: "pattern" }],
    });
  });
});

describe("the pinned draft reformatted", () => {
  test("another print width, reworded docs, no line comments, a declaration moved: no differences", async () => {
    const original = pinnedSource("draft").text;
    const cursor =
      "/**\n * An opaque token used to represent a cursor for pagination.\n *\n * @category Common Types\n */\nexport type Cursor = string;\n";
    let text = `${edit(original, cursor, "")}\n${cursor}`;
    text = text.replace(/^[ \t]*\/\/.*\n/gm, "");
    text = text.replace(/^([ \t]*)\/\*\*\n/gm, "$1/**\n$1 * Reworded for this test.\n$1 *\n");
    text = await format(text, { parser: "typescript", printWidth: 60, singleQuote: true, trailingComma: "none" });
    expect(text.split("\n").length).toBeGreaterThan(original.split("\n").length);
    const pinned = buildModel(pinnedSource("draft"));
    const reformatted = buildModel(snippetSource(text, { revision: "draft" }));
    expect(entriesOf(pinned, reformatted)).toEqual([]);
    const surface = (m: RevisionModel) => ({ ...JSON.parse(surfaceOf(m)), schemaSha256: undefined });
    expect(surface(reformatted)).toEqual(surface(pinned));
  });
});
