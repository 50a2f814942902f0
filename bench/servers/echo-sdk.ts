// The benchmarks' tools on the official TypeScript SDK v1 (McpServer, zod), whatever the
// transport: echo({ text }) and 19 small others (tool_1..tool_19, one string property each).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export function echoServer(): McpServer {
  const server = new McpServer({ name: "sdk-echo", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns its text.", inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: "text", text }],
    }),
  );
  for (let i = 1; i <= 19; i++)
    server.registerTool(
      `tool_${i}`,
      { description: `Bench tool ${i}: returns its value.`, inputSchema: { value: z.string() } },
      async ({ value }) => ({ content: [{ type: "text", text: `tool_${i}: ${value}` }] }),
    );
  return server;
}
