// The node:http bridges a user on Node would put in front of a fetch handler:
//   sdk     @modelcontextprotocol/node's toNodeHandler, SDK v2's own (a handler with a fetch member)
//   hono    @hono/node-server's getRequestListener
//   mcpgen  mcpgen/fetch's toNodeListener (a handler from createFetchHandler only)
import type { IncomingMessage, ServerResponse } from "node:http";

type Handler = (request: Request) => Response | Promise<Response>;
export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void;

/** The bridge `name` applied to `handler`. */
export async function bridge(name: string, handler: Handler): Promise<NodeListener> {
  if (name === "sdk") {
    const { toNodeHandler } = await import("@modelcontextprotocol/node");
    const listener = toNodeHandler({ fetch: handler } as never);
    return (request, response) => void listener(request, response);
  }
  if (name === "hono") {
    const { getRequestListener } = await import("@hono/node-server");
    return getRequestListener(handler) as NodeListener;
  }
  if (name === "mcpgen") {
    const { toNodeListener } = await import("mcpgen/fetch");
    return toNodeListener(handler as never) as NodeListener;
  }
  throw new Error(`unknown bridge ${JSON.stringify(name)}: sdk, hono, mcpgen`);
}
