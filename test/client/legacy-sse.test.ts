// The 2024-11-05 HTTP+SSE transport on the client's side, reached the way
// the later revisions' "Backwards Compatibility" section describes: the
// initialize POST refused with 400/404/405, then a GET whose first event is
// `endpoint`. Against mcpgen's server (its /sse and /messages endpoints) and the
// official SDK v1's SSEServerTransport (test/fixtures/servers/sdk-v1.ts --sse).
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  Client,
  HttpStatusError,
  LegacySseClientTransport,
  StreamableHttpClientTransport,
  type ClientHandlers,
} from "mcpgen/client";
import { serveHttp, type HttpServerHandle } from "mcpgen/http";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import { fixture, startUrlServer, stopChild, text } from "./support.js";

const handlers: ClientHandlers = {
  elicitation: async () => ({ action: "accept", content: { name: "Ada" } }),
  sampling: async () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" }),
  roots: async () => ({ roots: [{ uri: "file:///work", name: "work" }] }),
};
describe("mcpgen's server: its 2024-11-05 endpoints", () => {
  let handle: HttpServerHandle;
  let sse: string;
  beforeAll(async () => {
    handle = await serveHttp(buildEverythingServer({ logger: () => {} }));
    sse = new URL("/sse", handle.url).href;
  });
  afterAll(async () => {
    await handle.close();
  });

  for (const revision of [undefined, "2024-11-05"])
    test(`the SSE URL given: POST refused (405), GET, endpoint, then everything on it (${revision ?? "detected"})`, async () => {
      const transport = new StreamableHttpClientTransport(sse);
      const client = await Client.connect(transport, { handlers, ...(revision ? { revision } : {}) });
      try {
        expect(transport.legacySse).toBe(true);
        expect(transport.session).toBeUndefined();
        expect([client.era, client.revision.name]).toEqual(["legacy", revision ?? "2025-11-25"]);
        expect(client.serverInfo?.name).toBe("everything");
        expect(handle.transport.sessionCount).toBe(1);
        expect(text(await client.callTool("echo", { text: "over sse" }))).toBe("over sse");
        // Server-to-client requests and their answers, progress: all on the one stream.
        expect(text(await client.callTool("sample", { q: "?" }))).toBe("model said: hi");
        expect(text(await client.callTool("roots"))).toBe("file:///work");
        const progress: number[] = [];
        await client.callTool("slow", { steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
        expect(progress).toEqual([1, 2, 3]);
        // Subscriptions too.
        const updated: string[] = [];
        const sub = await client.subscribe({ resourceSubscriptions: ["test://static/a"] }, (n) =>
          updated.push(String(n.params["uri"])),
        );
        await client.callTool("touch", { uri: "test://static/a" });
        await expect.poll(() => updated).toEqual(["test://static/a"]);
        await sub.close();
      } finally {
        await client.close();
      }
      // Closing the stream ends the session on the server.
      await expect.poll(() => handle.transport.sessionCount).toBe(0);
    });

  test("LegacySseClientTransport used directly", async () => {
    const transport = new LegacySseClientTransport(sse);
    const client = await Client.connect(transport, { revision: "2024-11-05" });
    try {
      expect(transport.messageEndpoint).toMatch(
        new RegExp(`^${new URL("/messages?sessionId=", handle.url).href.replace(/[?.]/g, "\\$&")}`),
      );
      expect(text(await client.callTool("echo", { text: "direct" }))).toBe("direct");
    } finally {
      await client.close();
    }
  });

  test("the Streamable HTTP endpoint itself: no fallback", async () => {
    const transport = new StreamableHttpClientTransport(handle.url);
    const client = await Client.connect(transport, { revision: "2025-03-26" });
    try {
      expect(transport.legacySse).toBe(false);
      expect(transport.session).toBeDefined();
    } finally {
      await client.close();
    }
  });

  test("neither transport: the error names the refused POST and the failed GET", async () => {
    const transport = new StreamableHttpClientTransport(new URL("/nowhere", handle.url));
    const error = await Client.connect(transport, { revision: "2025-11-25" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(404);
    expect((error as Error).message).toMatch(
      /refused the initialize POST with HTTP 404.*no 2024-11-05 HTTP\+SSE server either: .*answered the SSE GET with HTTP 404/,
    );
  });

  test("legacySseFallback: false keeps the refusal", async () => {
    const transport = new StreamableHttpClientTransport(sse, { legacySseFallback: false });
    const error = await Client.connect(transport, { revision: "2025-11-25" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(405);
    expect(transport.legacySse).toBe(false);
  });
});

describe("the official SDK v1 SSEServerTransport", () => {
  let server: { url: string; child: ChildProcess };
  beforeAll(async () => {
    server = await startUrlServer(fixture("sdk-v1.js"), ["--sse"]);
  });
  afterAll(async () => {
    await stopChild(server.child);
  });

  test("found by the fallback; tools, server-to-client requests, progress, subscriptions", async () => {
    const transport = new StreamableHttpClientTransport(server.url);
    const client = await Client.connect(transport, { handlers });
    try {
      expect(transport.legacySse).toBe(true);
      expect([client.era, client.serverInfo?.name]).toEqual(["legacy", "sdk-v1"]);
      expect(text(await client.callTool("echo", { text: "v1 sse" }))).toBe("v1 sse");
      expect(text(await client.callTool("ask"))).toBe('accept {"name":"Ada"} | hi | file:///work');
      const progress: number[] = [];
      await client.callTool("steps", {}, { onProgress: (p) => progress.push(p.progress) });
      expect(progress).toEqual([1, 2, 3]);
      const seen: string[] = [];
      const sub = await client.subscribe({ resourceSubscriptions: ["test://note"], toolsListChanged: true }, (n) =>
        seen.push(n.method),
      );
      await client.callTool("touch", { uri: "test://note" });
      await client.callTool("add_tool");
      await expect.poll(() => seen).toEqual(["notifications/resources/updated", "notifications/tools/list_changed"]);
      await sub.close();
    } finally {
      await client.close();
    }
  });

  test("the server going away ends the connection: pending calls fail, whenClosed settles", async () => {
    const own = await startUrlServer(fixture("sdk-v1.js"), ["--sse"]);
    const client = await Client.connect(new StreamableHttpClientTransport(own.url), { handlers });
    try {
      await stopChild(own.child);
      const reason = await client.whenClosed;
      expect(reason.name).toBe("ConnectionClosedError");
      await expect(client.callTool("echo", { text: "gone" })).rejects.toThrow(/SSE stream of .* (ended|broke off)/);
    } finally {
      await client.close();
    }
  });
});
