// packages/json-literals.mjs: the runtime bundle's large plain-data literals
// become JSON.parse of a string. Each case bundles a small module with the
// plugin (as packages/bundle.mjs does), imports the result and compares it
// with the module as written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { rolldown } from "rolldown";
import { afterAll, describe, expect, test } from "vitest";
// @ts-expect-error: a plain ES module of the packaging scripts, without declarations
import { jsonLiteralsPlugin } from "../../packages/json-literals.mjs";

const dir = mkdtempSync(join(tmpdir(), "mcpgen-json-literals-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

/** Bundles `source` with the plugin (literals of `minLength` characters and more); the output's text and exports. */
async function bundled(source: string, minLength = 20): Promise<{ text: string; exports: Record<string, unknown> }> {
  const name = `case${count++}`;
  const input = join(dir, `${name}.js`);
  writeFileSync(input, source);
  const bundle = await rolldown({ input, logLevel: "silent", plugins: [jsonLiteralsPlugin(() => true, minLength)] });
  await bundle.write({ dir: join(dir, "out"), format: "esm", entryFileNames: `${name}.mjs` });
  await bundle.close();
  const output = join(dir, "out", `${name}.mjs`);
  return { text: readFileSync(output, "utf8"), exports: await import(pathToFileURL(output).href) };
}

/** The module as written, evaluated without the plugin. */
async function asWritten(source: string): Promise<Record<string, unknown>> {
  const file = join(dir, `plain${count++}.mjs`);
  writeFileSync(file, source);
  return import(pathToFileURL(file).href);
}

describe("large plain-data literals load as JSON.parse", () => {
  test("a literal of objects, arrays, strings, numbers, booleans and null: same value, same key order", async () => {
    // Non-ASCII text before and inside the literal: offsets are UTF-16 code units, quotes and escapes survive.
    const source = `// Größe — ✓ 😀
export const data = {
  "quoted key": "a \\"quoted\\" value\\nwith a newline",
  zebra: 1, alpha: -2.5, "10": "integer-like keys go first, in both forms",
  nested: { list: [1, "two", true, false, null, { deep: [[], {}] }], text: "naïve 😀 \\u2028" },
  negative: -1e-7,
};
`;
    const { text, exports } = await bundled(source);
    expect(text).toMatch(/const data = JSON\.parse\(/);
    const written = await asWritten(source);
    expect(JSON.stringify(exports["data"])).toBe(JSON.stringify(written["data"]));
    expect(Object.keys(exports["data"] as object)).toEqual(Object.keys(written["data"] as object));
  });

  test("literals shorter than the threshold stay as written", async () => {
    const { text, exports } = await bundled(`export const small = { a: 1 };\n`, 4096);
    expect(text).not.toContain("JSON.parse");
    expect(exports["small"]).toEqual({ a: 1 });
  });

  test("a literal with anything but plain data stays; the plain parts inside it are converted", async () => {
    const source = `const f = () => 1;
export const mixed = { fn: f, table: { a: "plain", b: [1, 2, 3], c: { d: "more plain data here" } } };
`;
    const { text, exports } = await bundled(source);
    expect(text).toMatch(/fn: f,\s*table: JSON\.parse\(/);
    expect((exports["mixed"] as { fn: () => number }).fn()).toBe(1);
    expect((exports["mixed"] as { table: unknown }).table).toEqual({
      a: "plain",
      b: [1, 2, 3],
      c: { d: "more plain data here" },
    });
  });

  test.each([
    [
      "a __proto__ key (sets the prototype in a literal)",
      `{ __proto__: { inherited: 1 }, padding: "xxxxxxxxxxxxxxxx" }`,
    ],
    ["-0 (JSON gives 0)", `{ zero: -0, padding: "xxxxxxxxxxxxxxxxxxxxxxxx" }`],
    ["an array hole", `[1, , 3, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]`],
    ["undefined", `{ u: undefined, padding: "xxxxxxxxxxxxxxxxxxxxx" }`],
    ["a regular expression", `{ r: /x/g, padding: "xxxxxxxxxxxxxxxxxxxxxxxxx" }`],
    ["a computed key", `{ ["k" + 1]: 1, padding: "xxxxxxxxxxxxxxxxxxxxxxxx" }`],
    ["a spread", `{ ...{ a: 1 }, padding: "xxxxxxxxxxxxxxxxxxxxxxxxxx" }`],
    ["a method", `{ m() { return 1; }, padding: "xxxxxxxxxxxxxxxxxxxx" }`],
    ["a template literal", "{ t: `x`, padding: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' }"],
    ["Infinity", `{ i: Infinity, padding: "xxxxxxxxxxxxxxxxxxxxxxxxxx" }`],
    ["a duplicate key", `{ a: 1, a: 2, padding: "xxxxxxxxxxxxxxxxxxxxxxxxxx" }`],
  ])("%s: the literal stays as written", async (_what, literal) => {
    const source = `export const value = ${literal};\n`;
    const { text, exports } = await bundled(source);
    expect(text).not.toContain("JSON.parse");
    const written = await asWritten(source);
    // Compared as printed (functions and regular expressions print their source) and by prototype's keys.
    const printed = (value: unknown) => [inspect(value, { depth: null }), Object.keys(Object.getPrototypeOf(value))];
    expect(printed(exports["value"])).toEqual(printed(written["value"]));
  });
});
