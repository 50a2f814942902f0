// What the floor servers answer: a minimal initialize result, tools/call's text
// back, {} otherwise. No validation, no protocol. A tools/call whose params carry
// a per-request version in _meta gets resultType: "complete", the one field a
// per-request (2026-07-28) result must add, so the driver's check holds for it.
export function floorResult(message: { method?: string; params?: any }): unknown {
  if (message.method === "initialize")
    return {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "floor", version: "1" },
    };
  if (message.method === "tools/call")
    return message.params._meta?.["io.modelcontextprotocol/protocolVersion"] === undefined
      ? { content: [{ type: "text", text: message.params.arguments.text }] }
      : { content: [{ type: "text", text: message.params.arguments.text }], resultType: "complete" };
  return {};
}

/**
 * The floor's reading loop: text chunks in, each complete line parsed and a
 * request answered with floorResult, the chunk's answers written at once.
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
      out += JSON.stringify({ jsonrpc: "2.0", id: message.id, result: floorResult(message) }) + "\n";
    }
    if (out !== "") write(out);
  };
}
