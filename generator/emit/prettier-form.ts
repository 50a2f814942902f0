// What the printers that write prettier's form themselves (data-literal.ts,
// check-layout.ts) share with prettier's options in format.ts: the width, the
// indent, and how prettier writes a string literal.

export const printWidth = 100;
export const indentWidth = 2;

/** Signals a construct the printer does not cover: the caller leaves that part to prettier. */
export class Unsupported extends Error {}

/**
 * Whether a string is written with printable ASCII alone (JSON escapes the
 * control characters): other characters may take other widths (prettier
 * counts East Asian wide characters as two columns).
 */
export function printableAscii(text: string): boolean {
  return printable.test(text) || printable.test(JSON.stringify(text));
}
const printable = /^[\x20-\x7e]*$/;

/** A string literal as prettier writes it (singleQuote: false). */
export function stringLiteral(value: string): string {
  const json = JSON.stringify(value);
  if (!value.includes('"')) return json;
  let doubles = 0;
  let singles = 0;
  for (const c of value) {
    if (c === '"') doubles++;
    else if (c === "'") singles++;
  }
  if (doubles <= singles) return json;
  // prettier's preferred quote is the one the string holds fewer of.
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

export function pad(indent: number): string {
  return " ".repeat(indent);
}

/**
 * A line of code with each string literal as prettier writes it. Only lines of
 * printable ASCII (no wide characters: widths are counted in code units) with
 * double-quoted (JSON) strings are covered.
 */
export function normalize(line: string): string {
  if (!/^[\x20-\x7e]*$/.test(line)) throw new Unsupported();
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === "`") throw new Unsupported();
    if (c !== '"') {
      out += c;
      continue;
    }
    const end = stringEnd(line, i);
    const literal = line.slice(i, end + 1);
    // Without a backslash there is no double quote inside: prettier keeps it as it is.
    out += literal.includes("\\") ? stringLiteral(JSON.parse(literal) as string) : literal;
    i = end;
  }
  return out;
}

/** The index of the quote closing the string literal opened at `start`. */
export function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  throw new Unsupported();
}
