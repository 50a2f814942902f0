// examples/deploy/fastify started from dist/ on loopback as a user runs it: the
// official SDK v2 client (2026-07-28) and v1 client (a 2025 session with its
// GET stream) call get_forecast, and SIGTERM stops it with exit 0 while a
// session's SSE stream is open. Then the same route in process with a server that
// notifies: a 2025 session's notifications reach the client over the streams
// Fastify hands over (reply.hijack()).
import Fastify from "fastify";
import { afterAll, beforeAll, describe, test } from "vitest";
import { StreamableHttpTransport } from "../../runtime/transports/http.js";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import { builtExample, describeExample, notificationsOverStreams } from "./support.js";

describeExample("examples/deploy/fastify", {
  command: process.execPath,
  args: [builtExample("fastify")],
  label: "fastify",
});

describe("Fastify: a 2025 session's notifications arrive over its SSE streams", () => {
  const transport = new StreamableHttpTransport(buildEverythingServer({ logger: () => {} }));
  const app = Fastify();
  let url = "";
  beforeAll(async () => {
    app.route({
      method: ["GET", "POST", "DELETE"],
      url: "/mcp",
      handler: (request, reply) => {
        reply.hijack();
        transport.handle(request.raw, reply.raw, request.body);
      },
    });
    app.addHook("preClose", async () => transport.close());
    url = `${await app.listen({ host: "127.0.0.1", port: 0 })}/mcp`;
  });
  afterAll(() => app.close());

  test("list_changed on the GET stream, progress on a POST stream", () => notificationsOverStreams(url));
});
