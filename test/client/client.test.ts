// mcpgen/client against real servers: mcpgen's own (the everything fixture) at
// every revision over stdio and Streamable HTTP, era detection included, and
// the official SDK v1 and v2 servers. Every exchange a client has: tools,
// resources, templates, prompts, completion, sampling/elicitation/roots both
// ways (server-to-client requests on legacy revisions, multi round-trip input
// on modern ones), progress, cancellation and timeouts.
import { getEventListeners } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import {
  Client,
  McpError,
  RequestTimeoutError,
  StdioClientTransport,
  StreamableHttpClientTransport,
  type ClientHandlers,
} from "mcpgen/client";
import { fixture, startUrlServer, stopChild, text, httpFixtureServer } from "./support.js";

const everything = fixture("everything.js");

const asked: string[] = [];
const handlers: ClientHandlers = {
  elicitation: async (params) => {
    asked.push(`elicitation: ${params.message}`);
    return { action: "accept", content: { name: "Ada" } };
  },
  sampling: async () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" }),
  roots: async () => ({ roots: [{ uri: "file:///work", name: "work" }] }),
};

/** The calls every revision serves, through one client API typed in 2026-07-28's shapes. */
async function exercise(client: Client, revision: string): Promise<void> {
  const tools = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "add", "elicit", "slow"]));
  const echo = await client.callTool("echo", { text: "héllo" });
  expect(text(echo)).toBe("héllo");
  // Converted up to 2026-07-28's shape whatever the wire revision.
  expect(echo.resultType).toBe("complete");
  const sum = await client.callTool("add", { a: 2, b: 3 });
  if (revision !== "2025-03-26" && revision !== "2024-11-05") expect(sum.structuredContent).toEqual({ sum: 5 });

  asked.length = 0;
  if (revision !== "2025-03-26" && revision !== "2024-11-05") {
    expect(text(await client.callTool("elicit"))).toBe('user accept: {"name":"Ada"}');
    expect(asked).toEqual(["elicitation: Your name?"]);
  }
  expect(text(await client.callTool("sample", { q: "?" }))).toBe("model said: hi");
  expect(text(await client.callTool("roots"))).toBe("file:///work");

  const progress: number[] = [];
  const slow = await client.callTool("slow", { steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
  expect(text(slow)).toBe("done after 3 steps");
  expect(progress).toEqual([1, 2, 3]);

  const failed = await client.callTool("fail");
  expect([failed.isError, text(failed)]).toEqual([true, "the disk is full"]);
  await expect(client.request("tools/call", { name: "protocol_fail" })).rejects.toMatchObject({
    name: "McpError",
    code: -32099,
  });

  const read = await client.readResource("test://static/a");
  expect(read.contents).toEqual([expect.objectContaining({ uri: "test://static/a", text: "A" })]);
  const resources = await client.request("resources/list", {});
  expect(resources.resources.map((r) => r.uri)).toContain("test://static/b");
  const templates = await client.request("resources/templates/list", {});
  expect(templates.resourceTemplates.length).toBeGreaterThan(0);
  const prompts = await client.request("prompts/list", {});
  const prompt = prompts.prompts[0]!;
  const got = await client.getPrompt(
    prompt.name,
    Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, "x"])),
  );
  expect(got.messages.length).toBeGreaterThan(0);
  if (revision !== "2024-11-05") {
    const completion = await client.request("completion/complete", {
      ref: { type: "ref/resource", uri: "file:///{+path}" },
      argument: { name: "path", value: "docs/" },
    });
    expect(completion.completion.values).toEqual(["docs/a.md", "docs/b.md"]);
  }

  // Cancellation: the call ends at once; the connection serves the next one.
  const controller = new AbortController();
  const cancelled = client.callTool("slow", { steps: 500 }, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error("the user gave up")), 50);
  await expect(cancelled).rejects.toThrow("the user gave up");
  await expect(client.callTool("slow", { steps: 500 }, { timeoutMs: 100 })).rejects.toBeInstanceOf(RequestTimeoutError);
  expect(text(await client.callTool("echo", { text: "after" }))).toBe("after");
}

