// The benchmark's echo tool on mcpgen over Streamable HTTP (--stateless: no sessions).
import { McpServer } from "mcpgen/server";
import { serveHttp } from "mcpgen/http";

const server = new McpServer({ name: "mcpgen-echo", version: "1.0.0" });
server.tool(
  "echo",
  {
    description: "Returns its text.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
const handle = await serveHttp(server, { sessions: !process.argv.includes("--stateless") });
console.log(handle.url);
