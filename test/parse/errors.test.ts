// Every construct the generator refuses: one case per refusal, checked for its
// stable code, its file:line:col and its message. Nothing is mapped to unknown.
import { describe, expect, test } from "vitest";
import { formatDiagnostic, SchemaError } from "../../generator/diagnostics.js";
import { revisionOutput } from "../../generator/emit/run.js";
import { buildModel } from "../../generator/generate.js";
import { resolveDeclarations } from "../../generator/model/resolve.js";
import { parseSchema } from "../../generator/parse/parse-schema.js";
import { snippetSource } from "../helpers.js";

/** The one-line diagnostics a snippet produces (parse and inheritance stages). */
function problems(schema: string): string[] {
  try {
    resolveDeclarations(parseSchema({ file: "schema.ts", text: schema }));
  } catch (error) {
    if (error instanceof SchemaError) return error.diagnostics.map((d) => formatDiagnostic(d));
    throw error;
  }
  throw new Error("expected the schema to be refused");
}

const cases: { name: string; schema: string; errors: string[] }[] = [
  {
    name: "a syntax error",
    schema: `export interface A {\n  a: ;\n}`,
    errors: ["schema.ts:2:6: error E_SYNTAX: TS1110: Type expected."],
  },
  {
    name: "functions, classes, enums, imports and namespaces at the top level",
    schema: `import { x } from "y";\nexport function f() {}\nexport class C {}\nexport enum E { A }\nnamespace N {}`,
    errors: [
      "schema.ts:1:1: error E_UNSUPPORTED_STATEMENT: ImportDeclaration is not supported at the top level of a schema (only interfaces, type aliases and consts)",
      "schema.ts:2:1: error E_UNSUPPORTED_STATEMENT: FunctionDeclaration is not supported at the top level of a schema (only interfaces, type aliases and consts)",
      "schema.ts:3:1: error E_UNSUPPORTED_STATEMENT: ClassDeclaration is not supported at the top level of a schema (only interfaces, type aliases and consts)",
      "schema.ts:4:1: error E_UNSUPPORTED_STATEMENT: EnumDeclaration is not supported at the top level of a schema (only interfaces, type aliases and consts)",
      "schema.ts:5:1: error E_UNSUPPORTED_STATEMENT: ModuleDeclaration is not supported at the top level of a schema (only interfaces, type aliases and consts)",
    ],
  },
  {
    name: "conditional, mapped, keyof, indexed access, template literal and function types",
    schema: [
      "export interface A { a: string }",
      "export type C = A extends object ? string : number;",
      "export type M = { [K in 'x']: string };",
      "export type K = keyof A;",
      'export type I = A["a"];',
      "export type T = `x-${string}`;",
      "export type F = () => void;",
    ].join("\n"),
    errors: [
      'schema.ts:2:17: error E_UNSUPPORTED_TYPE: ConditionalType is not supported in a schema type: "A extends object ? string : number"',
      "schema.ts:3:17: error E_UNSUPPORTED_TYPE: MappedType is not supported in a schema type: \"{ [K in 'x']: string }\"",
      'schema.ts:4:17: error E_UNSUPPORTED_TYPE: TypeOperator is not supported in a schema type: "keyof A"',
      'schema.ts:5:17: error E_UNSUPPORTED_TYPE: IndexedAccessType is not supported in a schema type: "A["a"]"',
      'schema.ts:6:17: error E_UNSUPPORTED_TYPE: TemplateLiteralType is not supported in a schema type: "`x-${string}`"',
      'schema.ts:7:17: error E_UNSUPPORTED_TYPE: FunctionType is not supported in a schema type: "() => void"',
    ],
  },
  {
    name: "generic types other than Array<T> and Record<K, V>, a Record keyed by a type, and qualified names",
    schema: `export interface A { a: string }\nexport type P = Partial<A>;\nexport type R = Record<A, string>;\nexport type Q = ns.A;`,
    errors: [
      "schema.ts:2:17: error E_UNSUPPORTED_TYPE: generic type Partial<A> is not supported (only Array<T> and Record<K, T>)",
      "schema.ts:3:17: error E_UNSUPPORTED_TYPE: Record<A, string>: a Record's key type must be string, number, or string literals (with or without string)",
      "schema.ts:4:17: error E_UNSUPPORTED_TYPE: qualified name ns.A is not supported",
    ],
  },
  {
    name: "optional, rest and named tuple members",
    schema: `export type T = [string, number?];\nexport type U = [...string[]];\nexport type V = [x: string];`,
    errors: [
      "schema.ts:1:26: error E_UNSUPPORTED_TYPE: OptionalType in a tuple is not supported",
      "schema.ts:2:18: error E_UNSUPPORTED_TYPE: RestType in a tuple is not supported",
      "schema.ts:3:18: error E_UNSUPPORTED_TYPE: NamedTupleMember in a tuple is not supported",
    ],
  },
  {
    name: "method signatures, call signatures, two index signatures and symbol keys",
    schema: `export interface A {\n  m(): void;\n  (): void;\n  [k: string]: unknown;\n  [n: number]: string;\n}\nexport interface S { [s: symbol]: string }`,
    errors: [
      "schema.ts:2:3: error E_UNSUPPORTED_MEMBER: MethodSignature is not supported in a schema type (only properties and index signatures)",
      "schema.ts:3:3: error E_UNSUPPORTED_MEMBER: CallSignature is not supported in a schema type (only properties and index signatures)",
      "schema.ts:5:3: error E_UNSUPPORTED_MEMBER: a type may have only one index signature",
      "schema.ts:7:22: error E_UNSUPPORTED_MEMBER: index signature key type must be string or number, not symbol",
    ],
  },
  {
    name: "readonly and declare modifiers",
    schema: `export interface A { readonly a: string }\nexport declare interface B {}`,
    errors: [
      'schema.ts:1:22: error E_UNSUPPORTED_MODIFIER: modifier "readonly" is not supported',
      'schema.ts:2:8: error E_UNSUPPORTED_MODIFIER: modifier "declare" is not supported',
    ],
  },
  {
    name: "type parameters",
    schema: `export interface Box<T> { value: string }\nexport type Alias<T> = string;`,
    errors: [
      "schema.ts:1:22: error E_GENERIC: Box has type parameters; generic schema types are not supported",
      "schema.ts:2:19: error E_GENERIC: Alias has type parameters; generic schema types are not supported",
    ],
  },
  {
    name: "extends clauses other than Name and Omit<Name, keys>",
    schema: `export interface A { a: string }\nexport interface B extends Pick<A, "a"> {}\nexport interface C extends Omit<A, string> {}`,
    errors: [
      'schema.ts:2:28: error E_UNSUPPORTED_HERITAGE: unsupported extends clause "Pick<A, "a">" (expected Name or Omit<Name, "key" | ...>)',
      'schema.ts:3:28: error E_UNSUPPORTED_HERITAGE: unsupported extends clause "Omit<A, string>" (expected Name or Omit<Name, "key" | ...>)',
    ],
  },
  {
    name: "extending a type that is not an object type",
    schema: `export interface A { a: string }\nexport type U = A | string;\nexport interface D extends U {}\nexport type O = A & { b: string };\nexport interface E extends O {}`,
    errors: ["schema.ts:3:28: error E_UNSUPPORTED_HERITAGE: D extends U, which is not an interface or an object type"],
  },
  {
    name: "consts that are not a single literal const",
    schema: `export const A = compute();\nexport let B = 1;\nexport const C: number = 1;\nexport const D = 1, E = 2;\nexport const F = [1];`,
    errors: [
      "schema.ts:1:14: error E_UNSUPPORTED_CONST: const A must be initialised with a string, number or boolean literal",
      "schema.ts:2:1: error E_UNSUPPORTED_CONST: only single `const` declarations are supported",
      "schema.ts:3:14: error E_UNSUPPORTED_CONST: const C has a type annotation; `typeof C` would not be its literal",
      "schema.ts:4:1: error E_UNSUPPORTED_CONST: only single `const` declarations are supported",
      "schema.ts:5:14: error E_UNSUPPORTED_CONST: const F must be initialised with a string, number or boolean literal",
    ],
  },
  {
    name: "references to undeclared types and constants",
    schema: `export interface A { a: Missing; b: typeof NOPE }\nexport interface B extends Gone {}`,
    errors: [
      "schema.ts:1:25: error E_UNKNOWN_REFERENCE: type Missing is not declared in this schema",
      "schema.ts:1:37: error E_UNKNOWN_REFERENCE: typeof NOPE: no const named NOPE in this schema",
      "schema.ts:2:28: error E_UNKNOWN_REFERENCE: type Gone is not declared in this schema",
    ],
  },
  {
    name: "duplicate declarations and duplicate properties",
    schema: `export interface A { a: string; a: number }\nexport type A = string;\nexport const X = 1;\nexport const X = 2;`,
    errors: [
      'schema.ts:1:33: error E_DUPLICATE: property "a" is declared twice',
      "schema.ts:2:1: error E_DUPLICATE: A is already declared at line 1",
      "schema.ts:4:14: error E_DUPLICATE: const X is declared twice",
    ],
  },
  {
    name: "inheritance cycles",
    schema: `export interface A extends B { a: string }\nexport interface B extends C {}\nexport interface C extends A {}`,
    errors: ["schema.ts:1:1: error E_EXTENDS_CYCLE: A inherits from itself (A → B → C → A)"],
  },
];

