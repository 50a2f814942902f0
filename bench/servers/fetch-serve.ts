// Serves a fetch handler on loopback with the runtime running this file:
// Bun.serve, Deno.serve, or on Node behind the bridge that --bridge names
// (bridges.ts). Prints the MCP endpoint's URL, as every bench server does.
import type { NodeListener } from "./bridges.js";

type Handler = (request: Request) => Response | Promise<Response>;

/** What this file uses of the two runtimes' globals. */
interface Runtimes {
  Bun?: { serve(options: { hostname: string; port: number; fetch: Handler }): { port: number } };
  Deno?: {
    serve(options: { hostname: string; port: number; onListen(): void }, handler: Handler): { addr: { port: number } };
  };
}

/** The running runtime's name, as the bench's rows say it. */
export function runtimeName(): "Bun" | "Deno" | "Node" {
  const { Bun, Deno } = globalThis as Runtimes;
  return Bun ? "Bun" : Deno ? "Deno" : "Node";
}

/**
 * Serves `handler`; on Node, `nodeListener` is the node:http listener that stands for it
 * (the bridge named by --bridge, applied to the handler by the caller).
 */
export async function serveFetch(handler: Handler, nodeListener: () => Promise<NodeListener>): Promise<void> {
  const { Bun, Deno } = globalThis as Runtimes;
  let port: number;
  if (Bun) port = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler }).port;
  else if (Deno) port = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler).addr.port;
  else {
    const { createServer } = await import("node:http");
    const server = createServer(await nodeListener());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  }
  console.log(`http://127.0.0.1:${port}/mcp`);
}

/** The value of --bridge (Node only): which bridge puts node:http in front of the handler. */
export function bridgeName(): string {
  const at = process.argv.indexOf("--bridge");
  const name = at === -1 ? undefined : process.argv[at + 1];
  if (!name) throw new Error("on Node, name a bridge: --bridge sdk|hono|mcpgen");
  return name;
}
