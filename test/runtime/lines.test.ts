// Newline-delimited framing (runtime/transports/lines.ts): what reaches the sink.
import { describe, expect, it } from "vitest";
import { LineFramer } from "../../runtime/transports/lines.js";

function framed(chunks: readonly string[], limit = 1024): { lines: string[]; oversized: number[] } {
  const lines: string[] = [];
  const oversized: number[] = [];
  const framer = new LineFramer(limit, {
    line: (text) => lines.push(text),
    oversized: (bytes) => oversized.push(bytes),
  });
  for (const chunk of chunks) framer.push(Buffer.from(chunk, "utf8"));
  framer.end();
  return { lines, oversized };
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
});
