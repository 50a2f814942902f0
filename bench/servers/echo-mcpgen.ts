// The benchmarks' tools on mcpgen, whatever the transport: echo({ text }) and 19
// small others (tool_1..tool_19, one string property each), 20 in all.
import { McpServer } from "mcpgen/server";

export function echoServer(): McpServer {
  const server = new McpServer({ name: "mcpgen-echo", version: "1.0.0" });
  server.tool(
    "echo",
    {
      description: "Returns its text.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  for (let i = 1; i <= 19; i++)
    server.tool(
      `tool_${i}`,
      {
        description: `Bench tool ${i}: returns its value.`,
        inputSchema: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
      },
      ({ value }) => ({ content: [{ type: "text", text: `tool_${i}: ${value}` }] }),
    );
  return server;
}
