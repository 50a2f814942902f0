// How the emitters lay out what prettier does not format: code indented by
// its brackets, and large data tables as one JSON string. Neither depends on
// line width, so the same code gives the same text, whatever surrounds it.

const indentUnit = "  ";

/**
 * Code re-indented two spaces a bracket level, as the emitters write it: one
 * statement, member or entry a line; `case` labels one level in from their
 * switch, and a conditional type's `?`/`:` lines one level in from its head.
 * Lines are never joined or broken; runs of blank lines become one.
 */
export function plainLayout(code: string): string {
  const out: string[] = [];
  let depth = 0;
  let inComment = false;
  /** The bracket depth inside each open switch (where its labels stand), innermost last. */
  const switches: number[] = [];
  /** The indent of a line at bracket depth `at`: a switch's statements sit one level in from its labels. */
  const indent = (at: number, label = false) =>
    indentUnit.repeat(at + switches.filter((inside) => (label ? inside < at : inside <= at)).length);
  for (const raw of code.split("\n")) {
    const line = raw.trim();
    if (line === "") {
      if (out.length > 0 && out[out.length - 1] !== "") out.push("");
      continue;
    }
    if (inComment || line.startsWith("/*")) {
      // A JSDoc line after the first sits one column in, under the first line's "*".
      out.push(indent(depth) + (inComment ? " " : "") + line);
      inComment = !line.endsWith("*/");
      continue;
    }
    const { leadingClosers, net } = brackets(line);
    const at = Math.max(0, depth - leadingClosers);
    while (switches.length > 0 && at < switches[switches.length - 1]!) switches.pop();
    const continuation = /^[?:] /.test(line) ? indentUnit : "";
    out.push(indent(at, /^(case .*|default):$/.test(line)) + continuation + line);
    depth = Math.max(0, depth + net);
    if (/^switch \(.*\) \{$/.test(line)) switches.push(depth);
  }
  while (out[out.length - 1] === "") out.pop();
  return out.join("\n");
}

/** A line's closing brackets before anything else, and its opened minus closed brackets, outside strings and comments. */
function brackets(line: string): { leadingClosers: number; net: number } {
  let leadingClosers = 0;
  let leading = true;
  let net = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' || c === "'" || c === "`") {
      i = stringEnd(line, i);
      leading = false;
    } else if (c === "/" && line[i + 1] === "/") break;
    else if (c === "/" && line[i + 1] === "*") {
      const end = line.indexOf("*/", i + 2);
      if (end < 0) break;
      i = end + 1;
    } else if (c === "{" || c === "[" || c === "(") {
      net++;
      leading = false;
    } else if (c === "}" || c === "]" || c === ")") {
      net--;
      if (leading) leadingClosers++;
    } else if (c !== " ") leading = false;
  }
  return { leadingClosers, net };
}

/** The index of the quote closing the string opened at `start` (the line's end if it does not close). */
function stringEnd(line: string, start: number): number {
  for (let i = start + 1; i < line.length; i++) {
    if (line[i] === "\\") i++;
    else if (line[i] === line[start]) return i;
  }
  return line.length;
}

/**
 * `JSON.parse("...")` of a JSON value: how a large data table is written, so
 * that loading it parses a string instead of compiling a literal, and nothing
 * after the emitter rewrites it. ASCII only (other characters as \u escapes).
 */
export function jsonParseOf(value: unknown): string {
  const text = JSON.stringify(JSON.stringify(value)).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `JSON.parse(${text})`;
}
