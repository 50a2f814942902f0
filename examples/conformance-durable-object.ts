// The conformance fixture (conformance-fixture.ts) as a Cloudflare Worker whose
// one Durable Object owns the fetch handler: every request, whichever isolate
// takes it, goes to that object, so 2025 sessions, tasks and subscriptions
// have one home that lives on between requests. Skills are not served: a
// Worker has no folder to read them from.
import { createFetchHandler } from "mcpgen/fetch";
import { buildConformanceServer } from "./conformance-fixture.js";

/** What this file uses of the Worker's bindings: the Durable Object namespace bound as MCP. */
interface Env {
  MCP: {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(request: Request): Promise<Response> };
  };
}

const server = await buildConformanceServer();

/** The Durable Object class (bound as MCP): its handler and the server's state live in it. */
export class McpObject {
  readonly fetch = createFetchHandler(server);
}

export default {
  fetch: (request: Request, env: Env) => env.MCP.get(env.MCP.idFromName("mcp")).fetch(request),
};
