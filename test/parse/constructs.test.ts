// One case per TypeScript construct the parser accepts: a schema snippet in,
// the exact types.ts it emits out (header aside). Every expected output is
// also type-checked with tsc (see the last test), so the goldens are valid code.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { formatTypeScript } from "../../generator/emit/format.js";
import { GeneratedFile } from "../../generator/emit/printer.js";
import { emitTypes } from "../../generator/emit/types-file.js";
import { resolveDeclarations } from "../../generator/model/resolve.js";
import type { InterfaceDeclaration, TypeNode } from "../../generator/model/types.js";
import { parseSchema } from "../../generator/parse/parse-schema.js";
import { tempDir, typeCheck } from "../helpers.js";

/** Parses a snippet and prints its types.ts body, without the generated header. */
async function emitted(schema: string): Promise<string> {
  const parsed = parseSchema({ file: "snippet.ts", text: schema });
  const file = new GeneratedFile("types.ts", { source: "a test", details: [] });
  emitTypes(file, { constants: parsed.constants, declarations: resolveDeclarations(parsed) });
  const text = await formatTypeScript(file.toString());
  return text.replace(/^(\/\/.*\n|\/\* eslint-disable \*\/\n)+\n/, "");
}

function parsedType(schema: string, name: string): TypeNode {
  const declaration = parseSchema({ file: "snippet.ts", text: schema }).declarations.find((d) => d.name === name);
  if (declaration?.kind !== "alias") throw new Error(`${name} is not an alias`);
  return declaration.type;
}

const cases: { name: string; schema: string; types: string }[] = [
  {
    name: "interface with required and optional properties of every keyword type",
    schema: `export interface Everything {
      s: string; n?: number; b: boolean; u?: unknown; a: any; o: object; nul: null; un?: undefined; nev: never;
    }`,
    types: `export interface Everything {
  s: string;
  n?: number;
  b: boolean;
  u?: unknown;
  a: any;
  o: object;
  nul: null;
  un?: undefined;
  nev: never;
}
`,
  },
  {
    name: "string, number, negative number and boolean literals and literal unions",
    schema: `export type Role = "user" | "assistant";
      export interface Literals { level: 1 | 2; code: -32002; flag: true; off: false; kind: "text" }`,
    types: `export interface Literals {
  level: 1 | 2;
  code: -32002;
  flag: true;
  off: false;
  kind: "text";
}

export type Role = "user" | "assistant";
`,
  },
  {
    name: "unions and intersections keep their precedence",
    schema: `export interface A { a: string }
      export interface B { b: string }
      export type AOrB = A | B;
      export type Both = A & B;
      export type Mixed = (A | B) & { c: number };
      export type Loose = A & B | null;`,
    types: `export interface A {
  a: string;
}

export type AOrB = A | B;

export interface B {
  b: string;
}

export type Both = A & B;

export type Loose = (A & B) | null;

export type Mixed = (A | B) & {
  c: number;
};
`,
  },
  {
    name: "arrays: T[], Array<T>, arrays of unions and of object literals",
    schema: `export interface Lists {
      tags: string[];
      ids: Array<number>;
      mixed: (string | number)[];
      nested: string[][];
      options: Array<{ const: string; title: string }>;
    }`,
    types: `export interface Lists {
  tags: string[];
  ids: number[];
  mixed: (string | number)[];
  nested: string[][];
  options: {
    const: string;
    title: string;
  }[];
}
`,
  },
  {
    name: "tuples",
    schema: `export type Pair = [string, number];`,
    types: `export type Pair = [string, number];
`,
  },
  {
    name: "index signatures, alone and beside properties, and Record<string, V>",
    schema: `export interface Open { name: string; [key: string]: unknown }
      export interface Map { [id: string]: number }
      export type Meta = Record<string, unknown>;`,
    types: `export interface Map {
  [id: string]: number;
}

export type Meta = {
  [key: string]: unknown;
};

export interface Open {
  name: string;
  [key: string]: unknown;
}
`,
  },
  {
    name: "nested object literal types with JSDoc on nested members",
    schema: `export interface Caps {
      tools?: {
        /** Whether the list may change. */
        listChanged?: boolean;
        deep: { x: { y: string } };
      };
    }`,
    types: `export interface Caps {
  tools?: {
    /** Whether the list may change. */
    listChanged?: boolean;
    deep: {
      x: {
        y: string;
      };
    };
  };
}
`,
  },
  {
    name: "references and typeof of a const",
    schema: `export const JSONRPC_VERSION = "2.0";
      export type RequestId = string | number;
      export interface Message { jsonrpc: typeof JSONRPC_VERSION; id: RequestId }`,
    types: `export const JSONRPC_VERSION = "2.0";

export interface Message {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
}

export type RequestId = string | number;
`,
  },
  {
    name: "extends chains and Omit<Base, keys> are printed as declared",
    schema: `export interface Base { a: string; b?: number; c: boolean }
      export interface Child extends Base { d: string }
      export interface Trimmed extends Omit<Base, "c" | "a"> { a: number }`,
    types: `export interface Base {
  a: string;
  b?: number;
  c: boolean;
}

export interface Child extends Base {
  d: string;
}

export interface Trimmed extends Omit<Base, "a" | "c"> {
  a: number;
}
`,
  },
  {
    name: "JSDoc descriptions and tags (@category, @internal, @deprecated, @nullable, @TJS-type, @format, @example)",
    schema: `/**
       * A described type.
       *
       * Second paragraph with {@link Other | a link}.
       *
       * @example Something
       * {@includeCode ./examples/Other/x.json}
       *
       * @category \`tools/call\`
       * @deprecated Use Other.
       */
      export interface Described {
        /**
         * @TJS-type number
         */
        n: number;
        /** @format byte */
        data: string;
        /** @nullable */
        maybe?: string | null;
      }
      /** @internal */
      export interface Other {}`,
    types: `/**
 * A described type.
 *
 * Second paragraph with {@link Other | a link}.
 *
 * @example Something
 * {@includeCode ./examples/Other/x.json}
 * @category \`tools/call\`
 * @deprecated Use Other.
 */
export interface Described {
  /** @TJS-type number */
  n: number;
  /** @format byte */
  data: string;
  /** @nullable */
  maybe?: string | null;
}

/** @internal */
export interface Other {}
`,
  },
  {
    name: "quoted property names",
    schema: `export interface Meta { "io.modelcontextprotocol/protocolVersion": string; "plain": number; "with space"?: boolean }`,
    types: `export interface Meta {
  "io.modelcontextprotocol/protocolVersion": string;
  plain: number;
  "with space"?: boolean;
}
`,
  },
  {
    name: "constants of every literal kind, exported or not",
    schema: `export const LATEST = "2099-01-01";
      /** Parse error. */
      export const PARSE_ERROR = -32700;
      export const ENABLED = true;
      const PRIVATE = 3;
      interface Hidden { x: typeof PRIVATE }`,
    types: `export const ENABLED = true;

export const LATEST = "2099-01-01";

/** Parse error. */
export const PARSE_ERROR = -32700;

const PRIVATE = 3;

interface Hidden {
  x: typeof PRIVATE;
}
`,
  },
  {
    name: "declarations sorted by UTF-16 code unit, not by locale",
    schema: `export type b = string; export type a = string; export type B = string; export type _ = string;`,
    types: `export type B = string;

export type _ = string;

export type a = string;

export type b = string;
`,
  },
];

