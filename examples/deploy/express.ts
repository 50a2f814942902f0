// The weather server mounted in an Express app at /mcp.
//
//   node dist/examples/deploy/express.js --port 3000
import type { AddressInfo } from "node:net";
import express from "express";
import { StreamableHttpTransport } from "mcpgen/http";
import { buildServer } from "./server.js";

const portAt = process.argv.indexOf("--port");
const port = portAt === -1 ? 3000 : Number(process.argv[portAt + 1]);

const transport = new StreamableHttpTransport(buildServer());
const app = express();
app.all("/mcp", (req, res) => transport.handle(req, res, req.body));

const listener = app.listen(port, "127.0.0.1", () => {
  console.log(`express: http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`);
});

// Ends the sessions (their SSE streams close), then the listener.
const stop = () => {
  transport.close();
  listener.close(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
