// Whole-revision generation of every pinned revision: clean models, strict tsc,
// byte-identical output across runs, and type-level maps that mean what they say.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { generate, type Generation } from "../../generator/generate.js";
import { pinnedRevisions, pinnedSource, tempDir, typeCheck } from "../helpers.js";

let first: Generation;

beforeAll(async () => {
  first = await generate(pinnedRevisions.map(pinnedSource));
});

describe("every pinned revision", () => {
  test("is the six revisions of the issue, oldest first", () => {
    expect(pinnedRevisions).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"]);
    expect(first.models.map((m) => m.revision)).toEqual(pinnedRevisions);
  });

  test("models without a single warning", () => {
    expect(first.warnings).toEqual([]);
  });

  test("generates the same bytes twice", async () => {
    const second = await generate(pinnedRevisions.map(pinnedSource));
    expect(second.files.map((f) => f.path)).toEqual(first.files.map((f) => f.path));
    for (const [i, file] of second.files.entries()) expect(file.content, file.path).toBe(first.files[i]!.content);
    expect(second.surfaces).toEqual(first.surfaces);
  });

  test("generates the same bytes from the sources in another order", async () => {
    const reversed = await generate([...pinnedRevisions].reverse().map(pinnedSource));
    expect(reversed.files.map((f) => f.path).sort()).toEqual(first.files.map((f) => f.path).sort());
    const content = new Map(first.files.map((f) => [f.path, f.content]));
    for (const file of reversed.files) expect(file.content, file.path).toBe(content.get(file.path));
  });

  test("imports the runtime through its codegen contract alone (mcpgen/runtime/codegen)", () => {
    const runtimeImports = new Set<string>();
    for (const file of first.files)
      for (const [, from] of file.content.matchAll(/ from "(mcpgen\/[^"]*)"/g)) runtimeImports.add(from!);
    expect([...runtimeImports]).toEqual(["mcpgen/runtime/codegen"]);
  });

  test("has no timestamp in its headers and no absolute path anywhere", () => {
    for (const file of first.files) {
      const header = file.content
        .split("\n")
        .filter((line) => line.startsWith("//"))
        .join("\n");
      expect(header, file.path).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|\d{2}:\d{2}:\d{2}/);
      expect(file.content, file.path).not.toContain(process.cwd());
    }
  });

  test("type-checks with tsc --strict, together with code using ParamsOf/ResultOf of every method", () => {
    const dir = tempDir();
    for (const file of first.files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    // For each revision: every table entry's type names exist, and the
    // type-level maps line up with the table.
    const usages = first.models.map((model) => {
      const path = join(dir, `usage-${model.revision}.ts`);
      const lines = [
        `import * as R from "./${model.revision}/index.js";`,
        `type Assert<T extends true> = T;`,
        `type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;`,
        `const table: { readonly [M in R.Method]: unknown } = R.methods;`,
        `export const names: string[] = Object.keys(table);`,
      ];
      for (const m of model.methods) {
        const key = JSON.stringify(m.name);
        if (m.kind === "request") {
          lines.push(
            `export type _r${lines.length} = Assert<Equal<R.ParamsOf<${key}>, R.RequestMap[${key}]["request"]["params"]>>;`,
          );
          if (m.result) {
            // The table's result name is a real type, and a member of ResultOf<M>.
            lines.push(
              `export type _t${lines.length} = Assert<Equal<(typeof R.methods)[${key}]["result"], ${JSON.stringify(m.result.name)}>>;`,
            );
            lines.push(
              `export type _v${lines.length} = Assert<R.${m.result.name} extends R.ResultOf<${key}> ? true : false>;`,
            );
          }
        } else {
          lines.push(
            `export type _n${lines.length} = Assert<Equal<R.ParamsOf<${key}>, R.NotificationMap[${key}]["notification"]["params"]>>;`,
          );
        }
        if (m.params?.name) lines.push(`export type _p${lines.length} = R.${m.params.name};`);
      }
      writeFileSync(path, lines.join("\n") + "\n");
      return path;
    });
    const roots = [...first.files.map((f) => join(dir, f.path)), ...usages];
    expect(typeCheck(roots)).toEqual([]);
  });
});

describe("type-level maps", () => {
  test("ResultOf keeps the schema's union, e.g. InputRequiredResult for 2026-07-28 tools/call", () => {
    const methods = first.files.find((f) => f.path === "2026-07-28/methods.ts")!.content;
    expect(methods).toMatch(
      /"tools\/call": \{\s+request: CallToolRequest;\s+params: CallToolRequest\["params"\];\s+result: CallToolResult \| InputRequiredResult;? \}/,
    );
    const older = first.files.find((f) => f.path === "2025-06-18/methods.ts")!.content;
    expect(older).toMatch(
      /"tools\/call": \{\s+request: CallToolRequest;\s+params: CallToolRequest\["params"\];\s+result: CallToolResult;? \}/,
    );
  });

  test("every generated file starts with a header naming the generator, the revision and the schema hash", () => {
    for (const model of first.models) {
      for (const file of first.files.filter((f) => f.path.startsWith(`${model.revision}/`))) {
        expect(file.content.split("\n").slice(0, 2)).toEqual([
          `// @generated by mcpgen from MCP schema revision ${model.revision}.`,
          `// schema.ts sha256 ${model.source.sha256}, upstream commit ${model.source.commit}`,
        ]);
      }
    }
  });
});
