// JSON.parse with a position on failure. Node 20's JSON.parse errors carry no
// position, so when it fails a small scanner (RFC 8259 grammar) walks the text
// to the first offending character. The valid path is JSON.parse alone.

export type ParsedJson =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly message: string;
      readonly offset: number;
      readonly line: number;
      readonly column: number;
    };

export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const found = firstJsonError(text) ?? { offset: 0, message: (error as Error).message };
    return { ok: false, message: found.message, offset: found.offset, ...lineAndColumn(text, found.offset) };
  }
}

/** 1-based line and column (in UTF-16 code units) of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class JsonSyntaxError {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

/** The first syntax error of a JSON text, or undefined when there is none. */
export function firstJsonError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(at, message);
  };
  const describe = (at: number) => (at >= text.length ? "end of input" : `character ${JSON.stringify(text[at])}`);
  const skipSpace = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      i++;
    }
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe(i)}`);
  };
  const string = () => {
    const start = i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail("unescaped control character in string");
      if (c === 92) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("invalid \\u escape");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail("invalid escape in string");
      } else i++;
    }
    fail("unterminated string", start);
  };
  const digits = () => {
    const start = i;
    while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    if (i === start) fail(`invalid number: expected a digit, found ${describe(i)}`);
  };
  const number = () => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else digits();
    if (text[i] === ".") {
      i++;
      digits();
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      digits();
    }
  };
  const value = (): void => {
    skipSpace();
    const c = text[i];
    if (c === "{") {
      i++;
      skipSpace();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        if (text[i] !== '"') fail(`expected a property name, found ${describe(i)}`);
        string();
        skipSpace();
        if (text[i] !== ":") fail(`expected ":", found ${describe(i)}`);
        i++;
        value();
        skipSpace();
        if (text[i] === ",") i++;
        else if (text[i] === "}") {
          i++;
          return;
        } else fail(`expected "," or "}", found ${describe(i)}`);
      }
    } else if (c === "[") {
      i++;
      skipSpace();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        skipSpace();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return;
        } else fail(`expected "," or "]", found ${describe(i)}`);
      }
    } else if (c === '"') string();
    else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) number();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else fail(`unexpected ${describe(i)}`);
  };
  try {
    value();
    skipSpace();
    if (i < text.length) fail(`unexpected ${describe(i)} after the JSON value`);
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { offset: error.offset, message: error.message };
    if (error instanceof RangeError) return { offset: i, message: "nested too deeply" };
    throw error;
  }
}
