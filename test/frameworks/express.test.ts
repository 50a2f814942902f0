// examples/deploy/express and examples/deploy/express-json (behind
// express.json()), each started from dist/ on loopback as a user runs it: the
// official SDK v2 client (2026-07-28) and v1 client (a 2025 session with its
// GET stream) call get_forecast, and SIGTERM stops the process with exit 0 while a
// session's SSE stream is open.
// Then the same mounting in process with a server that notifies: a 2025
// session's notifications reach the client over Express's SSE streams.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, test } from "vitest";
import { StreamableHttpTransport } from "../../runtime/transports/http.js";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import { builtExample, describeExample, notificationsOverStreams } from "./support.js";

for (const name of ["express", "express-json"])
  describeExample(`examples/deploy/${name}`, {
    command: process.execPath,
    args: [builtExample(name)],
    label: "express",
  });

describe.each([
  ["without a body parser", false],
  ["behind express.json()", true],
])("Express %s: a 2025 session's notifications arrive over its SSE streams", (_name, parseJson) => {
  let url = "";
  let close = async () => {};
  beforeAll(async () => {
    const transport = new StreamableHttpTransport(buildEverythingServer({ logger: () => {} }));
    const app = express();
    if (parseJson) app.use(express.json());
    app.all("/mcp", (req, res) => transport.handle(req, res, req.body));
    const listener: Server = await new Promise((resolve) => {
      const server = app.listen(0, "127.0.0.1", () => resolve(server));
    });
    url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
    close = async () => {
      transport.close();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    };
  });
  afterAll(() => close());

  test("list_changed on the GET stream, progress on a POST stream", () => notificationsOverStreams(url));
});
