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
  return /^[\x20-\x7e]*$/.test(JSON.stringify(text));
}

/** A string literal as prettier writes it (singleQuote: false). */
export function stringLiteral(value: string): string {
  const json = JSON.stringify(value);
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
