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
