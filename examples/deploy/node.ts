// The weather server on Node.js: serveHttp (mcpgen/http) on loopback, both eras.
//
//   node dist/examples/deploy/node.js      (PORT=3000 by default)
import { serveHttp } from "mcpgen/http";
import { buildServer } from "./server.js";

const served = await serveHttp(buildServer(), { port: Number(process.env["PORT"] ?? 3000) });
console.log(`weather server: ${served.url}`);

// Ends the sessions and their streams, then the listener.
process.on("SIGTERM", () => void served.close().then(() => process.exit(0)));
