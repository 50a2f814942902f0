// examples/deploy/fastify started from dist/ on loopback as a user runs it: the
// official SDK v2 client (2026-07-28) and v1 client (a 2025 session with its
// GET stream) call get_forecast, and SIGTERM stops it with exit 0 while a
// session's SSE stream is open. Then the same route in process with a server that
// notifies: a 2025 session's notifications reach the client over the streams
// Fastify hands over (reply.hijack()).
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { StreamableHttpTransport } from "../../runtime/transports/http.js";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import {
  builtExample,
  forecastWithV1,
  forecastWithV2,
  notificationsOverStreams,
  openSessionStream,
  start,
  stop,
  type Started,
} from "./support.js";

describe("examples/deploy/fastify", () => {
  let started: Started | undefined;
  let stream: Awaited<ReturnType<typeof openSessionStream>> | undefined;
  beforeAll(async () => {
    started = await start(process.execPath, [builtExample("fastify")], "fastify");
    // Left open until the process is stopped: stopping must end it, not wait for it.
    stream = await openSessionStream(started.url);
  });
  afterAll(async () => {
    if (started) expect(await stop(started.child)).toBe(0);
    await stream?.cancel();
  });

  test("the SDK v2 client pinned to 2026-07-28 calls get_forecast", () => forecastWithV2(started!.url));
  test("the SDK v1 client calls get_forecast in a 2025 session with its GET stream", () =>
    forecastWithV1(started!.url));
  test("it printed its URL and nothing else", () => expect(started!.output()).toBe(`fastify: ${started!.url}\n`));
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
