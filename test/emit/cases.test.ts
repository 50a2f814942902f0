// Integration cases as folders (after ts-proto): test/cases/<name>/ holds a
// schema.ts, optionally an overlay.json, and expected/ with every file the
// generator writes for it (expected/surface/ for the surface summary). The
// expected files are type-checked too. MCPGEN_UPDATE_GOLDENS=1 rewrites them
// after a deliberate change; review the diff before committing it.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { generate } from "../../generator/generate.js";
import type { MethodOverlay } from "../../generator/model/overlay.js";
import { projectRoot, snippetSource, typeCheck } from "../helpers.js";

const casesDir = join(projectRoot, "test", "cases");
const update = process.env["MCPGEN_UPDATE_GOLDENS"] === "1";

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe.each(readdirSync(casesDir))("case %s", (name) => {
  const dir = join(casesDir, name);
  const expectedDir = join(dir, "expected");
  const overlayFile = join(dir, "overlay.json");
  const overlay: MethodOverlay = existsSync(overlayFile)
    ? (JSON.parse(readFileSync(overlayFile, "utf8")) as MethodOverlay)
    : { results: [], capabilities: [], revisions: [] };

  test("generates exactly the expected files, without warnings", async () => {
    const text = readFileSync(join(dir, "schema.ts"), "utf8");
    const output = await generate([{ ...snippetSource(text, { revision: name }), file: "schema.ts" }], {
      methods: overlay,
    });
    expect(output.warnings).toEqual([]);
    const actual = new Map([
      ...output.files.map((f) => [f.path, f.content] as const),
      ...output.surfaces.map((f) => [`surface/${f.path}`, f.content] as const),
    ]);
    if (update) {
      rmSync(expectedDir, { recursive: true, force: true });
      for (const [path, content] of actual) {
        mkdirSync(dirname(join(expectedDir, path)), { recursive: true });
        writeFileSync(join(expectedDir, path), content);
      }
    }
    expect([...actual.keys()].sort()).toEqual(filesUnder(expectedDir));
    for (const [path, content] of actual) expect(content, path).toBe(readFileSync(join(expectedDir, path), "utf8"));
  });

  test("its expected TypeScript type-checks with tsc --strict", () => {
    const roots = filesUnder(expectedDir)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => join(expectedDir, f));
    expect(roots.length).toBeGreaterThan(0);
    expect(typeCheck(roots)).toEqual([]);
  });
});
