// The stdio client transport's writes: messages sent in one tick leave joined
// in one write, still one line each, in order; and close() in that same tick
// still delivers them before the server's stdin closes (basic/lifecycle#stdio).
import { describe, expect, test } from "vitest";
import { StdioClientTransport } from "mcpgen/client";

/** A server that reports, on stderr once its stdin ends, every line it read, then exits. */
const recorder = `
  let text = "";
  process.stdin.setEncoding("utf8").on("data", (chunk) => (text += chunk));
  process.stdin.on("end", () => {
    const lines = JSON.stringify(text.split("\\n").filter((line) => line !== ""));
    process.stderr.write(lines, () => process.exit(0)); // a pipe's write is asynchronous
  });
`;

async function linesReceived(send: (transport: StdioClientTransport) => Promise<void>): Promise<string[]> {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["-e", recorder],
    onStderr: (chunk) => (stderr += chunk),
    shutdownGraceMs: 5_000,
  });
  await transport.start({ message: () => {}, problem: () => {}, closed: () => {} });
  await send(transport);
  expect(transport.pid).toBeUndefined(); // close() waited for the exit
  return JSON.parse(stderr) as string[];
}

const context = { era: "legacy" as const };

describe("StdioClientTransport writes", () => {
  test("messages of one tick arrive as separate lines, in order, and close() in that tick delivers them", async () => {
    const messages = Array.from({ length: 5 }, (_, i) => JSON.stringify({ jsonrpc: "2.0", method: `m${i}` }));
    const lines = await linesReceived(async (transport) => {
      const sent = messages.map((m) => transport.send(m, context));
      const closed = transport.close(); // same tick: nothing sent yet has left
      await Promise.all([...sent, closed]);
    });
    expect(lines).toEqual(messages);
  });

  test("messages of different ticks each arrive", async () => {
    const messages = ['{"a":1}', '{"b":2}', '{"c":3}'];
    const lines = await linesReceived(async (transport) => {
      for (const m of messages) await transport.send(m, context);
      await new Promise((resolve) => setImmediate(resolve));
      await transport.close();
    });
    expect(lines).toEqual(messages);
  });

  test("more than the pipe holds in one tick: every line arrives whole", async () => {
    const big = Array.from({ length: 200 }, (_, i) => JSON.stringify({ i, pad: "x".repeat(2_000) }));
    const lines = await linesReceived(async (transport) => {
      await Promise.all(big.map((m) => transport.send(m, context)));
      await transport.close();
    });
    expect(lines).toEqual(big);
  });
});
