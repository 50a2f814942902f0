// Check functions (checks-file.ts) laid out the way prettier prints them, so
// that formatting skips them (format.ts): they were ~40% of the text prettier
// was given. The check emitter writes a small, fixed set of statement forms,
// one a line, and for those prettier's layout comes down to the rules below
// (prettier 3, the options of format.ts). A function with anything else gets
// undefined, and the caller leaves it to prettier; a test compares every
// generated file with prettier's output (test/emit/format.test.ts).
//
// The rules:
// - a statement, a block header or the signature that fits in the width
//   (what follows it up to the line break included: ";", " {") is one line;
// - a signature that does not fit takes one parameter a line, with a trailing comma;
// - `if (T) return R;` that does not fit puts `return R;` on the next line,
//   indented; if `if (T)` does not fit either, T (a chain of one of && or ||)
//   takes one operand a line between `if (` and `)`;
// - `return C(A, B);` that does not fit takes one argument a line, with a trailing comma;
// - `return T ? A : B;` that does not fit puts `? A` and `: B;` on lines of
//   their own, indented; a call among them that does not fit takes one argument
//   a line, aligned two columns in from its `?` or `:`;
// - inside a switch, `case X:` and `default:` are indented once and their statements twice;
// - a string takes single quotes when it holds more double quotes than single ones.
import {
  closingParen,
  fitting,
  indentWidth,
  layoutSignature,
  normalize,
  pad,
  printWidth,
  splitTopLevel,
  Unsupported,
  unlessUnsupported,
} from "./prettier-form.js";

/**
 * The function `/** comment *\/`, `signature` (ending in " {"), `body` (one
 * statement, block header, `case`, or "}" a line, unindented) and its closing
 * brace, as prettier prints it; undefined when it holds a construct not covered here.
 */
export function layoutCheckFunction(comment: string, signature: string, body: readonly string[]): string | undefined {
  return unlessUnsupported(() => {
    if (comment.includes("\n") || !comment.startsWith("/**") || !comment.endsWith("*/")) throw new Unsupported();
    return [comment, ...layoutSignature(normalize(signature)), ...layoutBody(body), "}"].join("\n");
  });
}

function layoutBody(lines: readonly string[]): string[] {
  const out: string[] = [];
  /** The open blocks, innermost last: a switch's statements sit two levels in. */
  const blocks: ("block" | "switch")[] = [];
  let depth = 1;
  for (const line of lines) {
    if (line === "}") {
      const kind = blocks.pop();
      if (kind === undefined) throw new Unsupported();
      depth -= kind === "switch" ? 2 : 1;
      out.push(`${pad(depth * indentWidth)}}`);
    } else if (line.endsWith(" {")) {
      out.push(fitting(depth * indentWidth, normalize(line)));
      const kind = line.startsWith("switch (") ? "switch" : "block";
      blocks.push(kind);
      depth += kind === "switch" ? 2 : 1;
    } else if (/^(case .*|default):$/.test(line)) {
      if (blocks[blocks.length - 1] !== "switch") throw new Unsupported();
      out.push(fitting((depth - 1) * indentWidth, normalize(line)));
    } else out.push(...layoutStatement(normalize(line), depth * indentWidth));
  }
  if (blocks.length > 0) throw new Unsupported();
  return out;
}

function layoutStatement(statement: string, indent: number): string[] {
  if (indent + statement.length <= printWidth) return [pad(indent) + statement];
  if (statement.startsWith("if (")) {
    const close = closingParen(statement, 3);
    const consequent = statement.slice(close + 2);
    if (statement[close + 1] !== " " || !consequent.startsWith("return ")) throw new Unsupported();
    const head =
      indent + close + 1 <= printWidth
        ? [pad(indent) + statement.slice(0, close + 1)]
        : brokenTest(statement.slice(4, close), indent);
    return [...head, ...layoutReturn(consequent, indent + indentWidth)];
  }
  if (statement.startsWith("return ")) return layoutReturn(statement, indent);
  throw new Unsupported();
}

/** `if (` a chain of one operator, an operand a line, `)`. */
function brokenTest(test: string, indent: number): string[] {
  const ors = splitTopLevel(test, " || ");
  const ands = splitTopLevel(test, " && ");
  if (ors.length > 1 === ands.length > 1) throw new Unsupported(); // none, or && and || mixed
  const [operands, operator] = ors.length > 1 ? [ors, " ||"] : [ands, " &&"];
  const inner = indent + indentWidth;
  return [
    `${pad(indent)}if (`,
    ...operands.map((operand, i) => fitting(inner, i < operands.length - 1 ? operand + operator : operand)),
    `${pad(indent)})`,
  ];
}

/** `return R;` at `indent`. */
function layoutReturn(statement: string, indent: number): string[] {
  if (indent + statement.length <= printWidth) return [pad(indent) + statement];
  if (!statement.startsWith("return ") || !statement.endsWith(";")) throw new Unsupported();
  const argument = statement.slice("return ".length, -1);
  const [test, ...branches] = splitTopLevel(argument, " ? ");
  if (branches.length === 0) return brokenCall("return ", argument, ";", indent, indent + indentWidth, indent);
  if (branches.length > 1) throw new Unsupported();
  const [consequent, alternate, ...more] = splitTopLevel(branches[0]!, " : ");
  if (alternate === undefined || more.length > 0) throw new Unsupported();
  const branch = indent + indentWidth;
  // A branch's call breaks inside an align(2) under its "? " or ": ", then the usual indent.
  const call = (prefix: string, expression: string, suffix: string) =>
    brokenCall(prefix, expression, suffix, branch, branch + 2 + indentWidth, branch + 2);
  return [fitting(indent, `return ${test}`), ...call("? ", consequent!, ""), ...call(": ", alternate, ";")];
}

/**
 * `prefix callee(args) suffix` on a line at `indent` if it fits, else one
 * argument a line at `argumentIndent` and the closing parenthesis at `closeIndent`.
 */
function brokenCall(
  prefix: string,
  expression: string,
  suffix: string,
  indent: number,
  argumentIndent: number,
  closeIndent: number,
): string[] {
  const line = prefix + expression + suffix;
  if (indent + line.length <= printWidth) return [pad(indent) + line];
  const open = expression.indexOf("(");
  if (open <= 0 || !/^[\w$.]+$/.test(expression.slice(0, open))) throw new Unsupported();
  if (closingParen(expression, open) !== expression.length - 1) throw new Unsupported();
  const args = splitTopLevel(expression.slice(open + 1, -1), ", ");
  return [
    pad(indent) + prefix + expression.slice(0, open + 1),
    // A string cannot break: prettier leaves it long. Anything else that does not fit would break inside.
    ...args.map((arg) =>
      arg.startsWith('"') || arg.startsWith("'") ? pad(argumentIndent) + arg + "," : fitting(argumentIndent, `${arg},`),
    ),
    `${pad(closeIndent)})${suffix}`,
  ];
}
