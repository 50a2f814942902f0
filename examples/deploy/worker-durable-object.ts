// The weather server on Cloudflare Workers, its fetch handler owned by one
// Durable Object: every request, whichever isolate takes it, reaches that
// object, so 2025 sessions (and tasks, and subscriptions) live on between
// requests as they do in a Node process.
//
//   npx wrangler dev      (wrangler.toml binds the class McpObject as MCP: docs/runtimes.md)
import { createFetchHandler } from "mcpgen/fetch";
import { buildServer } from "./server.js";

/** The binding this file uses (a Workers project types its bindings with `wrangler types`). */
interface Env {
  MCP: {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(request: Request): Promise<Response> };
  };
}

/** The Durable Object class: the server and its handler live in it. */
export class McpObject {
  readonly fetch = createFetchHandler(buildServer(), {
    allowedHosts: ["weather.example.workers.dev", "localhost", "127.0.0.1"],
  });
}

export default {
  // One object, named "mcp", serves every client.
  fetch: (request: Request, env: Env) => env.MCP.get(env.MCP.idFromName("mcp")).fetch(request),
};
