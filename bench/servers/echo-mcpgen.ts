// The benchmarks' echo tool on mcpgen, whatever the transport.
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
  return server;
}
