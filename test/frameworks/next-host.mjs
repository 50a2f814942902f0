// Serves a Next.js route module's exported handlers on loopback as Next.js
// does: each request goes to the export named by its method, 405 when there is
// none. Started by next-route.test.ts: node next-host.mjs <route.js> --port N.
import { serve } from "@hono/node-server";
import { pathToFileURL } from "node:url";

const route = await import(pathToFileURL(process.argv[2]).href);
const portAt = process.argv.indexOf("--port");
const server = serve(
  {
    hostname: "127.0.0.1",
    port: Number(process.argv[portAt + 1]),
    fetch: (request) => {
      if (new URL(request.url).pathname !== "/mcp") return new Response(null, { status: 404 });
      const handler = route[request.method];
      return handler ? handler(request, { params: Promise.resolve({}) }) : new Response(null, { status: 405 });
    },
  },
  (info) => console.log(`next route: http://127.0.0.1:${info.port}/mcp`),
);
// The route module keeps its sessions to itself: on SIGTERM the host ends the connections (SSE streams
// included) as a Next.js server shutting down does, rather than wait for clients to leave.
process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
