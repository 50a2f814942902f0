// client.subscribe(): one API for change notifications in both eras, against
// real servers: mcpgen's (subscriptions/listen on 2026-07-28; resources/subscribe
// and list_changed on the handshake revisions) over stdio and Streamable HTTP,
// and the official SDK v1 server (resources/subscribe, list_changed). The same
// exercise runs in every case: what is asked for arrives, what is not does
// not, two subscriptions are told apart, and close() ends it on the server.
import { describe, expect, test } from "vitest";
import {
  Client,
  StdioClientTransport,
  StreamableHttpClientTransport,
  type SubscriptionNotification,
} from "mcpgen/client";
import { serveHttp } from "mcpgen/http";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import { fixture, startUrlServer, stopChild, httpFixtureServer } from "./support.js";

const everything = fixture("everything.js");

/** Resolves once `seen` has `count` entries, or rejects after `ms`. */
async function until<T>(seen: T[], count: number, ms = 5000): Promise<T[]> {
  const end = Date.now() + ms;
  while (seen.length < count) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${count} notifications, got ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return seen;
}

const quiet = () => new Promise((resolve) => setTimeout(resolve, 150));
const summary = (n: SubscriptionNotification) =>
  n.method === "notifications/resources/updated" ? `${n.method} ${n.params.uri}` : n.method;

/** The same user code whatever the era: only the asked-for notifications, told apart per subscription. */
async function exercise(client: Client, uris: { a: string; b: string }, tools: { touch: string; addTool: string }) {
  const first: string[] = [];
  const second: string[] = [];
  const sub = await client.subscribe({ resourceSubscriptions: [uris.a], toolsListChanged: true }, (n) =>
    first.push(summary(n)),
  );
  const other = await client.subscribe({ resourceSubscriptions: [uris.b] }, (n) => second.push(summary(n)));
  expect(sub.acknowledged).toEqual({ resourceSubscriptions: [uris.a], toolsListChanged: true });
  expect(other.acknowledged).toEqual({ resourceSubscriptions: [uris.b] });

  await client.callTool(tools.touch, { uri: uris.a });
  await until(first, 1);
  await client.callTool(tools.touch, { uri: uris.b });
  await until(second, 1);
  await client.callTool(tools.addTool);
  await until(first, 2);
  await quiet();
  expect(first).toEqual([`notifications/resources/updated ${uris.a}`, "notifications/tools/list_changed"]);
  // The second asked for no list changes and for b only.
  expect(second).toEqual([`notifications/resources/updated ${uris.b}`]);

  // Closed: the server is told (legacy: resources/unsubscribe; modern: the listen request cancelled), so it
  // stops sending; what the client hears at all (client.on) shows it.
  const heard: string[] = [];
  const stop = client.on("notifications/resources/updated", (params) => heard.push(String(params["uri"])));
  await sub.close();
  await expect(sub.closed).resolves.toEqual({ by: "client" });
  await client.callTool(tools.touch, { uri: uris.a });
  await client.callTool(tools.touch, { uri: uris.b });
  await until(second, 2);
  await quiet();
  expect(heard).toEqual([uris.b]);
  expect(first).toHaveLength(2);
  await other.close();
  stop();
}

describe("mcpgen's server over stdio", () => {
  for (const revision of [undefined, "2025-11-25", "2025-03-26", "2024-11-05"])
    test(`${revision ?? "detected (2026-07-28: subscriptions/listen)"}`, async () => {
      const client = await Client.connect(new StdioClientTransport({ command: process.execPath, args: [everything] }), {
        ...(revision ? { revision } : {}),
      });
      try {
        expect(client.era).toBe(revision ? "legacy" : "modern");
        await exercise(client, { a: "test://static/a", b: "test://static/b" }, { touch: "touch", addTool: "add_tool" });
      } finally {
        await client.close();
      }
    });

  test("modern: the id is the listen request's; the acknowledgment says what the server honors", async () => {
    const client = await Client.connect(new StdioClientTransport({ command: process.execPath, args: [everything] }));
    try {
      expect(client.era).toBe("modern");
      const sub = await client.subscribe({ promptsListChanged: true, resourcesListChanged: true }, () => {});
      expect(typeof sub.id).toBe("number");
      expect(sub.acknowledged).toEqual({ promptsListChanged: true, resourcesListChanged: true });
      await sub.close();
    } finally {
      await client.close();
    }
  });

  test("the connection ending ends every subscription, as a connection end (modern and legacy)", async () => {
    for (const revision of [undefined, "2025-11-25"]) {
      const client = await Client.connect(new StdioClientTransport({ command: process.execPath, args: [everything] }), {
        ...(revision ? { revision } : {}),
      });
      const sub = await client.subscribe({ toolsListChanged: true }, () => {});
      await client.close();
      const end = await sub.closed;
      expect(end.by).toBe("connection");
      expect(end.error?.name).toBe("ConnectionClosedError");
    }
  });

  test("an aborted signal closes the subscription", async () => {
    const client = await Client.connect(new StdioClientTransport({ command: process.execPath, args: [everything] }));
    try {
      const controller = new AbortController();
      const sub = await client.subscribe({ toolsListChanged: true }, () => {}, { signal: controller.signal });
      controller.abort();
      await expect(sub.closed).resolves.toEqual({ by: "client" });
    } finally {
      await client.close();
    }
  });
});

describe("mcpgen's server over Streamable HTTP", () => {
  const server = httpFixtureServer();

  for (const revision of [undefined, "2025-11-25"])
    test(`${revision ?? "detected (2026-07-28: the listen request's SSE stream)"}`, async () => {
      const client = await Client.connect(new StreamableHttpClientTransport(server.url), {
        ...(revision ? { revision } : {}),
      });
      try {
        await exercise(client, { a: "test://static/a", b: "test://static/b" }, { touch: "touch", addTool: "add_tool" });
      } finally {
        await client.close();
      }
    });

  test("the server shutting down ends a listen stream gracefully (#graceful-closure)", async () => {
    const mcp = buildEverythingServer({ logger: () => {} });
    const handle = await serveHttp(mcp);
    try {
      const client = await Client.connect(new StreamableHttpClientTransport(handle.url));
      try {
        const sub = await client.subscribe({ toolsListChanged: true }, () => {});
        mcp.close();
        await expect(sub.closed).resolves.toEqual({ by: "server" });
      } finally {
        await client.close();
      }
    } finally {
      await handle.close();
    }
  });
});

describe("the official SDK v1 server", () => {
  test("stdio: resources/subscribe and tools/list_changed behind the same API", async () => {
    const client = await Client.connect(
      new StdioClientTransport({ command: process.execPath, args: [fixture("sdk-v1.js")] }),
    );
    try {
      expect(client.era).toBe("legacy");
      await exercise(client, { a: "test://note", b: "test://other" }, { touch: "touch", addTool: "add_tool" });
    } finally {
      await client.close();
    }
  });

  test("Streamable HTTP: the notifications arrive on the GET stream", async () => {
    const server = await startUrlServer(fixture("sdk-v1.js"), ["--http"]);
    try {
      const client = await Client.connect(new StreamableHttpClientTransport(server.url));
      try {
        await exercise(client, { a: "test://note", b: "test://other" }, { touch: "touch", addTool: "add_tool" });
      } finally {
        await client.close();
      }
    } finally {
      await stopChild(server.child);
    }
  });
});
