// Large data tables (the shims' shapes and plans) printed here the way
// prettier prints them, so that formatting skips them: they were 40% of the
// text prettier was given and most of a generation's time. This covers JSON
// values written as a one-line literal (what JSON.stringify gives) under the
// options of format.ts (printWidth 100, two spaces, trailing commas, double
// quotes); any value outside what it covers gets undefined, and the caller
// leaves that table to prettier. A test compares the two for every table of
// every revision (test/emit/format.test.ts).
//
// The rules, from prettier 3's printer for these nodes:
// - an object or array is one line when that line (with what follows it up to
//   the next line break: "," or ";") fits in the width, else one entry a line
//   with a trailing comma; an object is never kept broken for a newline in
//   its source here, as the source prettier would see is one line;
// - an array of two or more objects with two or more properties each (or of
//   arrays with two or more elements) always breaks, and a broken group
//   breaks every group around it;
// - a property whose value is a string, null or a negative number moves the
//   value to the next line, indented, when the line does not fit, unless its
//   key is shorter than 5 columns; a positive number or a boolean never moves;
// - a key is unquoted when it is an identifier name; a string takes single
//   quotes when it holds more double quotes than single ones.

import {
  indentWidth,
  printableAscii,
  printWidth,
  stringLiteral,
  Unsupported,
  unlessUnsupported,
} from "./prettier-form.js";

/** prettier's isObjectPropertyWithShortKey: a key narrower than tabWidth + 3 never breaks from its value. */
const shortKeyWidth = indentWidth + 3;

type Data = null | boolean | number | string | Data[] | { [key: string]: Data };

/**
 * `const <name>: <type> = <value><suffix>;` as prettier prints it (`suffix`:
 * " as const", say), or with `returns`, `const <name> = (): <returns> =>
 * (<value>)<suffix>;` (data built when it is first asked for); undefined when
 * the value holds something this printer does not cover.
 */
export function printDataDeclaration(
  declaration: string,
  value: unknown,
  suffix = "",
  returns?: string,
): string | undefined {
  return unlessUnsupported(() => {
    const data = asData(value);
    if (data === null || typeof data !== "object") throw new Unsupported();
    const { prefix, close } = dataDeclarationParts(declaration, suffix, returns);
    return `${prefix}${print(data, 0, prefix.length, close.length + 1)}${close};`;
  });
}

/** What comes before and after a data declaration's value: the prefix up to it, and the close before ";". */
export function dataDeclarationParts(declaration: string, suffix: string, returns: string | undefined) {
  return returns === undefined
    ? { prefix: `${declaration} = `, close: suffix }
    : { prefix: `${declaration} = (): ${returns} => (`, close: `)${suffix}` };
}

function asData(value: unknown): Data {
  if (typeof value === "string" && !printableAscii(value)) throw new Unsupported();
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") {
    // Integers print alike; prettier rewrites other forms (1e+21 → 1e21, 1.50 → 1.5).
    if (!Number.isSafeInteger(value)) throw new Unsupported();
    return value;
  }
  if (Array.isArray(value)) {
    // prettier fills arrays of numbers several to a line.
    if (value.length > 0 && value.every((element) => typeof element === "number")) throw new Unsupported();
    return value.map(asData);
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: { [key: string]: Data } = {};
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      // Object.entries lists integer-like keys first: the literal would differ from the insertion order.
      if (/^\d/.test(key) || !printableAscii(key)) throw new Unsupported();
      if (entry !== undefined) out[key] = asData(entry);
    }
    return out;
  }
  throw new Unsupported();
}

/** Whether the value's group breaks whatever the width: prettier's shouldBreak, propagated outwards. */
function mustBreak(value: Data, memo = new Map<object, boolean>()): boolean {
  if (value === null || typeof value !== "object") return false;
  const known = memo.get(value);
  if (known !== undefined) return known;
  let breaks: boolean;
  if (Array.isArray(value)) {
    const multi = (element: Data) =>
      element !== null &&
      typeof element === "object" &&
      (Array.isArray(element) ? element.length : Object.keys(element).length) > 1;
    const sameKind = value.every((element) => Array.isArray(element) === Array.isArray(value[0]));
    breaks = (value.length > 1 && sameKind && value.every(multi)) || value.some((e) => mustBreak(e, memo));
  } else breaks = Object.values(value).some((e) => mustBreak(e, memo));
  memo.set(value, breaks);
  return breaks;
}

/** The value on one line. */
function flat(value: Data): string {
  if (value === null || typeof value !== "object") return atom(value);
  if (Array.isArray(value)) return `[${value.map(flat).join(", ")}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{ ${entries.map(([key, entry]) => `${printKey(key)}: ${flat(entry)}`).join(", ")} }`;
}

/** The width of flat(value), or Infinity once it passes `limit`: a large table is not written out to find it does not fit. */
function flatWidth(value: Data, limit: number): number {
  if (value === null || typeof value !== "object") return atom(value).length;
  let width = 2; // the brackets or braces
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && width <= limit; i++)
      width += (i > 0 ? 2 : 0) + flatWidth(value[i]!, limit - width);
    return width <= limit ? width : Infinity;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return width;
  width += 2; // "{ " and " }" have a space each
  for (let i = 0; i < entries.length && width <= limit; i++) {
    const [key, entry] = entries[i]!;
    width += (i > 0 ? 2 : 0) + printKey(key).length + 2 + flatWidth(entry, limit - width);
  }
  return width <= limit ? width : Infinity;
}

/**
 * The value printed at `column` on a line indented by `indent`, followed on
 * its last line by `trailing` columns (the "," or ";" after it).
 */
function print(value: Data, indent: number, column: number, trailing: number): string {
  if (value === null || typeof value !== "object") return atom(value);
  const room = printWidth - column - trailing;
  if (!mustBreak(value) && flatWidth(value, room) <= room) return flat(value);
  const inner = indent + indentWidth;
  const pad = " ".repeat(inner);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const lines = value.map((element) => `${pad}${print(element, inner, inner, 1)},`);
    return `[\n${lines.join("\n")}\n${" ".repeat(indent)}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const lines = entries.map(([key, entry]) => `${pad}${printProperty(printKey(key), entry, inner)},`);
  return `{\n${lines.join("\n")}\n${" ".repeat(indent)}}`;
}

/** `key: value` at the start of a line indented by `indent`, before its ",". */
function printProperty(key: string, value: Data, indent: number): string {
  const head = `${key}: `;
  if (value !== null && typeof value === "object") return head + print(value, indent, indent + head.length, 1);
  const text = atom(value);
  const movable = typeof value === "string" || value === null || (typeof value === "number" && value < 0);
  if (!movable || key.length < shortKeyWidth || indent + head.length + text.length + 1 <= printWidth)
    return head + text;
  return `${key}:\n${" ".repeat(indent + indentWidth)}${text}`;
}

function atom(value: null | boolean | number | string): string {
  return typeof value === "string" ? stringLiteral(value) : String(value);
}

/** A key as prettier prints it with quoteProps "as-needed": bare when it is an (ASCII) identifier name. */
export function printKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : atom(key);
}
