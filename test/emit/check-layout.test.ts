// check-layout.ts against prettier itself, one rule at a time, with names and
// messages long enough to cross the width where each rule applies; and what it
// must leave to prettier. Every generated check function is compared as well,
// in format.test.ts.
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { layoutCheckFunction } from "../../generator/emit/check-layout.js";
import { prettierOptions } from "../../generator/emit/format.js";

const options = { ...prettierOptions, parser: "typescript" };
const signature = (name = "cThing") => `export function ${name}(v: unknown, f: Failure | null): boolean {`;
const long = (n: number) => "x".repeat(n);

async function prettierForm(comment: string, head: string, body: string[]): Promise<string> {
  return (await format([comment, head, ...body, "}"].join("\n"), options)).trimEnd();
}

const cases: [string, string[], string?][] = [
  [
    "short statements stay on one line",
    ['if (!isObject(v)) return fail(f, "type", "must be an object");', "return true;"],
  ],
  [
    "a statement of exactly the width stays, one column more breaks",
    [
      `if (x !== "${long(59)}") return fail(f, "a", "b");`,
      `if (x !== "${long(60)}") return fail(f, "a", "b");`,
      "return true;",
    ],
  ],
  [
    "an if whose return does not fit moves it to the next line",
    [
      "let x: unknown;",
      'x = v["a"];',
      `if (x !== "a" && x !== "b") return failAt(f, "a", "enum", "must be one of ${long(40)}");`,
      "return true;",
    ],
  ],
  [
    "a return that does not fit on its own line either breaks its arguments",
    [
      `if (x !== "a") return failAt(f, "a", "enum", "must be one of ${long(80)}");`,
      `return fail(f, "anyOf", "${long(90)}");`,
    ],
  ],
  [
    "an if test that does not fit takes an operand a line",
    [
      `if (${Array.from({ length: 6 }, (_, i) => `cMember${i}${long(8)}(v, null)`).join(" || ")}) return true;`,
      `if (${Array.from({ length: 8 }, (_, i) => `v !== "value-${i}${long(6)}"`).join(" && ")}) return fail(f, "enum", "must be one of them");`,
      `if (!(typeof v !== "string") || !(v !== null) || cJSONObject(v, null) || cJSONArray${long(40)}(v, null)) return true;`,
      "return true;",
    ],
  ],
  [
    "a ternary that does not fit breaks, and a call in it aligns under its ? or :",
    [
      'switch (v["type"]) {',
      'case "text":',
      'case "image":',
      "return cContent(v, f);",
      "default:",
      `return v["type"] === undefined ? missing(f, "type") : failAt(f, "type", "enum", "must be one of \\"a\\", \\"b\\"${long(10)}");`,
      "}",
      'switch (v["method"]) {',
      'case "tools/call":',
      "return cCall(v, f);",
      "default:",
      `return v["method"] === undefined ? missing(f, "method") : failAt(f, "method", "enum", "must be one of ${long(90)}");`,
      "}",
    ],
  ],
  [
    "nested blocks and loops indent once a level; a switch's statements twice",
    [
      "let x: unknown;",
      "for (const k in v) {",
      "switch (k) {",
      'case "a":',
      'case "b":',
      "continue;",
      "}",
      'x = k === "__proto__" ? own(v, k) : v[k];',
      "if (x !== undefined) {",
      `if (typeof x === "string" && !isBase64(x)) return failAt(f, k, "format", "must be base64 (format \\"byte\\")${long(30)}");`,
      "}",
      "}",
      "return true;",
    ],
  ],
  [
    "quotes: more double than single quotes in a string take single quotes",
    ['return fail(f, "const", "must be \\"it\'s\\" \\"x\\"");'],
  ],
  ["a signature that does not fit takes a parameter a line", ["return true;"], `c${long(80)}`],
];

describe("check functions laid out as prettier prints them", () => {
  for (const [name, body, functionName] of cases) {
    it(name, async () => {
      const comment = `/** ${name} */`;
      const laidOut = layoutCheckFunction(comment, signature(functionName), body);
      expect(laidOut).toBeDefined();
      expect(laidOut).toBe(await prettierForm(comment, signature(functionName), body));
    });
  }

  it("puts the width where prettier does: 100 columns fit, 101 do not", () => {
    const lines = layoutCheckFunction("/** x */", signature(), [
      `if (x !== "${long(59)}") return fail(f, "a", "b");`,
      `if (x !== "${long(60)}") return fail(f, "a", "b");`,
    ])!.split("\n");
    expect(lines[2]!.length).toBe(100);
    expect(lines[3]).toBe(`  if (x !== "${long(60)}")`);
    expect(lines[4]).toBe('    return fail(f, "a", "b");');
  });

  it("leaves to prettier what it does not cover", () => {
    const leftOut: [string, string[]][] = [
      ["a test of && and || mixed that must break", [`if (a${long(50)} && b${long(30)} || c${long(30)}) return true;`]],
      ["a long assignment", [`x = cSomething(${Array.from({ length: 12 }, () => "argument").join(", ")});`]],
      ["a long block header", [`if (${long(100)} !== undefined) {`, "}"]],
      ["a string with a character outside printable ASCII", ['return fail(f, "type", "é");']],
      ["a single-quoted string in the source", ["return fail(f, 'type', 'x');"]],
      ["a case outside a switch", ['case "a":', "return true;"]],
      ["a block left open", ["if (x !== undefined) {", "return true;"]],
      ["a call argument that would break inside", [`return fail(f, cNested(${long(50)}, ${long(50)}), "x");`]],
    ];
    for (const [what, body] of leftOut)
      expect(layoutCheckFunction("/** x */", signature(), body), what).toBeUndefined();
    expect(layoutCheckFunction("/** two\nlines */", signature(), ["return true;"])).toBeUndefined();
  });
});
