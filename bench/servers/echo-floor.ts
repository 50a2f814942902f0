// What the floor servers answer: a minimal initialize result, tools/call's text
// back, {} otherwise. No validation, no protocol. A tools/call whose params carry
// a per-request version in _meta gets what a 2026-07-28 result carries beyond a
// legacy one, so that the floor writes (and the driver reads) the bytes the
// servers under test do: resultType "complete", which the revision requires
// (basic/index#resulttype), and the server's name and version in _meta, which
// a server SHOULD send in every result (2026-07-28 changelog, SEP-2575) and
// mcpgen does. The name has the length of the mcpgen echo server's.
export function floorResult(message: { method?: string; params?: any }): unknown {
  if (message.method === "initialize")
    return {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "floor", version: "1" },
    };
  if (message.method === "tools/call")
    return isPerRequest(message)
      ? { resultType: "complete", content: [{ type: "text", text: message.params.arguments.text }] }
      : { content: [{ type: "text", text: message.params.arguments.text }] };
  return {};
}

const isPerRequest = (message: { params?: any }): boolean =>
  message.params?._meta?.["io.modelcontextprotocol/protocolVersion"] !== undefined;

/** The _meta member naming the server, as JSON text: spliced in, as mcpgen does (a constant costs no stringify). */
const SERVER_INFO_MEMBER = `"_meta":${JSON.stringify({ "io.modelcontextprotocol/serverInfo": { name: "floor-bench", version: "1.0.0" } })}`;

/** The response to a request, as JSON text. */
export function floorAnswer(message: { id?: unknown; method?: string; params?: any }): string {
  const json = JSON.stringify({ jsonrpc: "2.0", id: message.id, result: floorResult(message) });
  // The result (a tools/call's, never empty) is last in the response: its closing brace is the text's last but one.
  return message.method === "tools/call" && isPerRequest(message)
    ? `${json.slice(0, -2)},${SERVER_INFO_MEMBER}}}`
    : json;
}

/**
 * The floor's reading loop: text chunks in, each complete line parsed and a
 * request answered with floorAnswer, the chunk's answers written at once.
 */
export function floorReader(write: (text: string) => void): (chunk: string) => void {
  let buffered = "";
  return (chunk) => {
    buffered += chunk;
    let out = "";
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const message = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (message.id === undefined) continue;
      out += floorAnswer(message) + "\n";
    }
    if (out !== "") write(out);
  };
}
