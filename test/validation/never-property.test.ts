// A property typed `never` (required or optional) means the property must be
// absent: no JSON value has type never, and typescript-json-schema, which
// upstream derives schema.json with, leaves such a property out. The generated
// types keep what the schema says; the check rejects the property's presence,
// and the generated code passes tsc --strict.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { generate, type Generation } from "../../generator/generate.js";
import type { MethodOverlay } from "../../generator/model/overlay.js";
import { projectRoot, snippetSource, tempDir, typeCheck } from "../helpers.js";
import { historyFolder, historyStates, stateSource } from "../history/states.js";
import type { Validate } from "./agreement.js";

/** Writes a generation into a fresh folder; the paths of its files. */
function written(generation: Generation): { dir: string; paths: string[] } {
  const dir = tempDir();
  const paths = generation.files.map((file) => {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
    return path;
  });
  return { dir, paths };
}

describe("a property typed never", () => {
  const minimal = readFileSync(join(projectRoot, "test", "cases", "minimal-revision", "schema.ts"), "utf8");
  const schema = `${minimal}
export interface Unstructured {
  content: string[];
  structuredContent: never;
  extra?: never;
}
`;
  let generation: Generation;
  let dir = "";
  let paths: string[] = [];

  beforeAll(async () => {
    const overlay = readFileSync(join(projectRoot, "test", "cases", "minimal-revision", "overlay.json"), "utf8");
    generation = await generate([snippetSource(schema)], { methods: JSON.parse(overlay) as MethodOverlay });
    expect(generation.warnings).toEqual([]);
    ({ dir, paths } = written(generation));
  });

  test("keeps its type in types.ts, and the generated code passes tsc --strict", () => {
    const types = generation.files.find((f) => f.path === "test/types.ts")!.content;
    expect(types).toMatch(/structuredContent: never;/);
    expect(types).toMatch(/extra\?: never;/);
    expect(typeCheck(paths)).toEqual([]);
  });

  test("is valid absent and invalid present, required or optional", async () => {
    const { validate } = (await import(join(dir, "test", "tables.ts"))) as { validate: Validate };
    expect(validate("Unstructured", { content: ["hi"] })).toEqual({ valid: true });
    for (const property of ["structuredContent", "extra"])
      for (const value of [null, 0, "x", {}, []])
        expect(validate("Unstructured", { content: ["hi"], [property]: value })).toEqual({
          valid: false,
          errors: [{ path: `/${property}`, keyword: "not", message: "must not be present" }],
        });
    // The rest of the type is still checked.
    expect(validate("Unstructured", {}).valid).toBe(false);
  });
});

describe("upstream's draft of 2025-05-08 (CallToolResult = unstructured | structured)", () => {
  const folder = historyFolder();
  const state = folder ? historyStates(folder).find((s) => s.id === "2025-05-08-03dc24b3") : undefined;

  test.runIf(state)(
    "a result with content alone is a valid CallToolResult, as ajv on its schema.json says",
    async () => {
      const generation = await generate([stateSource(state!, state!.date)]);
      const { dir, paths } = written(generation);
      expect(typeCheck(paths)).toEqual([]);
      const { validate } = (await import(join(dir, state!.date, "tables.ts"))) as { validate: Validate };
      expect(validate("CallToolResult", { content: [{ type: "text", text: "hi" }] })).toEqual({ valid: true });
      expect(validate("CallToolResult", { structuredContent: { n: 1 } })).toEqual({ valid: true });
      // Unstructured with structuredContent present is no member: the structured one needs an object there.
      expect(validate("CallToolResult", { content: [], structuredContent: "x" }).valid).toBe(false);
    },
  );
});
