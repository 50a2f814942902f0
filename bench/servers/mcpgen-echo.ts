// The benchmark's echo tool on mcpgen.
import { McpServer } from "mcpgen/server";
import { serveStdio } from "mcpgen/stdio";

const server = new McpServer({ name: "mcpgen-echo", version: "1.0.0" });
server.tool(
  "echo",
  {
    description: "Returns its text.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
serveStdio(server);
