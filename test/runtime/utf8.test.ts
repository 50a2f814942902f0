// Message bytes to text: valid UTF-8 decodes as Buffer#toString does (U+FFFD
// spelled out included); anything else names the offset of its first bad byte,
// checked against node:buffer's isUtf8 on random bytes.
import { isUtf8 } from "node:buffer";
import { describe, expect, test } from "vitest";
import { firstInvalidUtf8, utf8Text } from "../../runtime/utf8.js";
import { random } from "../support/random.js";

describe("utf8Text", () => {
  test("valid text decodes as toString does, U+FFFD written out by the sender included", () => {
    for (const text of ['{"id":1}', "héllo ✓ 𝄞", "a \uFFFD b", ""]) {
      const bytes = Buffer.from(`xx${text}yy`);
      expect(utf8Text(bytes, 2, bytes.length - 2)).toBe(text);
    }
  });

  test("what is not UTF-8 gives the offset of its first bad byte, from start", () => {
    const cases: [number[], number][] = [
      [[0x61, 0xff, 0x62], 1], // never in UTF-8
      [[0x61, 0x62, 0xc3], 2], // a sequence cut short
      [[0xc0, 0xaf], 0], // overlong "/"
      [[0x61, 0xe0, 0x80, 0xaf], 1], // overlong, three bytes
      [[0xed, 0xa0, 0x80], 0], // a UTF-16 surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0], // past U+10FFFF
      [[0xe2, 0x9c, 0x93, 0x80], 3], // a lone continuation byte after ✓
    ];
    for (const [bytes, offset] of cases) {
      const buffer = Buffer.from([0x20, ...bytes]);
      expect(utf8Text(buffer, 1), JSON.stringify(bytes)).toBe(offset);
    }
  });

  test("agrees with isUtf8 on random bytes: a valid prefix, and no character starts at the offset", () => {
    const next = random(0x5eed);
    // Bytes drawn mostly from the ranges where UTF-8's rules are decided.
    const pool = [
      0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef,
      0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
    ];
    let invalid = 0;
    for (let n = 0; n < 20_000; n++) {
      const bytes = new Uint8Array(1 + Math.floor(next() * 12)).map(() => pool[Math.floor(next() * pool.length)]!);
      const offset = firstInvalidUtf8(bytes);
      if (isUtf8(bytes)) {
        expect(offset, Array.from(bytes).join(",")).toBe(bytes.length);
        continue;
      }
      invalid++;
      expect(isUtf8(bytes.subarray(0, offset)), Array.from(bytes).join(",")).toBe(true);
      for (let k = 1; k <= 4 && offset + k <= bytes.length; k++)
        expect(isUtf8(bytes.subarray(offset, offset + k)), `${Array.from(bytes).join(",")} at ${offset}+${k}`).toBe(
          false,
        );
      expect(utf8Text(Buffer.from(bytes))).toBe(offset);
    }
    expect(invalid).toBeGreaterThan(5_000);
  });
});
