// The benchmark's tools on the official SDK v2 over node:http: createMcpHandler
// (@modelcontextprotocol/server) behind toNodeHandler (@modelcontextprotocol/node),
// as its documentation sets it up. One endpoint serves both eras: per-request
// (2026-07-28) traffic, and legacy traffic in its default stateless mode. Either
// way the factory builds a server per HTTP request.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/** echo({ text }) and 19 small others (tool_1..tool_19, one string property each), as echo-sdk.ts. */
function echoServer(): McpServer {
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

const handler = createMcpHandler(() => echoServer(), { onerror: (error) => console.error(error.message) });
const http = createServer(toNodeHandler(handler));
http.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`));
