// Newline-delimited framing (runtime/transports/lines.ts): what reaches the sink.
import { describe, expect, it } from "vitest";
import { LineFramer } from "../../runtime/transports/lines.js";
import { random } from "../support/random.js";

function framed(
  chunks: readonly (string | Buffer)[],
  limit = 1024,
): { lines: string[]; oversized: number[]; notUtf8: number[] } {
  const lines: string[] = [];
  const oversized: number[] = [];
  const notUtf8: number[] = [];
  const framer = new LineFramer(limit, {
    line: (text) => lines.push(text),
    oversized: (bytes) => oversized.push(bytes),
    notUtf8: (offset) => notUtf8.push(offset),
  });
  for (const chunk of chunks) framer.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  framer.end();
  return { lines, oversized, notUtf8 };
}

describe("LineFramer", () => {
  it("delivers each line without its \\n or trailing \\r, across chunks, and a last line without \\n", () => {
    expect(framed(['{"a":1}\r\n[1,', '2]\n{"b"', ":2}"]).lines).toEqual(['{"a":1}', "[1,2]", '{"b":2}']);
  });

  it("skips blank lines, white space of any kind included, and delivers any other line (the session answers a parse error)", () => {
    const { lines } = framed(["\n", "\r\n", "   \t\n", "\u00a0\ufeff\n", "\u2028\r\n", " {}\n", "x\n", "\r\r\n"]);
    expect(lines).toEqual([" {}", "x"]);
  });

  it("drops a line over the limit as it streams and reports its size once it ends", () => {
    const { lines, oversized } = framed(["{", "x".repeat(20), "}\n", "{}\n"], 10);
    expect(oversized).toEqual([22]);
    expect(lines).toEqual(["{}"]);
  });

  it("reports a line that is not UTF-8 with the offset of its first bad byte, whole or across chunks, and goes on", () => {
    const bad = Buffer.from([0x7b, 0x22, 0x61, 0xff, 0x22, 0x7d, 0x0a]); // {"a\xff"}
    const { lines, notUtf8 } = framed([bad, '{"b":"\u00e9 \ufffd"}\n', bad.subarray(0, 4), bad.subarray(4), "{}"]);
    expect(notUtf8).toEqual([3, 3]);
    // U+FFFD the sender wrote is text like any other.
    expect(lines).toEqual(['{"b":"é \ufffd"}', "{}"]);
  });

  it("a chunk of many lines: each delivered in order; one that is not UTF-8 is reported and the others delivered", () => {
    const bad = Buffer.from([0x7b, 0xc3, 0x28, 0x7d]); // {\xc3(}: a two-byte lead byte without its second
    const chunk = Buffer.concat([Buffer.from('{"a":1}\r\n\n{"é":2}\n'), bad, Buffer.from('\n{"c":"\ufffd"}\n{"d"')]);
    const { lines, notUtf8 } = framed([chunk, ":4}\n[]\n"]);
    expect(lines).toEqual(['{"a":1}', '{"é":2}', '{"c":"\ufffd"}', '{"d":4}', "[]"]);
    expect(notUtf8).toEqual([1]);
  });

  it("whatever the chunks, delivers what the same bytes one at a time do (random streams, limit 12)", () => {
    const next = random(0x5eed);
    // Bytes that matter to framing: newline, CR, blank, braces, a two-byte character, U+FFFD spelled out, a bad byte.
    const pieces = [[0x0a], [0x0d], [0x20], [0x7b], [0x7d], [0x61], [0x62], [0xc3, 0xa9], [0xef, 0xbf, 0xbd], [0xff]];
    for (let round = 0; round < 400; round++) {
      // Half the rounds without the pieces that decode to U+FFFD: a chunk holding one is split line by line.
      const drawn = round % 2 === 0 ? pieces : pieces.slice(0, -2);
      const bytes: number[] = [];
      const length = Math.floor(next() * 120);
      while (bytes.length < length) bytes.push(...drawn[Math.floor(next() * drawn.length)]!);
      const stream = Buffer.from(bytes);
      const chunks: Buffer[] = [];
      for (let at = 0; at < stream.length;) {
        const size = 1 + Math.floor(next() * 40);
        chunks.push(stream.subarray(at, at + size));
        at += size;
      }
      const oneAtATime = [...stream].map((byte) => Buffer.from([byte]));
      expect(framed(chunks, 12), `round ${round}: ${stream.toString("hex")}`).toEqual(framed(oneAtATime, 12));
    }
  });
});
