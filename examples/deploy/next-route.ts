// The weather server as a Next.js App Router route handler: this file is
// app/mcp/route.ts (import buildServer from where your server module is), and
// `next dev` or `next start` serves it at /mcp.
import { createFetchHandler } from "mcpgen/fetch";
import { buildServer } from "./server.js";

// The handler keeps 2025 clients' sessions in this process's memory: a Node.js route, not Edge.
export const runtime = "nodejs";

// Host is checked against allowedHosts (DNS rebinding): loopback names unless MCP_HOSTS names others.
const handler = createFetchHandler(buildServer(), { allowedHosts: process.env["MCP_HOSTS"]?.split(",") });

// Next.js passes a second argument of its own ({ params }): the handler is given the Request only.
const route = (request: Request) => handler(request);
export { route as GET, route as POST, route as DELETE };
