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
import { afterAll, beforeAll, describe, test } from "vitest";
import { createFetchHandler } from "../../runtime/transports/fetch.js";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import { builtExample, describeExample, notificationsOverStreams } from "./support.js";

describeExample("examples/deploy/hono on Node", {
  command: process.execPath,
  args: [builtExample("hono")],
  label: "hono",
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
