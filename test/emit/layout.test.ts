// The emitters' own layout (generator/emit/layout.ts): code indented by its
// brackets, whatever indentation the emitter's template had, and data tables
// as JSON.parse of one ASCII string that gives the value back unchanged.
import { describe, expect, test } from "vitest";
import { jsonParseOf, plainLayout } from "../../generator/emit/layout.js";

describe("plainLayout", () => {
  test("indents two spaces a bracket level, whatever the input's indentation", () => {
    const code = `
        export function f(v: unknown): boolean {
                  if (!ok(v)) {
          return fail(f, "type", "must be an object");
      }
                return [
        1,
                  { a: 2 },
        ].length > 0;
        }
    `;
    expect(plainLayout(code)).toBe(
      [
        "export function f(v: unknown): boolean {",
        "  if (!ok(v)) {",
        '    return fail(f, "type", "must be an object");',
        "  }",
        "  return [",
        "    1,",
        "    { a: 2 },",
        "  ].length > 0;",
        "}",
      ].join("\n"),
    );
  });

  test("brackets inside strings and comments do not count", () => {
    const code = ['const a = "{[(";', "const b = 'a \\' ['; // (", "const c = { /* { */", "d: 1,", "};"].join("\n");
    expect(plainLayout(code)).toBe(
      ['const a = "{[(";', "const b = 'a \\' ['; // (", "const c = { /* { */", "  d: 1,", "};"].join("\n"),
    );
  });

  test("a line that closes and opens stays at the outer level: } else {, }, {, })", () => {
    const code = ["if (a) {", "x();", "} else {", "y(", "{", "z: 1,", "},", "{ w: 2 },", ");", "}"].join("\n");
    expect(plainLayout(code)).toBe(
      ["if (a) {", "  x();", "} else {", "  y(", "    {", "      z: 1,", "    },", "    { w: 2 },", "  );", "}"].join(
        "\n",
      ),
    );
  });

  test("a switch's labels sit one level in, their statements two, nested blocks deeper", () => {
    const laidOut = `function g(k: string) {
  switch (k) {
    case "a":
    case "b":
      continue;
    default:
      if (k) {
        return 1;
      }
  }
  return 0;
}`;
    expect(plainLayout(laidOut.replace(/^ +/gm, ""))).toBe(laidOut);
  });

  test("JSDoc lines sit under the first line's star; a conditional type's branches one level in", () => {
    const code = ["  /**", "      * Params of M.", "   */", "export type P<M> = M extends A", "? X", ": Y;"].join("\n");
    expect(plainLayout(code)).toBe(
      ["/**", " * Params of M.", " */", "export type P<M> = M extends A", "  ? X", "  : Y;"].join("\n"),
    );
  });

  test("keeps one blank line of a run, none at either end", () => {
    expect(plainLayout("\n\na;\n\n\n\nb;\n\n")).toBe("a;\n\nb;");
  });
});

describe("jsonParseOf", () => {
  const evaluate = (source: string): unknown => {
    const match = /^JSON\.parse\(("(?:[^"\\]|\\.)*")\)$/.exec(source);
    expect(match, source).not.toBeNull();
    return JSON.parse(JSON.parse(match![1]!) as string);
  };

  test("gives back the value, key order included, in ASCII", () => {
    const value = {
      z: [1, -2.5, null, true, 'quote " and backslash \\'],
      a: { "tools/call": { description: "café ✓ \u2028 𝄞" } },
      "1": "integer-like keys come first, in a literal as in JSON.parse",
    };
    const source = jsonParseOf(value);
    expect(source).toMatch(/^[\x20-\x7e]*$/);
    const back = evaluate(source);
    expect(back).toEqual(value);
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
  });

  test("a __proto__ key stays a property of its own (a literal would set the prototype)", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const back = evaluate(jsonParseOf(value)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
  });
});
