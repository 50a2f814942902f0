// Formatting takes shortcuts (format.ts: distinct parts formatted once, in
// batches; data-literal.ts and check-layout.ts: data tables and check
// functions printed in prettier's form without prettier; the babel-ts
// parser). Each is only sound while the result is the bytes prettier gives
// for the whole file with the typescript parser: this checks that for every
// file a generation of every pinned revision and extension writes.
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { extensionFiles } from "../../generator/emit/extension-files.js";
import { Formatting, formatterPool, formatTypeScript, prettierOptions } from "../../generator/emit/format.js";
import { printDataDeclaration } from "../../generator/emit/data-literal.js";
import type { GeneratedFile } from "../../generator/emit/printer.js";
import { revisionFolders, rootIndexFile, shimFiles } from "../../generator/emit/run.js";
import { convertersLaidOut, convertersSource, type Converters } from "../../generator/emit/shims-files.js";
import { buildExtension, buildModel } from "../../generator/generate.js";
import { lock, pinnedExtensionSource, pinnedRevisions, pinnedSource } from "../helpers.js";

/** What format.ts gives prettier, but with the parser the shortcuts must agree with. */
const wholeFileOptions = { ...prettierOptions, parser: "typescript" };

function everyGeneratedFile(): GeneratedFile[] {
  const models = pinnedRevisions.map((revision) => buildModel(pinnedSource(revision)));
  const extensions = (lock.extensions ?? []).map((entry) => {
    const source = pinnedExtensionSource(entry.name);
    const base = models.find((m) => m.revision === source.base)!;
    return { source, files: extensionFiles(buildExtension(source, base), base) };
  });
  return [
    ...revisionFolders(models).flat(),
    ...extensions.flatMap((e) => e.files),
    ...shimFiles(models).files,
    rootIndexFile(
      models,
      extensions.map((e) => e.source),
    ),
  ];
}