describe("mcpgen's server over stdio", () => {
  test("era detection finds the modern era (server/discover) and uses 2026-07-28", async () => {
    const client = await Client.connect(new StdioClientTransport({ command: process.execPath, args: [everything] }), {
      handlers,
    });
    try {
      expect([client.era, client.revision.name, client.serverInfo?.name]).toEqual([
        "modern",
        "2026-07-28",
        "everything",
      ]);
      expect(client.instructions).toBe("A test server.");
      await exercise(client, "2026-07-28");
    } finally {
      await client.close();
    }
  });

  test("a long-lived AbortSignal shared by many requests keeps no listener once they are answered", async () => {
    const client = await Client.connect(new StdioClientTransport({ command: process.execPath, args: [everything] }));
    try {
      const shared = new AbortController();
      for (let i = 0; i < 20; i++) await client.callTool("echo", { text: `${i}` }, { signal: shared.signal });
      expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  for (const revision of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
    test(`pinned to ${revision}: the handshake, server-to-client requests, every feature`, async () => {
      const client = await Client.connect(new StdioClientTransport({ command: process.execPath, args: [everything] }), {
        handlers,
        revision,
      });
      try {
        expect([client.era, client.revision.name, client.serverInfo?.name]).toEqual(["legacy", revision, "everything"]);
        await exercise(client, revision);
      } finally {
        await client.close();
      }
    });

  test("a server that serves only handshake revisions: the probe fails, the client falls back to initialize", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [everything, "--revisions", "2025-06-18,2025-11-25"],
    });
    const client = await Client.connect(transport, { handlers, probeTimeoutMs: 5_000 });
    try {
      expect([client.era, client.revision.name]).toEqual(["legacy", "2025-11-25"]);
      expect(text(await client.callTool("echo", { text: "old" }))).toBe("old");
    } finally {
      await client.close();
    }
    expect(transport.pid).toBeUndefined();
  });

  test("a server serving draft beside a handshake revision: modern, at the version draft states", async () => {
    const client = await Client.connect(
      new StdioClientTransport({ command: process.execPath, args: [everything, "--revisions", "draft,2025-11-25"] }),
      { handlers },
    );
    try {
      // draft states 2026-07-28's version until it is cut, so the server serves that version through draft.
      expect(client.era).toBe("modern");
      expect(text(await client.callTool("echo", { text: "draft" }))).toBe("draft");
    } finally {
      await client.close();
    }
  });
});

describe("mcpgen's server over Streamable HTTP", () => {
  const server = httpFixtureServer();

  for (const revision of [undefined, "2025-11-25", "2025-06-18", "2025-03-26"])
    test(`${revision ?? "detected (modern)"}: every feature`, async () => {
      const client = await Client.connect(new StreamableHttpClientTransport(server.url), {
        handlers,
        ...(revision ? { revision } : {}),
      });
      try {
        expect(client.revision.name).toBe(revision ?? "2026-07-28");
        await exercise(client, revision ?? "2026-07-28");
      } finally {
        await client.close();
      }
    });

  test("a legacy session the server forgot (404) is opened again, and the call goes through", async () => {
    const transport = new StreamableHttpClientTransport(server.url);
    const client = await Client.connect(transport, { handlers, revision: "2025-11-25" });
    try {
      const first = transport.session;
      expect(first).toBeDefined();
      // The server ends the session (as after its idle expiry); the client's next call meets 404.
      await fetch(server.url, { method: "DELETE", headers: { "Mcp-Session-Id": first! } });
      expect(text(await client.callTool("echo", { text: "again" }))).toBe("again");
      expect(transport.session).toBeDefined();
      expect(transport.session).not.toBe(first);
    } finally {
      await client.close();
    }
  });
});

describe("the official SDK servers", () => {
  test("SDK v1 McpServer over stdio: legacy by detection; tools, resources, prompts, progress, elicitation, sampling, roots", async () => {
    const client = await Client.connect(
      new StdioClientTransport({ command: process.execPath, args: [fixture("sdk-v1.js")] }),
      { handlers },
    );
    try {
      expect(client.era).toBe("legacy");
      expect(client.serverInfo?.name).toBe("sdk-v1");
      expect(text(await client.callTool("echo", { text: "v1" }))).toBe("v1");
      const progress: number[] = [];
      expect(text(await client.callTool("steps", {}, { onProgress: (p) => progress.push(p.progress) }))).toBe(
        "stepped",
      );
      expect(progress).toEqual([1, 2, 3]);
      expect(text(await client.callTool("ask"))).toBe('accept {"name":"Ada"} | hi | file:///work');
      expect((await client.readResource("test://note")).contents[0]).toMatchObject({ text: "a note" });
      const prompt = await client.getPrompt("greet", { who: "Ada" });
      expect(prompt.messages[0]!.content).toEqual({ type: "text", text: "Hello, Ada" });
      await expect(client.callTool("nope")).resolves.toMatchObject({ isError: true });
    } finally {
      await client.close();
    }
  });

  test("SDK v1 over Streamable HTTP (sessions, SSE answers)", async () => {
    const server = await startUrlServer(fixture("sdk-v1.js"), ["--http"]);
    try {
      const client = await Client.connect(new StreamableHttpClientTransport(server.url), { handlers });
      try {
        expect(client.era).toBe("legacy");
        expect(text(await client.callTool("echo", { text: "v1 http" }))).toBe("v1 http");
        expect(text(await client.callTool("ask"))).toBe('accept {"name":"Ada"} | hi | file:///work');
      } finally {
        await client.close();
      }
    } finally {
      await stopChild(server.child);
    }
  });

  test("SDK v2 createMcpHandler: modern by detection, and legacy when pinned", async () => {
    const server = await startUrlServer(
      fileURLToPath(new URL("../../dist/bench/servers/http-sdk-v2.js", import.meta.url)),
    );
    try {
      const modern = await Client.connect(new StreamableHttpClientTransport(server.url));
      try {
        expect([modern.era, modern.revision.name]).toEqual(["modern", "2026-07-28"]);
        expect(text(await modern.callTool("echo", { text: "v2" }))).toBe("v2");
        expect((await modern.listTools()).length).toBe(20);
      } finally {
        await modern.close();
      }
      const legacy = await Client.connect(new StreamableHttpClientTransport(server.url), { revision: "2025-11-25" });
      try {
        expect(text(await legacy.callTool("tool_3", { value: "v" }))).toBe("tool_3: v");
      } finally {
        await legacy.close();
      }
    } finally {
      await stopChild(server.child);
    }
  });

  test("a server error is an McpError with the server's code", async () => {
    // Pinned: resource not found is -32002 on the handshake revisions (-32602 from 2026-07-28).
    const client = await Client.connect(new StdioClientTransport({ command: process.execPath, args: [everything] }), {
      revision: "2025-11-25",
    });
    try {
      const error = await client.readResource("test://missing").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32002);
    } finally {
      await client.close();
    }
  });
});
