// examples/deploy/hono on Bun (the npm package bun, .ci/runtimes), started from
// dist/ on loopback as a user runs it: the official SDK v2 client (2026-07-28)
// and v1 client (a 2025 session with its GET stream) call get_forecast; a
// session's SSE stream, opened first and quiet since, is still open after 12 s
// (Bun cuts a connection idle for 10 s unless the example says otherwise); and
// SIGTERM stops Bun with exit 0 while that stream is open.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  builtExample,
  forecastWithV1,
  forecastWithV2,
  openSessionStream,
  start,
  stop,
  type Started,
} from "../frameworks/support.js";
import { runtimeBin } from "./installed.js";

describe("examples/deploy/hono on Bun", () => {
  let started: Started | undefined;
  let stream: Awaited<ReturnType<typeof openSessionStream>> | undefined;
  beforeAll(async () => {
    started = await start(runtimeBin("bun"), [builtExample("hono")], "hono");
    stream = await openSessionStream(started.url);
  });
  afterAll(async () => {
    if (started) expect(await stop(started.child)).toBe(0);
    await stream?.cancel();
  });

  test("the SDK v2 client pinned to 2026-07-28 calls get_forecast", () => forecastWithV2(started!.url));
  test("the SDK v1 client calls get_forecast in a 2025 session with its GET stream", () =>
    forecastWithV1(started!.url));

  test("the SSE stream opened first, quiet since, is still open after 12 s or more", async () => {
    const waited = Date.now() - stream!.openedAt;
    if (waited < 12_000) await new Promise((resolve) => setTimeout(resolve, 12_000 - waited));
    expect(stream!.ended()).toBeUndefined();
  });

  test("Bun printed nothing but the URL: no warning, no error", () =>
    expect(started!.output()).toBe(`hono: ${started!.url}\n`));
});
