// Declarations of types.ts (types-file.ts) laid out the way prettier prints
// them, so that formatting skips them (format.ts): they were a quarter of the
// text prettier was given. typescript.ts writes a declaration one construct a
// line: its JSDoc, `interface X {`, each member on a line of its own, an
// object type's members on lines of their own. Where every line fits in the
// width, prettier's output is those lines re-indented (prettier 3, the options
// of format.ts):
// - an object type or interface body written across lines stays across lines
//   (prettier keeps an object broken that its source breaks after "{");
// - a line that fits is not broken;
// - a JSDoc comment keeps its text; each line after the first is indented to
//   its declaration's column plus one space;
// - a string takes single quotes when it holds more double quotes than single ones.
// A declaration with a line that does not fit, or a construct outside the
// forms below (an object type inside a union, say), gets undefined and the
// caller leaves it to prettier; a test compares every generated file with
// prettier's output (test/emit/format.test.ts).
import { indentWidth, normalize, pad, printWidth, stringEnd, Unsupported } from "./prettier-form.js";

/** Lines that open an object type prettier keeps where it is: an interface, an alias, a member, an index signature. */
const openers = [
  /^(export )?interface [\w$]+( extends [\w$<>", |]+)? \{$/,
  /^(export )?type [\w$]+ = \{$/,
  /^(readonly )?([\w$]+|"[^"]*"|'[^']*')\??: ([\w$]+ & )?\{$/,
  /^\[[\w$]+: (string|number)\]: \{$/,
];
/** Lines that close one: a body, a member's object type, an array of them. */
const closer = /^\}(;|\[\];)?$/;

/** The declaration as prettier prints it, or undefined when it holds something not covered here. */
export function layoutTypeDeclaration(source: string): string | undefined {
  try {
    return layout(source.split("\n"));
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function layout(lines: readonly string[]): string {
  const out: string[] = [];
  let depth = 0;
  let inComment = false;
  for (const raw of lines) {
    const text = raw.trim();
    const indent = depth * indentWidth;
    if (inComment) {
      // prettier re-indents only comments of "*" lines; trailing spaces it keeps or not by version.
      if (!text.startsWith("*") || raw.trimEnd() !== raw) throw new Unsupported();
      out.push(`${pad(indent)} ${text}`);
      inComment = !text.endsWith("*/");
      continue;
    }
    if (text.startsWith("/*")) {
      if (text === "/**") inComment = true;
      else if (!text.startsWith("/**") || !text.endsWith("*/")) throw new Unsupported();
      out.push(pad(indent) + text);
      continue;
    }
    const line = normalize(text);
    if (closer.test(line)) {
      depth--;
      if (depth < 0) throw new Unsupported();
      out.push(fitting(depth * indentWidth, line));
    } else if (line.endsWith("{")) {
      if (!openers.some((opener) => opener.test(line))) throw new Unsupported();
      out.push(fitting(indent, line));
      depth++;
    } else {
      // A member, an alias or a constant on one line: no object type inside but an empty one.
      if (!line.endsWith(";") && !line.endsWith(" {}")) throw new Unsupported();
      if (hasBrace(line.replaceAll("{}", ""))) throw new Unsupported();
      // prettier rewrites numbers such as 1e+21 (to 1e21), and may unquote a numeric key.
      if (/\d[eE]/.test(withoutStrings(line)) || /^(readonly )?["']\d/.test(line)) throw new Unsupported();
      out.push(fitting(indent, line));
    }
  }
  if (depth !== 0 || inComment) throw new Unsupported();
  return out.join("\n");
}

function fitting(indent: number, line: string): string {
  if (indent + line.length > printWidth) throw new Unsupported();
  return pad(indent) + line;
}

function hasBrace(line: string): boolean {
  const code = withoutStrings(line);
  return code.includes("{") || code.includes("}");
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
