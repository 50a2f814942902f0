import { describe, expect, test } from "vitest";
import { firstJsonError, parseJson } from "../../runtime/json.js";

describe("parseJson", () => {
  test("valid text is JSON.parse's value", () => {
    expect(parseJson(' {"a": [1, 2.5e3, true, null, "\\u00e9"]} ')).toEqual({
      ok: true,
      value: { a: [1, 2500, true, null, "é"] },
    });
  });

  test.each([
    ["", 1, 1, "unexpected end of input"],
    ["{", 1, 2, "expected a property name, found end of input"],
    ['{"a" 1}', 1, 6, 'expected ":", found character "1"'],
    ['{"a": 1,}', 1, 9, 'expected a property name, found character "}"'],
    ["[1 2]", 1, 4, 'expected "," or "]", found character "2"'],
    ['{"a":\n  tru}', 2, 3, 'unexpected character "t"'],
    ['"abc', 1, 1, "unterminated string"],
    ['"a\\x"', 1, 3, "invalid escape in string"],
    ['"a\nb"', 1, 3, "unescaped control character in string"],
    ["01", 1, 2, 'unexpected character "1" after the JSON value'],
    ["-", 1, 2, "invalid number: expected a digit, found end of input"],
    ["1.", 1, 3, "invalid number: expected a digit, found end of input"],
    ["{} {}", 1, 4, 'unexpected character "{" after the JSON value'],
    ["'a'", 1, 1, `unexpected character "'"`],
  ])("%j fails at %i:%i: %s", (text, line, column, message) => {
    expect(parseJson(text)).toEqual({ ok: false, message, offset: expect.any(Number), line, column });
  });

  test("the scanner finds nothing wrong in what JSON.parse accepts", () => {
    for (const text of ['{"a":{"b":[[],{}]}}', "-0.5E+10", '"\\ud83d\\ude00"', "  null  "])
      expect(firstJsonError(text)).toBeUndefined();
  });
});
