// A string that matches a schema's @pattern, for the sample generator
// (corpus.ts): the shortest one this reader finds, built from the pattern's
// own syntax (literals, escapes, classes, groups, the first alternative,
// quantifiers at their minimum) and checked against the RegExp itself. A
// pattern it cannot satisfy is an error naming it, never a seed that ignores it.

/** A string `new RegExp(pattern, "u")` matches; throws when none is found. */
export function patternExample(pattern: string, minLength = 0): string {
  const regex = new RegExp(pattern, "u");
  for (const candidate of candidates(pattern, minLength)) if (regex.test(candidate)) return candidate;
  throw new Error(`the sample generator finds no string matching @pattern ${pattern}`);
}

function* candidates(pattern: string, minLength: number): Generator<string> {
  for (const extra of [0, 1, 2, 8, 64]) {
    const text = new Builder(pattern, extra).alternative();
    if ([...text].length >= minLength) yield text;
  }
  yield "text";
  yield "a".repeat(Math.max(1, minLength));
}

/** Reads the pattern left to right, writing one example; `extra` repetitions past each quantifier's minimum. */
class Builder {
  private at = 0;

  constructor(
    private readonly source: string,
    private readonly extra: number,
  ) {}

  /** One alternative of a disjunction up to `)` or the end; the others are skipped. */
  alternative(): string {
    let out = "";
    while (this.at < this.source.length && this.source[this.at] !== ")") {
      if (this.source[this.at] === "|") {
        this.skipAlternatives();
        break;
      }
      const atom = this.atom();
      out += atom.repeat(this.quantifier());
    }
    return out;
  }

  private skipAlternatives(): void {
    let depth = 0;
    for (; this.at < this.source.length; this.at++) {
      const c = this.source[this.at];
      if (c === "\\") this.at++;
      else if (c === "[") this.skipClass();
      else if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) return;
        depth--;
      }
    }
  }

  private skipClass(): void {
    for (this.at++; this.at < this.source.length && this.source[this.at] !== "]"; this.at++)
      if (this.source[this.at] === "\\") this.at++;
  }

  private atom(): string {
    const c = this.source[this.at++]!;
    switch (c) {
      case "^":
      case "$":
        return "";
      case ".":
        return "a";
      case "\\":
        return this.escape(this.source[this.at++] ?? "\\");
      case "[":
        return this.characterClass();
      case "(": {
        if (this.source.startsWith("?:", this.at)) this.at += 2;
        else if (this.source.startsWith("?<", this.at) && !/^\?<[=!]/.test(this.source.slice(this.at)))
          this.at = this.source.indexOf(">", this.at) + 1;
        else if (/^\?[=!]|^\?<[=!]/.test(this.source.slice(this.at))) {
          // A lookaround matches no text of its own.
          this.alternative();
          this.at++;
          return "";
        }
        const inner = this.alternative();
        this.at++; // ")"
        return inner;
      }
      default:
        return c;
    }
  }

  private escape(c: string): string {
    switch (c) {
      case "d":
        return "0";
      case "w":
        return "a";
      case "s":
        return " ";
      case "D":
      case "W":
      case "S":
        return "-";
      case "b":
      case "B":
        return "";
      case "n":
        return "\n";
      case "t":
        return "\t";
      default:
        return c;
    }
  }

  /** The first character a class admits (its first range's start), or one outside a negated class's ranges. */
  private characterClass(): string {
    const negated = this.source[this.at] === "^";
    if (negated) this.at++;
    const members: string[] = [];
    while (this.at < this.source.length && this.source[this.at] !== "]") {
      const c = this.source[this.at++]!;
      members.push(c === "\\" ? this.escape(this.source[this.at++] ?? "\\") : c);
    }
    this.at++; // "]"
    if (!negated) return members[0] ?? "";
    return ["a", "0", "x", "_", " "].find((x) => !members.includes(x)) ?? "~";
  }

  /** How many times the atom before it is written: the quantifier's minimum (at least one for + and {n,}), plus `extra` where it may repeat. */
  private quantifier(): number {
    const c = this.source[this.at];
    let count = 1;
    let max = 1;
    if (c === "?" || c === "*" || c === "+") {
      this.at++;
      count = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : Infinity;
    } else if (c === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (!match) return 1;
      this.at += match[0].length;
      count = Number(match[1]);
      max = match[2] === undefined ? count : match[3] === "" ? Infinity : Number(match[3]);
    }
    if (this.source[this.at] === "?") this.at++; // lazy
    return Math.min(count + this.extra, max);
  }
}