describe("refused schema constructs", () => {
  test.each(cases)("$name", ({ schema, errors }) => {
    expect(problems(schema)).toEqual(errors);
  });

  test("a refusal prints its code frame with a caret under the column", () => {
    const text = `export interface A {\n  ok: string;\n  bad: keyof A;\n  fine: number;\n}`;
    let error: unknown;
    try {
      parseSchema({ file: "spec/x/schema.ts", text });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaError);
    const [diagnostic] = (error as SchemaError).diagnostics;
    expect(formatDiagnostic(diagnostic!, { text })).toBe(
      [
        'spec/x/schema.ts:3:8: error E_UNSUPPORTED_TYPE: TypeOperator is not supported in a schema type: "keyof A"',
        "  1 | export interface A {",
        "  2 |   ok: string;",
        "> 3 |   bad: keyof A;",
        "    |        ^",
        "  4 |   fine: number;",
        "  5 | }",
      ].join("\n"),
    );
  });

  test("a schema name that a generated export would shadow stops emission (E_NAME_COLLISION)", async () => {
    const envelope = [
      `export const LATEST_PROTOCOL_VERSION = "x";`,
      `export const JSONRPC_VERSION = "2.0";`,
      `export interface Req { method: string; id: number }`,
      `export interface Note { method: string }`,
      `export interface Res { id: number; result: object }`,
      `export interface Err { id: number; error: object }`,
      `export type JSONRPCMessage = Req | Note | Res | Err;`,
    ].join("\n");
    for (const [name, line] of [
      ["RequestMap", 8],
      ["validateParams", 8],
      ["classify", 8],
    ] as const) {
      const model = buildModel(snippetSource(`${envelope}\nexport interface ${name} { a: string }`));
      await expect(revisionOutput(model)).rejects.toThrow(
        `snippet.ts:${line}:1: error E_NAME_COLLISION: the schema declares ${name}, a name mcpgen generates for every revision`,
      );
    }
  });
});
