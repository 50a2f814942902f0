// The weather server as a Hono route at /mcp, on Node (@hono/node-server) and on Bun.
//
//   node dist/examples/deploy/hono.js --port 3000
//   bun dist/examples/deploy/hono.js --port 3000
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createFetchHandler } from "mcpgen/fetch";
import { buildServer } from "./server.js";

const portAt = process.argv.indexOf("--port");
const port = portAt === -1 ? 3000 : Number(process.argv[portAt + 1]);

const handler = createFetchHandler(buildServer());
const app = new Hono();
app.all("/mcp", (c) => handler(c.req.raw));

/** What this file uses of Bun's global. */
interface BunServe {
  serve(options: { hostname: string; port: number; idleTimeout: number; fetch: typeof app.fetch }): {
    port: number;
    stop(closeActiveConnections: boolean): Promise<void>;
  };
}
const { Bun } = globalThis as { Bun?: BunServe };

let stopListening: () => Promise<void>;
if (Bun) {
  // Bun closes a connection after 10 s without traffic; 0 keeps a quiet SSE stream open.
  const server = Bun.serve({ hostname: "127.0.0.1", port, idleTimeout: 0, fetch: app.fetch });
  console.log(`hono: http://127.0.0.1:${server.port}/mcp`);
  stopListening = () => server.stop(true);
} else {
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port }, (info) => {
    console.log(`hono: http://127.0.0.1:${info.port}/mcp`);
  });
  stopListening = () => new Promise((resolve) => server.close(() => resolve()));
}

// Ends the sessions (their SSE streams close), then the listener.
const stop = () => {
  handler.close();
  void stopListening().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