describe("formatting generated files", () => {
  it("gives, for every file of every pinned revision and extension, the bytes prettier gives for the whole file", async () => {
    const files = everyGeneratedFile();
    const formatting = new Formatting();
    const differing: string[] = [];
    /** Parts printed in prettier's form by the emitters, and parts left to prettier, by kind. */
    const taken = { data: 0, checks: 0, types: 0, functions: 0 };
    const left = { data: 0, checks: 0, types: 0, functions: 0 };
    const leftFunctions: string[] = [];
    for (const file of files) {
      for (const part of file.parts()) {
        const kind = file.path.endsWith("/checks.ts")
          ? /^export function c/m.test(part.text) && "checks"
          : file.path.endsWith("/types.ts")
            ? /^(export )?(interface|type|const) /m.test(part.text) && "types"
            : /\/(tables|validators|guards)\.ts$/.test(file.path)
              ? /^\s*export (function|const) /m.test(part.text) && "functions"
              : (file.path.startsWith("shims/") || file.path.endsWith("/methods.ts")) &&
                /^(export )?const \w+(: .+)? = (\(\): .+ => \()?[[{]/m.test(part.formatted ? part.source : part.text) &&
                "data";
        if (kind === "functions" && !part.formatted) leftFunctions.push(part.text);
        if (kind) (part.formatted ? taken : left)[kind]++;
        else expect(part.formatted, `${file.path}: ${part.text.slice(0, 80)}`).toBeFalsy();
      }
      const expected = await format(file.source(), wholeFileOptions);
      if ((await formatting.file(file.parts())) !== expected) differing.push(file.path);
    }
    expect(differing).toEqual([]);
    // The data tables did take the shortcut: three per revision's shapes, three per step (its two plans and
    // its converters), the method table of each revision and extension.
    const extensions = lock.extensions?.length ?? 0;
    expect(taken.data).toBe(
      3 * pinnedRevisions.length + 3 * (pinnedRevisions.length - 1) + pinnedRevisions.length + extensions,
    );
    // Every check function of the pinned revisions and extensions (check-layout.ts covers all they hold);
    // draft prints none while it shares every check with 2026-07-28 (check-sharing.ts).
    expect(taken.checks).toBeGreaterThan(900);
    expect(left.checks).toBe(0);
    // Most type declarations: those with a line too long to keep, or an object type in a union, are left.
    expect(taken.types).toBeGreaterThan(9 * left.types);
    // The validators, guards and tables of tables.ts, validators.ts and guards.ts (line-layout.ts).
    // Every one, but an extension's table of checks: its `satisfies { ... }` is not a form line-layout.ts covers.
    expect(taken.functions).toBeGreaterThan(1000);
    expect(leftFunctions.filter((text) => !/\} as const satisfies \{ readonly/.test(text))).toEqual([]);
  }, 120_000);

  it("formats on worker threads to the same bytes as in this thread", async () => {
    const pool = formatterPool(2);
    try {
      const source = "export const a = {b: 1, c: [ 'x' ]}\nfunction f ( x: number ) { return x }\n";
      expect(await pool.format(source)).toBe(await formatTypeScript(source));
      await expect(pool.format("export const = ;")).rejects.toThrow(/prettier: /);
    } finally {
      await pool.close();
    }
  });
});

describe("data tables printed as prettier prints them", () => {
  const cases: [string, unknown][] = [
    ["empty containers", { a: {}, b: [] }],
    ["a short object on one line", { kind: "object", optional: true, n: 3 }],
    [
      "an array of two objects of two properties breaks",
      {
        a: [
          { b: 1, c: 2 },
          { b: 1, c: 2 },
        ],
      },
    ],
    [
      "a break inside breaks every group around it",
      {
        k: {
          a: [
            { b: 1, c: 2 },
            { b: 3, c: 4 },
          ],
        },
        z: 1,
      },
    ],
    ["an array of one-property objects stays flat", { a: [{ b: 1 }, { b: 2 }] }],
    ["an array of mixed arrays and objects stays flat", { a: [["x", "y"], { b: 1, c: 2 }] }],
    ["quoted keys", { "tools/call": { "a-b": 1, ok: 2, $x: 3, _y: 4 } }],
    ["quotes in strings", { a: `say "hi"`, b: `it's`, c: `"'"`, d: `\\"x"` }],
    ["escapes", { a: "line\nbreak\ttab\\", b: "\u0001" }],
    ["a long string moves under its key", { description: "x".repeat(95), short: "y".repeat(97) }],
    ["a key of 4 columns keeps its long string, one of 5 does not", { abcd: "x".repeat(99), abcde: "x".repeat(99) }],
    ["a long string in a deep object", { a: { b: { c: { description: "z".repeat(80), id: null, n: -1 } } } }],
    [
      "a long null and negative number",
      { aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: null },
    ],
    [
      "a long boolean stays",
      { bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb: true },
    ],
    ["the width limit exactly", { a: "x".repeat(88), b: { c: "y".repeat(83) } }],
    ["an array of strings breaks one a line", { a: Array.from({ length: 12 }, (_, i) => `value number ${i}`) }],
  ];
  for (const [name, value] of cases) {
    it(name, async () => {
      const declaration = "export const table: Table";
      const printed = printDataDeclaration(declaration, value);
      expect(printed).toBeDefined();
      expect(`${printed}\n`).toBe(await format(`${declaration} = ${JSON.stringify(value)};`, wholeFileOptions));
    });
  }

  it("data an arrow function returns (the shims' shapes, built on their first read)", async () => {
    for (const [, value] of cases) {
      const printed = printDataDeclaration("const table", value, "", "Table");
      expect(printed).toBeDefined();
      expect(`${printed}\n`).toBe(
        await format(`const table = (): Table => (${JSON.stringify(value)});`, wholeFileOptions),
      );
    }
  });

  it("leaves to prettier what it does not cover", () => {
    for (const value of [{ a: [1, 2, 3] }, { a: 1.5 }, { "1": 1 }, { a: "é" }, "text", { a: new Date(0) }])
      expect(printDataDeclaration("const t: T", value)).toBeUndefined();
  });
});

describe("a step's converters printed as prettier prints them", () => {
  const member = (name: string, callee: string, args: string[]) => ({ name, callee, args });
  const cases: [string, Converters[]][] = [
    ["a method on one line", [{ method: "ping", members: [member("params", "c", ["a", "params"])] }]],
    [
      "a member a line, each on one line",
      [
        {
          method: "tools/call",
          members: [
            member("params", "convert", ["a", "b", "params"]),
            member("result", "convert", ["a", "b", "result"]),
          ],
        },
      ],
    ],
    [
      "a body on the next line, then its arguments a line",
      [
        {
          method: "x",
          members: [
            member("params", "convertStep", ["shimRules", "upgrade", "r1", "r2", '"params"', '"x"', "params"]),
            member("result", "convertStep", [
              "shimRules",
              "upgrade",
              "r2025_06_18",
              "r2025_11_25",
              '"result"',
              '"x"',
              "result",
              "more",
            ]),
          ],
        },
      ],
    ],
  ];
  for (const [name, converters] of cases) {
    it(name, async () => {
      const declaration = "export const upgradeMessages";
      expect(`${declaration} = ${convertersLaidOut(converters)};\n`).toBe(
        await format(`${declaration} = ${convertersSource(converters)};`, wholeFileOptions),
      );
    });
  }
});