describe("schema constructs → types.ts", () => {
  test.each(cases)("$name", async ({ schema, types }) => {
    expect(await emitted(schema)).toBe(types);
  });

  test("every expected output type-checks with tsc --strict", () => {
    const dir = tempDir();
    const files = cases.map((c, i) => {
      const path = join(dir, `case-${i}.ts`);
      // `export {}` keeps each file a module even when it exports nothing.
      writeFileSync(path, `${c.types}\nexport {};\n`);
      return path;
    });
    expect(typeCheck(files)).toEqual([]);
  });
});

describe("the model keeps what the printed text implies", () => {
  test("Array<T> and Record<string, V> are normalised, parentheses dropped", () => {
    expect(parsedType(`export type X = Array<(string)>;`, "X")).toEqual({
      kind: "array",
      element: { kind: "keyword", keyword: "string" },
    });
    expect(parsedType(`export type X = Record<string, unknown>;`, "X")).toMatchObject({
      kind: "object",
      properties: [],
      indexSignature: { keyType: "string", type: { kind: "keyword", keyword: "unknown" } },
    });
  });

  test("typeof CONST is a literal that remembers its constant", () => {
    expect(parsedType(`export const V = "2.0"; export type X = typeof V;`, "X")).toEqual({
      kind: "literal",
      value: "2.0",
      constant: "V",
    });
  });

  test("negative numbers are number literals", () => {
    expect(parsedType(`export type X = -32002;`, "X")).toEqual({ kind: "literal", value: -32002 });
  });

  test("resolved interfaces carry inherited members, own members first, Omit applied, declaring type kept", () => {
    const parsed = parseSchema({
      file: "snippet.ts",
      text: `export interface Base { a: string; b?: number; c: boolean; [key: string]: unknown }
        export interface Mid extends Omit<Base, "c"> { m: string }
        export interface Leaf extends Mid { a: "x" }`,
    });
    const leaf = resolveDeclarations(parsed).find((d) => d.name === "Leaf") as InterfaceDeclaration;
    expect(leaf.extends).toEqual([{ name: "Mid", omit: [], location: { file: "snippet.ts", line: 3, column: 39 } }]);
    expect(leaf.resolved.ancestors).toEqual(["Mid", "Base"]);
    expect(leaf.resolved.properties.map((p) => `${p.declaredIn}.${p.name}${p.optional ? "?" : ""}`)).toEqual([
      "Leaf.a",
      "Mid.m",
      "Base.b?",
    ]);
    expect(leaf.resolved.indexSignature?.type).toEqual({ kind: "keyword", keyword: "unknown" });
  });

  test("JSDoc text and tags are plain data", () => {
    const parsed = parseSchema({
      file: "snippet.ts",
      text: `/**\n * Line one.\n * Line two.\n *\n * @category \`ping\`\n * @TJS-type number\n * @internal\n */\nexport type X = number;`,
    });
    expect(parsed.declarations[0]!.doc).toEqual({
      text: "Line one.\nLine two.",
      tags: [
        { name: "category", text: "`ping`" },
        { name: "TJS-type", text: "number" },
        { name: "internal", text: "" },
      ],
    });
  });
});
