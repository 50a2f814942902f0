// examples/deploy/next-route, the module a Next.js app has at app/mcp/route.ts,
// loaded from dist/ in a Node process that calls its exported GET, POST and
// DELETE with each Request as Next.js does (next-host.mjs; Next.js itself is
// not a dependency: the route needs nothing from it). The official SDK v2
// client (2026-07-28) and v1 client (a 2025 session with its GET stream) call
// get_forecast; DELETE ends a session; a method the route does not export is 405.
import { join } from "node:path";
import { expect, test } from "vitest";
import { builtExample, describeExample } from "./support.js";

describeExample(
  "examples/deploy/next-route",
  {
    command: process.execPath,
    args: [join(import.meta.dirname, "next-host.mjs"), builtExample("next-route")],
    label: "next route",
  },
  (running) => {
    test("DELETE ends a session: the next request in it is 404", async () => {
      const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
      const initialize = {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      };
      const opened = await fetch(running().started.url, { method: "POST", headers, body: JSON.stringify(initialize) });
      await opened.text();
      const session = { "Mcp-Session-Id": opened.headers.get("mcp-session-id")!, "MCP-Protocol-Version": "2025-11-25" };
      const deleted = await fetch(running().started.url, { method: "DELETE", headers: session });
      const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
      const after = await fetch(running().started.url, {
        method: "POST",
        headers: { ...headers, ...session },
        body: ping,
      });
      expect([deleted.status, after.status]).toEqual([204, 404]);
      await after.text();
    });

    test("a method the route does not export is 405", async () => {
      expect((await fetch(running().started.url, { method: "PUT" })).status).toBe(405);
    });
  },
);
