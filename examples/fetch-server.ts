// The MCP server on Bun and on Deno: its fetch handler served by the runtime's
// own HTTP server on loopback, with sessions held in the process as on Node.
// The server here is the conformance fixture (conformance-fixture.ts) with its
// skills read from disk; yours goes in its place.
//
//   bun dist/examples/fetch-server.js --port 3001
//   deno run --allow-net=127.0.0.1 --allow-read --allow-env dist/examples/fetch-server.js --port 3001
import { createFetchHandler } from "mcpgen/fetch";
import { buildConformanceServer } from "./conformance-fixture.js";
import { conformanceSkillsRoot } from "./conformance-skills-root.js";

type Handler = (request: Request) => Promise<Response>;
/** What this file uses of the two runtimes' globals. */
interface Runtimes {
  Bun?: {
    serve(options: { hostname: string; port: number; idleTimeout: number; fetch: Handler }): {
      port: number;
      stop(closeActiveConnections: boolean): Promise<void>;
    };
  };
  Deno?: {
    serve(
      options: { hostname: string; port: number; onListen(): void },
      handler: Handler,
    ): { addr: { port: number }; shutdown(): Promise<void> };
  };
}

const portAt = process.argv.indexOf("--port");
const port = portAt === -1 ? 3001 : Number(process.argv[portAt + 1]);
const handler = createFetchHandler(await buildConformanceServer({ skillsRoot: conformanceSkillsRoot() }));

const { Bun, Deno } = globalThis as Runtimes;
let listening: { port: number; stop(): Promise<void> };
if (Bun) {
  // Bun closes a connection after 10 s without traffic; 0 keeps a quiet SSE stream open.
  const server = Bun.serve({ hostname: "127.0.0.1", port, idleTimeout: 0, fetch: handler });
  listening = { port: server.port, stop: () => server.stop(true) };
} else if (Deno) {
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, handler);
  listening = { port: server.addr.port, stop: () => server.shutdown() };
} else {
  throw new Error("run this file with bun or deno; on Node, serveHttp (mcpgen/http) serves the same");
}
console.log(`fetch server: http://127.0.0.1:${listening.port}/mcp`);

// Ends the sessions (their streams close), then the listener.
const stop = () => {
  handler.close();
  void listening.stop().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
