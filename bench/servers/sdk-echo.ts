// The benchmark's echo tool on the official TypeScript SDK (McpServer, zod).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "sdk-echo", version: "1.0.0" });
server.registerTool(
  "echo",
  { description: "Returns its text.", inputSchema: { text: z.string() } },
  async ({ text }) => ({
    content: [{ type: "text", text }],
  }),
);
await server.connect(new StdioServerTransport());
