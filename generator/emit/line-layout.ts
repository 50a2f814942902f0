// Code the emitters write one construct a line, laid out the way prettier
// prints it, so that formatting skips it (format.ts): the declarations of
// types.ts (typescript.ts writes its JSDoc, `interface X {`, each member on a
// line of its own, an object type's members on lines of their own), and the
// tables and one-statement functions of tables.ts, validators.ts and guards.ts. Where
// every line fits in the width, prettier's output is those lines re-indented
// (prettier 3, the options of format.ts):
// - an object, object type or interface body written across lines stays
//   across lines (prettier keeps an object broken that its source breaks after
//   "{"), and so does a function body;
// - a line that fits is not broken;
// - a JSDoc comment keeps its text; each line after the first is indented to
//   its declaration's column plus one space;
// - an object literal's last entry takes a trailing comma, as every other;
// - a quoted key that is an identifier loses its quotes; a string takes single
//   quotes when it holds more double quotes than single ones;
// - one blank line between top-level declarations is kept, more are one.
// Code with a line that does not fit, or a construct outside the forms below
// (an object type inside a union, an array, an arrow function, say), gets
// undefined and the caller leaves it to prettier; a test compares every
// generated file with prettier's output (test/emit/format.test.ts).
import {
  fitting,
  indentWidth,
  layoutSignature,
  normalize,
  pad,
  stringEnd,
  Unsupported,
  unlessUnsupported,
} from "./prettier-form.js";

/** What a block holds: members of an object type, entries of an object literal, statements of a function. */
type Block = "type" | "object" | "body";

/** Lines that open a block, by what they open (`within`: the block they may stand in; undefined: the top level). */
const openers: { readonly line: RegExp; readonly opens: Block; readonly within: readonly (Block | undefined)[] }[] = [
  { line: /^(export )?interface [\w$]+( extends [\w$<>", |]+)? \{$/, opens: "type", within: [undefined] },
  { line: /^(export )?type [\w$]+ = \{$/, opens: "type", within: [undefined] },
  { line: /^(readonly )?([\w$]+|"[^"]*"|'[^']*')\??: ([\w$]+ & )?\{$/, opens: "type", within: ["type"] },
  { line: /^\[[\w$]+: (string|number)\]: \{$/, opens: "type", within: ["type"] },
  { line: /^(export )?function [\w$]+\([^{}=]*\)(: [^{}=]+)? \{$/, opens: "body", within: [undefined] },
  { line: /^(export )?const [\w$]+(: [^{}=]+)? = \{$/, opens: "object", within: [undefined] },
  { line: /^([\w$]+|"[^"]*"|'[^']*'): \{$/, opens: "object", within: ["object"] },
];

/** Lines that close a block, by the block and where it stands. */
function closes(line: string, block: Block, nested: boolean): boolean {
  switch (block) {
    case "type":
      return nested ? /^\}(;|\[\];)$/.test(line) : line === "}" || line === "};";
    case "object":
      return nested ? line === "}," : /^\}( as const( satisfies [\w$.]+)?)?;$/.test(line);
    case "body":
      return line === "}";
  }
}

/** The code as prettier prints it, or undefined when it holds something not covered here. */
export function layoutLines(source: string): string | undefined {
  return unlessUnsupported(() => layout(source.trim().split("\n")));
}

function layout(lines: readonly string[]): string {
  const out: string[] = [];
  const blocks: Block[] = [];
  let inComment = false;
  for (const raw of lines) {
    const text = raw.trim();
    const indent = blocks.length * indentWidth;
    if (inComment) {
      // prettier re-indents only comments of "*" lines; trailing spaces it keeps or not by version.
      if (!text.startsWith("*") || raw.trimEnd() !== raw) throw new Unsupported();
      out.push(`${pad(indent)} ${text}`);
      inComment = !text.endsWith("*/");
      continue;
    }
    if (text === "") {
      if (blocks.length > 0) throw new Unsupported();
      if (out.at(-1) !== "") out.push("");
      continue;
    }
    if (text.startsWith("/*")) {
      if (text === "/**") inComment = true;
      else if (!text.startsWith("/**") || !text.endsWith("*/")) throw new Unsupported();
      out.push(pad(indent) + text);
      continue;
    }
    const line = unquoteKey(normalize(text));
    const block = blocks.at(-1);
    if (block !== undefined && closes(line, block, blocks.length > 1)) {
      blocks.pop();
      out.push(fitting(blocks.length * indentWidth, line));
    } else if (line.endsWith("{")) {
      const opener = openers.find((o) => o.within.includes(block) && o.line.test(line));
      if (!opener) throw new Unsupported();
      // A function's signature that does not fit takes a parameter a line.
      out.push(...(opener.opens === "body" ? layoutSignature(line) : [fitting(indent, line)]));
      blocks.push(opener.opens);
    } else out.push(fitting(indent, single(line, block)));
  }
  if (blocks.length > 0 || inComment) throw new Unsupported();
  return out.join("\n");
}

/**
 * A member, entry or statement on one line, as prettier keeps it: nothing it
 * would lay out on lines of their own (an object but an empty one, an array,
 * an arrow function), nor a number it would rewrite (1e+21 as 1e21).
 */
function single(line: string, block: Block | undefined): string {
  const code = withoutStrings(line);
  if (/[{}]/.test(code.replaceAll("{}", "")) || /[[\]]$|=>|`/.test(code) || /\d[eE]/.test(code))
    throw new Unsupported();
  if (block === "object") return line.endsWith(",") ? line : `${line},`;
  if (!line.endsWith(";") && !(block === undefined && line.endsWith(" {}"))) throw new Unsupported();
  return line;
}

/** `"name": ...` as `name: ...` when the name is an identifier (quoteProps "as-needed"); a numeric key is not covered. */
function unquoteKey(line: string): string {
  if (/^(readonly )?["']\d/.test(line)) throw new Unsupported();
  const quoted = /^(["'])([A-Za-z_$][\w$]*)\1(\??:)/.exec(line);
  if (!quoted) return line;
  // prettier unquotes it too, which turns a data member into the object's prototype: not covered.
  if (quoted[2] === "__proto__") throw new Unsupported();
  return quoted[2]! + line.slice(quoted[0].length - quoted[3]!.length);
}

/** The line with its string literals emptied. */
function withoutStrings(line: string): string {
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' || c === "'") {
      i = stringEnd(line, i);
      out += "''";
    } else out += c;
  }
  return out;
}
