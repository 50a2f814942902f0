// The client benchmark's server (bench/client.ts): mcpgen over stdio, both
// eras on one process (2025-11-25 handshake clients and 2026-07-28
// per-request ones), with the `search` tool of bench/clients/corpus.ts among
// five others, so that tools/list is not trivial.
import { McpServer } from "mcpgen/server";
import { serveStdio } from "mcpgen/stdio";
import { inputSchema, outputSchema, searchResult, TOOL_NAME } from "../clients/corpus.js";

const server = new McpServer({ name: "bench-search", version: "1.0.0" });
server.tool(
  TOOL_NAME,
  { title: "Search issues", description: "Searches the issue tracker.", inputSchema, outputSchema },
  ({ query }) => searchResult(query),
);
for (let i = 1; i <= 5; i++)
  server.tool(
    `tool_${i}`,
    {
      description: `Bench tool ${i}: returns its value.`,
      inputSchema: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
    },
    ({ value }) => ({ content: [{ type: "text", text: `tool_${i}: ${value}` }] }),
  );
serveStdio(server);
