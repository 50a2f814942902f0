// Constructs upstream wrote in its schema's history that have one obvious
// meaning in TypeScript: each is read as tsc reads it, not refused; a JSDoc
// annotation whose value cannot be read is a warning at its tag, and the
// schema still generates. What stays ambiguous is refused with its place.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { formatDiagnostic, SchemaError } from "../../generator/diagnostics.js";
import { generate } from "../../generator/generate.js";
import type { MethodOverlay } from "../../generator/model/overlay.js";
import type { ObjectType } from "../../generator/model/types.js";
import { parseSchema } from "../../generator/parse/parse-schema.js";
import { projectRoot, snippetSource } from "../helpers.js";

const parse = (text: string) => parseSchema({ file: "schema.ts", text });

function refusal(text: string): string[] {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof SchemaError) return error.diagnostics.map((d) => formatDiagnostic(d));
    throw error;
  }
  throw new Error("expected the schema to be refused");
}

describe("constructs with an obvious meaning are read", () => {
  test("a stray `;` after an interface is an empty statement: nothing is declared, nothing is lost", () => {
    const parsed = parse(`export interface Error {\n  code: number;\n};\nexport type Id = string;\n;`);
    expect(parsed.declarations.map((d) => d.name)).toEqual(["Error", "Id"]);
    expect(parsed.warnings).toBeUndefined();
  });

  test('Record<"name" | string, V> is Record<string, V>: the literal adds no key string does not admit', () => {
    const parsed = parse(
      `export type Headers = Record<"name" | string, string>;\nexport type Flipped = Record<string | "a", number>;`,
    );
    for (const declaration of parsed.declarations) {
      expect(declaration.kind === "alias" && declaration.type).toMatchObject({
        kind: "object",
        properties: [],
        indexSignature: { keyType: "string", type: { kind: "keyword" } },
      });
    }
  });

  test('Record<"a" | "b", V> has the two required properties', () => {
    const [declaration] = parse(`export type Pair = Record<"a" | "b", boolean>;`).declarations;
    const type = (declaration as { type: ObjectType }).type;
    expect(type.indexSignature).toBeUndefined();
    expect(type.properties.map((p) => [p.name, p.optional, p.type])).toEqual([
      ["a", false, { kind: "keyword", keyword: "boolean" }],
      ["b", false, { kind: "keyword", keyword: "boolean" }],
    ]);
  });

  test("a Record whose keys mean no one thing is refused with its place", () => {
    expect(
      refusal(
        `export interface A { a: string }\nexport type R = Record<string | number, A>;\nexport type S = Record<1 | "x", A>;`,
      ),
    ).toEqual([
      "schema.ts:2:17: error E_UNSUPPORTED_TYPE: Record<string | number, A>: a Record's key type must be string, number, or string literals (with or without string)",
      'schema.ts:3:17: error E_UNSUPPORTED_TYPE: Record<1 | "x", A>: a Record\'s key type must be string, number, or string literals (with or without string)',
    ]);
  });
});

describe("an annotation that cannot be read is a warning at its tag", () => {
  const schema = [
    "export interface Implementation {",
    "  /**",
    "   * The website.",
    "   *",
    "   * @format: uri",
    "   */",
    "  websiteUrl?: string;",
    "  /** @minimum many */",
    "  count?: number;",
    "  /** @format uri */",
    "  url?: string;",
    "}",
  ].join("\n");

  test("the parser reads past it and says where it is", () => {
    const parsed = parse(schema);
    expect((parsed.warnings ?? []).map((d) => formatDiagnostic(d))).toEqual([
      'schema.ts:5:6: warning E_UNREADABLE_ANNOTATION: @format needs a format name, not ": uri"; the tag is ignored',
      'schema.ts:8:7: warning E_UNREADABLE_ANNOTATION: @minimum needs a number, not "many"; the tag is ignored',
    ]);
    const [implementation] = parsed.declarations;
    const properties = implementation!.kind === "interface" ? implementation!.properties : [];
    // The unreadable tags constrain nothing; the readable one still does.
    expect(properties.map((p) => p.constraints)).toEqual([undefined, undefined, { format: "uri" }]);
  });

  test("the model carries the warning and generation goes on", async () => {
    const minimal = readFileSync(join(projectRoot, "test", "cases", "minimal-revision", "schema.ts"), "utf8");
    const offset = minimal.split("\n").length;
    const overlay = readFileSync(join(projectRoot, "test", "cases", "minimal-revision", "overlay.json"), "utf8");
    const generation = await generate([snippetSource(`${minimal}\n${schema}`)], {
      methods: JSON.parse(overlay) as MethodOverlay,
    });
    const warnings = generation.warnings;
    expect(warnings.map((w) => [w.diagnostic.severity, w.diagnostic.location!.line - offset])).toEqual([
      ["warning", 5],
      ["warning", 8],
    ]);
    expect(generation.files.some((f) => f.path === "test/types.ts")).toBe(true);
  });

  test("a keyword mcpgen does not implement still stops generation", () => {
    expect(refusal(`export interface A {\n  /** @uniqueItems true */\n  a: string[];\n}`)).toEqual([
      "schema.ts:3:3: error E_UNSUPPORTED_ANNOTATION: @uniqueItems is a JSON Schema keyword mcpgen does not implement",
    ]);
  });
});
