// The weather server in an Express app that parses every JSON body before its
// routes (express.json()): the transport takes the body the parser made.
//
//   node dist/examples/deploy/express-json.js --port 3000
import type { AddressInfo } from "node:net";
import express from "express";
import { StreamableHttpTransport } from "mcpgen/http";
import { buildServer } from "./server.js";

const portAt = process.argv.indexOf("--port");
const port = portAt === -1 ? 3000 : Number(process.argv[portAt + 1]);

// The transport bounds a body at maxBodyBytes (4 MiB); the parser's own limit is 100 kB unless raised.
const transport = new StreamableHttpTransport(buildServer());
const app = express();
app.use(express.json({ limit: "4mb" }));
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
