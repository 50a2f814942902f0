// What the printers that write prettier's form themselves (data-literal.ts,
// check-layout.ts) share with prettier's options in format.ts: the width, the
// indent, and how prettier writes a string literal.

export const printWidth = 100;
export const indentWidth = 2;

/** Signals a construct the printer does not cover: the caller leaves that part to prettier. */
export class Unsupported extends Error {}

/** What `print` returns, or undefined when it meets a construct it does not cover (Unsupported). */
export function unlessUnsupported(print: () => string): string | undefined {
  try {
    return print();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

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

/** The line at `indent`; a line that does not fit would need a rule this file does not have. */
export function fitting(indent: number, line: string): string {
  if (indent + line.length > printWidth) throw new Unsupported();
  return pad(indent) + line;
}

/**
 * A function's signature line (ending in " {"): as it is when it fits, else one
 * parameter a line with a trailing comma.
 */
export function layoutSignature(line: string): string[] {
  if (line.length <= printWidth) return [line];
  const open = line.indexOf("(");
  const close = closingParen(line, open);
  const rest = line.slice(close + 1);
  if (!rest.endsWith(" {")) throw new Unsupported();
  const params = line.slice(open + 1, close);
  if (params === "") throw new Unsupported();
  return [
    line.slice(0, open + 1),
    ...splitTopLevel(params, ", ").map((param) => fitting(indentWidth, `${param},`)),
    fitting(0, `)${rest}`),
  ];
}

/** The index of the parenthesis closing the one at `open`. */
export function closingParen(text: string, open: number): number {
  if (text[open] !== "(") throw new Unsupported();
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = stringEnd(text, i);
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") {
      depth--;
      if (depth === 0) return i;
    }
  }
  throw new Unsupported();
}

/** `text` split at each `separator` outside strings, parentheses and brackets. */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = stringEnd(text, i);
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
      i = start - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
