// examples/deploy/next-route, the module a Next.js app has at app/mcp/route.ts,
// loaded from dist/ in a Node process that calls its exported GET, POST and
// DELETE with each Request as Next.js does (next-host.mjs; Next.js itself is
// not a dependency: the route needs nothing from it). The official SDK v2
// client (2026-07-28) and v1 client (a 2025 session with its GET stream) call
// get_forecast; DELETE ends a session; a method the route does not export is 405.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { builtExample, forecastWithV1, forecastWithV2, start, stop, type Started } from "./support.js";

describe("examples/deploy/next-route", () => {
  let started: Started | undefined;
  beforeAll(async () => {
    const host = join(import.meta.dirname, "next-host.mjs");
    started = await start(process.execPath, [host, builtExample("next-route")], "next route");
  });
  afterAll(async () => {
    if (started) expect(await stop(started.child)).toBe(0);
  });

  test("the SDK v2 client pinned to 2026-07-28 calls get_forecast", () => forecastWithV2(started!.url));
  test("the SDK v1 client calls get_forecast in a 2025 session with its GET stream", () =>
    forecastWithV1(started!.url));

  test("DELETE ends a session: the next request in it is 404", async () => {
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const opened = await fetch(started!.url, { method: "POST", headers, body: JSON.stringify(initialize) });
    await opened.text();
    const session = { "Mcp-Session-Id": opened.headers.get("mcp-session-id")!, "MCP-Protocol-Version": "2025-11-25" };
    const deleted = await fetch(started!.url, { method: "DELETE", headers: session });
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const after = await fetch(started!.url, { method: "POST", headers: { ...headers, ...session }, body: ping });
    expect([deleted.status, after.status]).toEqual([204, 404]);
    await after.text();
  });

  test("a method the route does not export is 405", async () => {
    expect((await fetch(started!.url, { method: "PUT" })).status).toBe(405);
  });
});
