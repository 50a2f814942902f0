// The weather server on Deno: its fetch handler served by Deno.serve on loopback, both eras.
//
//   deno run --allow-net=127.0.0.1 --allow-env=PORT dist/examples/deploy/deno.js      (PORT=3000 by default)
import { createFetchHandler } from "mcpgen/fetch";
import { buildServer } from "./server.js";

// What this file uses of Deno's global (a Deno project has its types built in).
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): { shutdown(): Promise<void> };
  addSignalListener(signal: "SIGTERM", listener: () => void): void;
  exit(code: number): never;
};

const handler = createFetchHandler(buildServer());
const server = Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 3000),
    onListen: ({ port }) => console.log(`weather server: http://127.0.0.1:${port}/mcp`),
  },
  handler,
);

// Ends the sessions and their streams, then the listener.
Deno.addSignalListener("SIGTERM", () => {
  handler.close();
  void server.shutdown().then(() => Deno.exit(0));
});
