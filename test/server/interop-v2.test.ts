// Interop with the official SDK v2 client (@modelcontextprotocol/client) at
// 2026-07-28, pinned and in auto mode, over stdio and over HTTP, while the v1
// client (@modelcontextprotocol/sdk) uses the same server: tools, resources,
// templates, prompts, completion, a multi round-trip tool whose elicitation,
// sampling and roots requests the v2 client's handlers fulfil (the v1 client
// gets them as server-to-client requests), and subscriptions/listen delivering
// tools/list_changed.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { serveHttp, type HttpServerHandle } from "../../runtime/transports/http.js";
import { buildEverythingServer } from "../fixtures/servers/everything.js";

const fixture = fileURLToPath(new URL("../../dist/test/fixtures/servers/everything.js", import.meta.url));
const clientCapabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };

type Mode = "pin" | "auto";
const negotiation = (mode: Mode) =>
  mode === "pin"
    ? { mode: { pin: "2026-07-28" as const }, probe: { timeoutMs: 5_000 } }
    : { mode: "auto" as const, probe: { timeoutMs: 5_000 } };

function clientV2(mode: Mode, changes?: string[][]): ClientV2 {
  const client = new ClientV2({ name: `v2-${mode}`, version: "2.4.0" }, {
    versionNegotiation: negotiation(mode),
    capabilities: clientCapabilities,
    ...(changes
      ? {
          listChanged: {
            tools: {
              debounceMs: 0,
              onChanged: (_error: unknown, tools: { name: string }[] | null) =>
                changes.push((tools ?? []).map((t) => t.name)),
            },
          },
        }
      : {}),
  } as never);
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }));
  client.setRequestHandler("sampling/createMessage", async () => ({
    role: "assistant",
    content: { type: "text", text: "hello from v2" },
    model: "test-model",
  }));
  client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///v2", name: "v2" }] }));
  return client;
}

function clientV1(): ClientV1 {
  const client = new ClientV1({ name: "v1", version: "1.32.2" }, { capabilities: clientCapabilities });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Bob" } }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "hello from v1" },
    model: "test-model",
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///v1", name: "v1" }] }));
  return client;
}

const text = (result: unknown) => ((result as { content: { text?: string }[] }).content[0]?.text ?? "") as string;

/** What every client does: the features, whichever era it speaks. */
async function exercise(client: ClientV2 | ClientV1, who: string): Promise<void> {
  const c = client as ClientV1; // the two clients share these method names and shapes
  const { tools } = await c.listTools();
  expect(tools.map((t) => t.name)).toContain("echo");
  expect(text(await c.callTool({ name: "echo", arguments: { text: who } }))).toBe(who);
  const failed = await c.callTool({ name: "fail", arguments: {} });
  expect(failed.isError).toBe(true);
  const { resources } = await c.listResources();
  expect(resources.map((r) => r.uri)).toContain("test://static/a");
  const read = await c.readResource({ uri: "test://static/a" });
  expect((read.contents[0] as { text: string }).text).toBe("A");
  const templated = await c.readResource({ uri: "file:///docs/a.md" });
  expect((templated.contents[0] as { text: string }).text).toBe("contents of docs/a.md");
  const { resourceTemplates } = await c.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("file:///{+path}");
  const prompt = await c.getPrompt({ name: "greet", arguments: { name: "Ann", style: "formal" } });
  expect((prompt.messages[0]!.content as { text: string }).text).toBe("Good day, Ann.");
  const completion = await c.complete({
    ref: { type: "ref/prompt", name: "greet" },
    argument: { name: "style", value: "f" },
  });
  expect(completion.completion.values).toEqual(["formal"]);
}

beforeAll(() => {
  if (!existsSync(fixture)) throw new Error(`${fixture} is missing: run npm test (it compiles the fixtures) first`);
});

describe("over HTTP, one server for the v2 client (pinned, auto) and the v1 client at once", () => {
  let handle: HttpServerHandle;
  const clients: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    handle = await serveHttp(buildEverythingServer({ logger: () => {} }));
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await handle.close();
  });

  test("the v2 client pinned to 2026-07-28, the v2 client in auto mode and the v1 client", async () => {
    const pinned = clientV2("pin");
    const auto = clientV2("auto");
    const v1 = clientV1();
    clients.push(pinned, auto, v1);
    await Promise.all([
      pinned.connect(new HttpV2(new URL(handle.url))),
      auto.connect(new HttpV2(new URL(handle.url))),
      v1.connect(new HttpV1(new URL(handle.url))),
    ]);
    expect(pinned.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(auto.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(v1.getServerVersion()?.name).toBe("everything");
    await Promise.all([exercise(pinned, "pinned"), exercise(auto, "auto"), exercise(v1, "v1")]);
    // Multi round-trip at 2026-07-28, server-to-client requests for v1: the same handler.
    expect(text(await pinned.callTool({ name: "ask_all", arguments: {} }))).toBe(
      "name=Ada model=hello from v2 roots=file:///v2",
    );
    expect(text(await v1.callTool({ name: "ask_all", arguments: {} }))).toBe(
      "name=Bob model=hello from v1 roots=file:///v1",
    );
  });

  test("subscriptions/listen delivers tools/list_changed after a tool is added", async () => {
    const changes: string[][] = [];
    const client = clientV2("pin", changes);
    clients.push(client);
    await client.connect(new HttpV2(new URL(handle.url)));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the automatic listen is acknowledged
    const added = text(await client.callTool({ name: "add_tool", arguments: {} }));
    const deadline = Date.now() + 5_000;
    while (!changes.some((names) => names.includes(added)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(changes.some((names) => names.includes(added))).toBe(true);
  });
});

describe("over stdio, the v2 client pinned and in auto mode, and the v1 client", () => {
  const transportV2 = () => new StdioV2({ command: process.execPath, args: [fixture], stderr: "pipe" });
  for (const mode of ["pin", "auto"] as const) {
    test(`v2 ${mode}: per-request era, the features and a multi round-trip tool`, async () => {
      const client = clientV2(mode);
      try {
        await client.connect(transportV2());
        expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        await exercise(client, mode);
        expect(text(await client.callTool({ name: "ask_all", arguments: {} }))).toBe(
          "name=Ada model=hello from v2 roots=file:///v2",
        );
      } finally {
        await client.close();
      }
    });
  }

  test("v1: the handshake era on the same server program", async () => {
    const client = clientV1();
    try {
      await client.connect(new StdioV1({ command: process.execPath, args: [fixture], stderr: "pipe" }));
      await exercise(client, "v1");
      expect(text(await client.callTool({ name: "ask_all", arguments: {} }))).toBe(
        "name=Bob model=hello from v1 roots=file:///v1",
      );
    } finally {
      await client.close();
    }
  });
});
