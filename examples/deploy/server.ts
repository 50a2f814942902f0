// The server of docs/runtimes.md and the framework pages, with no transport:
// each file beside this one serves it on one platform (Node, Bun, Deno,
// Cloudflare Workers) or framework (Express, Fastify, Hono, Next.js).
import { McpServer } from "mcpgen/server";

export function buildServer(): McpServer {
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  server.tool(
    "get_forecast",
    {
      description: "The weather forecast for a city",
      inputSchema: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 7 } },
        required: ["city"],
      },
    },
    ({ city, days = 3 }) => `${city}: sunny for the next ${days} days`,
  );
  return server;
}
