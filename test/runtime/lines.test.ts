// Newline-delimited framing (runtime/transports/lines.ts): what reaches the sink.
import { describe, expect, it } from "vitest";
import { LineFramer } from "../../runtime/transports/lines.js";

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
});
