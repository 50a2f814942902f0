// examples/deploy/hono on Bun (the npm package bun, .ci/runtimes), started from
// dist/ on loopback as a user runs it: the official SDK v2 client (2026-07-28)
// and v1 client (a 2025 session with its GET stream) call get_forecast; a
// session's SSE stream, opened first and quiet since, is still open after 12 s
// (Bun cuts a connection idle for 10 s unless the example says otherwise); and
// SIGTERM stops Bun with exit 0 while that stream is open.
import { expect, test } from "vitest";
import { builtExample, describeExample } from "../frameworks/support.js";
import { runtimeBin } from "./installed.js";

describeExample(
  "examples/deploy/hono on Bun",
  { command: runtimeBin("bun"), args: [builtExample("hono")], label: "hono" },
  (running) =>
    test("the SSE stream opened first, quiet since, is still open after 12 s or more", async () => {
      const { stream } = running();
      const waited = Date.now() - stream.openedAt;
      if (waited < 12_000) await new Promise((resolve) => setTimeout(resolve, 12_000 - waited));
      expect(stream.ended()).toBeUndefined();
    }),
);
