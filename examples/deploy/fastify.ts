// The weather server as a Fastify route at /mcp.
//
//   node dist/examples/deploy/fastify.js --port 3000
import Fastify from "fastify";
import { StreamableHttpTransport } from "mcpgen/http";
import { buildServer } from "./server.js";

const portAt = process.argv.indexOf("--port");
const port = portAt === -1 ? 3000 : Number(process.argv[portAt + 1]);

const transport = new StreamableHttpTransport(buildServer());
// Fastify parses JSON bodies itself, up to bodyLimit (1 MiB unless raised): the transport's own bound is 4 MiB.
const app = Fastify({ bodyLimit: 4 * 1024 * 1024 });
app.route({
  method: ["GET", "POST", "DELETE"],
  url: "/mcp",
  handler: (request, reply) => {
    // The transport writes the response (SSE streams too): Fastify must not send one after this handler.
    reply.hijack();
    transport.handle(request.raw, reply.raw, request.body);
  },
});
// Ends the sessions (their SSE streams close) before Fastify waits for its connections.
app.addHook("preClose", async () => transport.close());

const url = await app.listen({ host: "127.0.0.1", port });
console.log(`fastify: ${url}/mcp`);

const stop = () => void app.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
