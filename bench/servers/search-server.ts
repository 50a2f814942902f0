// The client benchmark's server (bench/client.ts): mcpgen's McpServer serving
// both eras (2025-11-25 handshake clients and 2026-07-28 per-request ones),
// with the `search` tool of bench/clients/corpus.ts among five others, so that
// tools/list is not trivial. Served over stdio by search-mcpgen.ts, and by
// search-canned.ts with its tools/call shortcut.
import { McpServer } from "mcpgen/server";
import { inputSchema, outputSchema, searchResult, TOOL_NAME } from "../clients/corpus.js";

export function searchServer(): McpServer {
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
  return server;
}
