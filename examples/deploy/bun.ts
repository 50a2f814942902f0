// The weather server on Bun: its fetch handler served by Bun.serve on loopback, both eras.
//
//   bun dist/examples/deploy/bun.js        (PORT=3000 by default)
import { createFetchHandler } from "mcpgen/fetch";
import { buildServer } from "./server.js";

// What this file uses of Bun's global (a Bun project has it from @types/bun).
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    idleTimeout: number;
    fetch: (request: Request) => Promise<Response>;
  }): { url: URL; stop(closeActiveConnections: boolean): Promise<void> };
};

const handler = createFetchHandler(buildServer());
// Bun cuts a connection after 10 s without traffic; 0 keeps a quiet SSE stream open.
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env["PORT"] ?? 3000),
  idleTimeout: 0,
  fetch: handler,
});
console.log(`weather server: ${new URL("/mcp", server.url).href}`);

// Ends the sessions and their streams, then the listener.
process.on("SIGTERM", () => {
  handler.close();
  void server.stop(true).then(() => process.exit(0));
});
