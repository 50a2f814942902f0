// The client benchmark's client-bound server (bench/client.ts --server canned):
// mcpgen's server of bench/servers/search-mcpgen.ts, with one shortcut so that
// the server costs less per call than any client and a client's own cost is
// what the benchmark compares. A tools/call of `search` is still parsed
// (JSON.parse of the line), but answered from a template: the bytes mcpgen's
// server itself wrote for that call, captured at start for each era, with the
// request's id and query spliced in (serializing the ~4.7 KB answer would cost
// the server a good part of what a lean client costs). Every other message
// goes to mcpgen's server unchanged, so the handshake, tools/list and era
// detection are the real ones. At start the template is checked to reproduce
// mcpgen's answer byte for byte for a query with quotes, a backslash and
// non-ASCII text; the process exits if it does not.
import { PassThrough } from "node:stream";
import { serveStdio, type OutputStream } from "mcpgen/stdio";
import { searchServer } from "./search-server.js";
import { TOOL_NAME } from "../clients/corpus.js";

const MARK = "MARK-query-0b7f";
const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const modernMeta = {
  [META_PROTOCOL_VERSION]: "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "capture", version: "1.0.0" },
};

const server = searchServer();
const stdout = process.stdout;

/** Sends lines to a connection of its own and resolves with the answer to the last one (id 0). */
function capture(lines: object[]): Promise<string> {
  return new Promise((resolve) => {
    const input = new PassThrough();
    const output: OutputStream = {
      write(chunk: string) {
        for (const line of chunk.split("\n"))
          if (line.startsWith('{"jsonrpc":"2.0","id":0,')) {
            connection.close();
            resolve(line);
          }
        return true;
      },
      on: () => output,
      off: () => output,
      once: () => output,
    };
    const connection = serveStdio(server, { input, output, exitProcess: false });
    for (const line of lines) input.write(`${JSON.stringify(line)}\n`);
  });
}

const call = (query: string, modern: boolean) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "tools/call",
  params: { name: TOOL_NAME, arguments: { query }, ...(modern ? { _meta: modernMeta } : {}) },
});
const handshake = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "capture", version: "1.0.0" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];
const answerTo = (query: string, modern: boolean) => capture([...(modern ? [] : handshake), call(query, modern)]);

/** How a query is written at each place the template holds it: once or twice JSON-escaped. */
const escapes = [
  (q: string) => JSON.stringify(q).slice(1, -1),
  (q: string) => JSON.stringify(JSON.stringify(q)).slice(3, -3),
];
type Template = (id: string, query: string) => string;

/** The template of one era's answer: mcpgen's own bytes, split where the id and the query go. */
async function template(modern: boolean): Promise<Template> {
  const head = '{"jsonrpc":"2.0","id":';
  const captured = await answerTo(MARK, modern);
  const parts = captured.slice(head.length + 1).split(MARK); // after `"id":0`
  const tricky = 'a "quoted" \\ query, ünïcödé ✓ #7';
  const expected = await answerTo(tricky, modern);
  // Which escaping each place needs is found by trying them (there are few places).
  const places = parts.length - 1;
  for (let choice = 0; choice < 1 << places; choice++) {
    const escaping = Array.from({ length: places }, (_, i) => escapes[(choice >> i) & 1]!);
    const build: Template = (id, query) => {
      let text = head + id + parts[0]!;
      for (let i = 0; i < places; i++) text += escaping[i]!(query) + parts[i + 1]!;
      return text;
    };
    if (build("0", tricky) === expected) return build;
  }
  process.stderr.write(`search-canned: cannot make a template of mcpgen's answer ${captured.slice(0, 200)}\n`);
  process.exit(1);
}

const legacyAnswer = await template(false);
const modernAnswer = await template(true);

// The clients' connection: mcpgen's server for everything but tools/call of `search`.
let pending: string[] = [];
const output: OutputStream = {
  write: (chunk: string) => stdout.write(chunk),
  on: (event, listener) => stdout.on(event, listener),
  off: (event, listener) => stdout.off(event, listener),
  once: (event, listener) => stdout.once(event, listener),
};
const forward = new PassThrough();
serveStdio(server, { input: forward, output, exitProcess: false }).closed.then(() => process.exit(0));

interface Call {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: { query?: unknown }; _meta?: Record<string, unknown> };
}
let carry: Buffer | undefined;
process.stdin.on("data", (chunk: Buffer) => {
  let data = carry ? Buffer.concat([carry, chunk]) : chunk;
  let start = 0;
  let newline: number;
  while ((newline = data.indexOf(10, start)) !== -1) {
    const line = data.toString("utf8", start, newline);
    start = newline + 1;
    const message = JSON.parse(line) as Call;
    const query = message.params?.arguments?.query;
    if (message.method === "tools/call" && message.params?.name === TOOL_NAME && typeof query === "string") {
      const build = message.params._meta?.[META_PROTOCOL_VERSION] !== undefined ? modernAnswer : legacyAnswer;
      pending.push(build(JSON.stringify(message.id), query));
    } else forward.write(`${line}\n`);
  }
  carry = start < data.length ? data.subarray(start) : undefined;
  if (pending.length > 0) {
    stdout.write(pending.join("\n") + "\n");
    pending = [];
  }
});
process.stdin.on("end", () => forward.end());
