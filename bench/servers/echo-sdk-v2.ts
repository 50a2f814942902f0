// The benchmarks' tools on the official SDK v2 (@modelcontextprotocol/server),
// whatever serves them: echo({ text }) and 19 small others, as echo-sdk.ts.
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/** echo({ text }) and 19 small others (tool_1..tool_19, one string property each), as echo-sdk.ts. */
export function echoServer(): McpServer {
  const server = new McpServer({ name: "sdk-v2-echo", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns its text.", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  for (let i = 1; i <= 19; i++)
    server.registerTool(
      `tool_${i}`,
      { description: `Bench tool ${i}: returns its value.`, inputSchema: z.object({ value: z.string() }) },
      async ({ value }) => ({ content: [{ type: "text", text: `tool_${i}: ${value}` }] }),
    );
  return server;
}
