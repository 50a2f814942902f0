// type-layout.ts against prettier itself, on declarations written the way
// typescript.ts writes them; and what it must leave to prettier. Every
// generated declaration is compared as well, in format.test.ts.
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { layoutTypeDeclaration } from "../../generator/emit/type-layout.js";
import { prettierOptions } from "../../generator/emit/format.js";

const options = { ...prettierOptions, parser: "typescript" };
const long = (n: number) => "x".repeat(n);

const covered: [string, string][] = [
  [
    "an interface with JSDoc, nested object types and an index signature",
    [
      "/**",
      " * A thing.",
      " *",
      " *   indented text and a * star",
      " * @category `things/list`",
      " */",
      'export interface Thing extends Omit<Base, "a" | "b">, Other {',
      "/** The kind. */",
      'kind: "thing";',
      "value?: string | number | null;",
      "nested: {",
      "/**",
      " * Deep.",
      " */",
      "deep: {",
      "[key: string]: unknown;",
      "};",
      "};",
      "error: Error & {",
      "code: typeof CODE;",
      "};",
      "items: {",
      "name: string;",
      "}[];",
      '"quoted-key"?: (A | B)[];',
      "empty: {};",
      "}",
    ].join("\n"),
  ],
  ["an empty interface", "/** Nothing. */\nexport interface Empty {}"],
  ["an alias that fits", `export type Level = "debug" | "info" | "${long(50)}";`],
  ["an alias of an object type", "export type Meta = {\n[key: string]: unknown;\n};"],
  ["a constant", '/** The version. */\nexport const LATEST = "2025-11-25";'],
  ["quotes", `export type Q = "say \\"hi\\"" | "it's";`],
  ["a member of exactly the width", `export interface W {\nmember: "${long(87)}";\n}`],
];

describe("type declarations laid out as prettier prints them", () => {
  for (const [name, source] of covered) {
    it(name, async () => {
      const laidOut = layoutTypeDeclaration(source);
      expect(laidOut).toBeDefined();
      expect(laidOut).toBe((await format(source, options)).trimEnd());
    });
  }

  it("leaves to prettier what it does not cover", async () => {
    const leftOut: [string, string][] = [
      ["a member one column too wide", `export interface W {\nmember: "${long(88)}";\n}`],
      ["an alias too wide", `export type Level = "debug" | "info" | "${long(80)}";`],
      ["an object type in a union", "export interface U {\nx: {\na: string;\n} | null;\n}"],
      ["an object type after a union", "export interface U {\nx: A | {\na: string;\n};\n}"],
      ["a comment that is not JSDoc", "/* plain */\nexport type A = string;"],
      ["a JSDoc line without its star", "/**\n text\n */\nexport type A = string;"],
      ["a wide character", 'export type A = "中文";'],
      ["a number prettier rewrites", "export const BIG = 1e+21;"],
      ["a numeric key", 'export interface N {\n"1": string;\n}'],
      ["an unbalanced body", "export interface A {\nx: string;"],
      ["an empty line", "export interface A {\n\nx: string;\n}"],
      ["a comment line with trailing spaces", "/**\n * text  \n */\nexport type A = string;"],
    ];
    for (const [what, source] of leftOut) expect(layoutTypeDeclaration(source), what).toBeUndefined();
    // Left for a reason: prettier breaks a union that does not fit.
    const tooWide = `export type Level = "debug" | "info" | "${long(80)}";`;
    expect((await format(tooWide, options)).trimEnd()).not.toBe(tooWide);
  });
});
