// An extension's schema imports its base revision's types (`import type { ... }
// from "./spec.types.js"`). The parser reads those imports only when it is told
// the base: each name must be one the base declares, and references to an alias
// name the base's type. A revision's schema may not import at all.
import { describe, expect, test } from "vitest";
import { formatDiagnostic, SchemaError } from "../../generator/diagnostics.js";
import { parseSchema } from "../../generator/parse/parse-schema.js";

const base = { revision: "draft", names: new Set(["Result", "Error", "JSONRPCRequest"]) };

function problems(text: string, withBase = true): string[] {
  try {
    parseSchema({ file: "ext.ts", text, ...(withBase ? { base } : {}) });
  } catch (error) {
    if (error instanceof SchemaError) return error.diagnostics.map((d) => formatDiagnostic(d));
    throw error;
  }
  throw new Error("expected the schema to be refused");
}

describe("an extension's imports of its base revision", () => {
  test("imported names, aliases included, resolve to the base's types", () => {
    const parsed = parseSchema({
      file: "ext.ts",
      text: [
        `import type { Result, Error as RpcError } from "./spec.types.js";`,
        `export interface Done extends Result { error?: RpcError }`,
      ].join("\n"),
      base,
    });
    expect(parsed.imports).toEqual([
      { name: "Result", local: "Result", location: { file: "ext.ts", line: 1, column: 15 } },
      { name: "Error", local: "RpcError", location: { file: "ext.ts", line: 1, column: 23 } },
    ]);
    const done = parsed.declarations[0]!;
    expect(done.kind === "interface" && done.extends.map((h) => h.name)).toEqual(["Result"]);
    expect(done.kind === "interface" && done.properties[0]!.type).toEqual({ kind: "reference", name: "Error" });
  });

  test("a name the base does not declare stops parsing at the import, once", () => {
    expect(
      problems(`import type { Result, Gone } from "./spec.types.js";\nexport interface A { g: Gone; r: Result }`),
    ).toEqual(["ext.ts:1:23: error E_UNKNOWN_IMPORT: type Gone is not declared in the base revision draft"]);
  });

  test("imports of other forms are refused with their location", () => {
    expect(problems(`import type { Result } from "other-package";\nexport type A = Result;`)).toEqual([
      'ext.ts:1:1: error E_UNKNOWN_IMPORT: import from "other-package": an extension imports only its base revision\'s schema, by a relative path',
    ]);
    expect(problems(`import * as spec from "./spec.types.js";\nexport type A = string;`)).toEqual([
      "ext.ts:1:1: error E_UNKNOWN_IMPORT: only named imports (import type { A, B as C }) of the base revision's types are supported",
    ]);
    expect(problems(`import { Result } from "./spec.types.js";\nexport type A = Result;`)).toEqual([
      "ext.ts:1:10: error E_UNKNOWN_IMPORT: import of Result must be type-only (import type)",
    ]);
  });

  test("a declaration may not reuse an imported name", () => {
    expect(problems(`import type { Result } from "./spec.types.js";\nexport interface Result { a: string }`)).toEqual([
      "ext.ts:2:1: error E_DUPLICATE: Result is already declared at line 1",
    ]);
  });

  test("without a base (a revision's schema), an import is an unsupported statement", () => {
    expect(problems(`import type { Result } from "./spec.types.js";\nexport type A = string;`, false)).toEqual([
      "ext.ts:1:1: error E_UNSUPPORTED_STATEMENT: ImportDeclaration is not supported at the top level of a schema (only interfaces, type aliases and consts)",
    ]);
  });
});
