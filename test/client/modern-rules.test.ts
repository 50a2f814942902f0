// Rules of the 2026-07-28 revision the client keeps with a modern server, each
// against a scripted server (memory-transport.ts) that says exactly what the
// rule is about: an absent resultType, an UnsupportedProtocolVersionError to
// the era probe, and tools whose x-mcp-header annotations are invalid.
import { describe, expect, test } from "vitest";
import { Client, McpError } from "mcpgen/client";
import { discoverResult, MemoryTransport, type Reply } from "./memory-transport.js";

const listed = (tools: unknown[]): Reply => ({
  result: { resultType: "complete", ttlMs: 0, cacheScope: "private", tools },
});

describe("resultType (basic/index#resulttype)", () => {
  test("a result without resultType is complete: returned, not taken for an invalid message or input", async () => {
    const transport = new MemoryTransport((method) =>
      method === "server/discover"
        ? { result: discoverResult() }
        : { result: { content: [{ type: "text", text: "no resultType" }] } },
    );
    const client = await Client.connect(transport);
    expect(client.era).toBe("modern");
    const result = await client.callTool("t");
    expect(result.resultType).toBe("complete");
    expect(result.content).toEqual([{ type: "text", text: "no resultType" }]);
    // Answered at once: no retry with inputResponses.
    expect(transport.methods()).toEqual(["server/discover", "tools/call"]);
    await client.close();
  });
});

describe("UnsupportedProtocolVersionError to the era probe (basic/versioning#protocol-version-negotiation)", () => {
  test("the probe is sent once more at a version from `supported`, and its DiscoverResult describes the server", async () => {
    let probes = 0;
    const transport = new MemoryTransport((method, params) => {
      if (method !== "server/discover") return listed([]);
      probes++;
      if (probes === 1)
        return {
          error: {
            code: -32022,
            message: "Unsupported protocol version",
            data: { supported: ["2026-07-28"], requested: "x" },
          },
        };
      const meta = params["_meta"] as Record<string, unknown>;
      expect(meta["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
      return { result: discoverResult({ tools: { listChanged: true } }) };
    });
    const client = await Client.connect(transport);
    expect(probes).toBe(2);
    expect(client.era).toBe("modern");
    expect(client.serverCapabilities).toEqual({ tools: { listChanged: true } });
    expect(transport.sent.map((s) => s.context.protocolVersion)).toEqual(["2026-07-28", "2026-07-28"]);
    await client.close();
  });

  test("no version in `supported` that the client speaks: the error, not a guess", async () => {
    const transport = new MemoryTransport(() => ({
      error: {
        code: -32022,
        message: "Unsupported protocol version",
        data: { supported: ["2099-01-01"], requested: "x" },
      },
    }));
    const error = await Client.connect(transport).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32022);
    expect(transport.methods()).toEqual(["server/discover"]);
  });
});

describe("x-mcp-header annotations (basic/transports/streamable-http#schema-extension)", () => {
  const tools = [
    {
      name: "valid_tool",
      inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
    },
    {
      name: "number_header",
      inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } },
    },
    {
      name: "duplicate_header",
      inputSchema: {
        type: "object",
        properties: {
          a: { type: "string", "x-mcp-header": "MyField" },
          b: { type: "string", "x-mcp-header": "myfield" },
        },
      },
    },
    {
      name: "space_in_name",
      inputSchema: { type: "object", properties: { v: { type: "string", "x-mcp-header": "My Region" } } },
    },
    { name: "plain_tool", inputSchema: { type: "object", properties: {} } },
  ];
  const serve = (method: string): Reply =>
    method === "server/discover"
      ? { result: discoverResult() }
      : method === "tools/list"
        ? listed(tools)
        : { result: { resultType: "complete", content: [] } };

  test("over a transport that sends headers, invalid tools are left out of tools/list, each with a warning", async () => {
    const problems: string[] = [];
    const transport = new MemoryTransport(serve, true);
    const client = await Client.connect(transport, { onProblem: (e) => problems.push(e.message) });
    expect((await client.listTools()).map((t) => t.name)).toEqual(["valid_tool", "plain_tool"]);
    expect(problems).toEqual([
      expect.stringMatching(/left out tool "number_header": .*Score.*"number"/),
      expect.stringMatching(/left out tool "duplicate_header": .*declared twice/),
      expect.stringMatching(/left out tool "space_in_name": .*"My Region".*not an HTTP token/),
    ]);
    // The request() path filters too, and the kept tool's parameter is still mirrored.
    const raw = await client.request("tools/list", {});
    expect(raw.tools.map((t) => t.name)).toEqual(["valid_tool", "plain_tool"]);
    await client.callTool("valid_tool", { region: "us-west1" });
    expect(transport.sent.at(-1)!.context.headers).toMatchObject({
      "Mcp-Method": "tools/call",
      "Mcp-Name": "valid_tool",
      "Mcp-Param-Region": "us-west1",
    });
    await client.close();
  });

  test("over a transport without headers (stdio), the annotations are ignored and every tool kept", async () => {
    const problems: string[] = [];
    const client = await Client.connect(new MemoryTransport(serve, false), {
      onProblem: (e) => problems.push(e.message),
    });
    expect((await client.listTools()).map((t) => t.name)).toEqual(tools.map((t) => t.name));
    expect(problems).toEqual([]);
    await client.close();
  });
});
