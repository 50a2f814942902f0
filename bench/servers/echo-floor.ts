// What the floor servers answer: a minimal initialize result, tools/call's text
// back, {} otherwise. No validation, no protocol.
export function floorResult(message: { method?: string; params?: any }): unknown {
  if (message.method === "initialize")
    return {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "floor", version: "1" },
    };
  if (message.method === "tools/call") return { content: [{ type: "text", text: message.params.arguments.text }] };
  return {};
}
