// examples/deploy/hono on Node (@hono/node-server), started from dist/ on
// loopback as a user runs it: the official SDK v2 client (2026-07-28) and v1
// client (a 2025 session with its GET stream) call get_forecast, and SIGTERM
// stops it with exit 0 while a session's SSE stream is open. Then the same
// route in process with a server that notifies: a 2025 session's
// notifications reach the client over the ReadableStreams Hono hands to Node.
// On Bun: test/runtimes/hono-bun.test.ts.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFetchHandler } from "../../runtime/transports/fetch.js";
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

describe("examples/deploy/hono on Node", () => {
  let started: Started | undefined;
  let stream: Awaited<ReturnType<typeof openSessionStream>> | undefined;
  beforeAll(async () => {
    started = await start(process.execPath, [builtExample("hono")], "hono");
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
  test("it printed its URL and nothing else", () => expect(started!.output()).toBe(`hono: ${started!.url}\n`));
});

describe("Hono on Node: a 2025 session's notifications arrive over its SSE streams", () => {
  const handler = createFetchHandler(buildEverythingServer({ logger: () => {} }));
  let server: Server | undefined;
  let url = "";
  beforeAll(async () => {
    const app = new Hono();
    app.all("/mcp", (c) => handler(c.req.raw));
    url = await new Promise((resolve) => {
      server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) =>
        resolve(`http://127.0.0.1:${info.port}/mcp`),
      ) as Server;
    });
  });
  afterAll(async () => {
    handler.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  test("list_changed on the GET stream, progress on a POST stream", () => notificationsOverStreams(url));
});
