// Form-mode elicitation defaults (client/elicitation#requested-schema, SEP-1034):
// the defaults a form shows (elicitationDefaults), an accepted answer completed
// with them (withElicitationDefaults), and the client doing it for its handler
// against mcpgen's server on both eras over Streamable HTTP: a legacy session
// (elicitation/create as a server-to-client request) and 2026-07-28 (an input
// request of a multi round-trip call).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { McpServer } from "mcpgen/server";
import { serveHttp } from "mcpgen/http";
import {
  Client,
  elicitationDefaults,
  StreamableHttpClientTransport,
  withElicitationDefaults,
  type ClientHandlers,
} from "mcpgen/client";

const requestedSchema = {
  type: "object" as const,
  properties: {
    name: { type: "string" as const, default: "John Doe" },
    age: { type: "integer" as const, default: 30 },
    score: { type: "number" as const, default: 95.5 },
    status: { type: "string" as const, enum: ["active", "inactive"], default: "active" },
    verified: { type: "boolean" as const, default: true },
    colors: {
      type: "array" as const,
      items: { type: "string" as const, enum: ["red", "green"] },
      default: ["red"],
    },
    nickname: { type: "string" as const },
  },
};
const ALL_DEFAULTS = { name: "John Doe", age: 30, score: 95.5, status: "active", verified: true, colors: ["red"] };

describe("elicitationDefaults / withElicitationDefaults", () => {
  test("the defaults of a form: one per property that has one fitting its type", () => {
    expect(elicitationDefaults(requestedSchema)).toEqual(ALL_DEFAULTS);
    // A default its own schema contradicts is not offered.
    expect(
      elicitationDefaults({
        type: "object",
        properties: {
          a: { type: "integer", default: 1.5 },
          b: { type: "string", enum: ["x"], default: "y" },
          c: { type: "boolean", default: "true" },
          d: { type: "number", default: 2 },
        },
      }),
    ).toEqual({ d: 2 });
    expect(elicitationDefaults(undefined)).toEqual({});
  });

  test("an accepted form gets the defaults of the fields it leaves out; what it says stays", () => {
    const params = { message: "m", requestedSchema };
    expect(withElicitationDefaults(params, { action: "accept", content: { name: "Ada" } })).toEqual({
      action: "accept",
      content: { ...ALL_DEFAULTS, name: "Ada" },
    });
    expect(withElicitationDefaults(params, { action: "accept" })).toEqual({ action: "accept", content: ALL_DEFAULTS });
    // Declined, cancelled and URL-mode answers carry no form content.
    expect(withElicitationDefaults(params, { action: "decline" })).toEqual({ action: "decline" });
    expect(withElicitationDefaults(params, { action: "cancel" })).toEqual({ action: "cancel" });
    const url = { mode: "url" as const, message: "m", url: "https://example.com", elicitationId: "e" };
    expect(withElicitationDefaults(url, { action: "accept" })).toEqual({ action: "accept" });
  });
});

describe("the client completes its handler's accepted form with the defaults", () => {
  let handle: Awaited<ReturnType<typeof serveHttp>>;
  beforeAll(async () => {
    const server = new McpServer({ name: "defaults", version: "1.0.0" });
    server.tool("ask", { description: "Asks for a form with defaults" }, async (_args, context) => {
      const answer = await context.elicit({ message: "Your details?", requestedSchema });
      return JSON.stringify(answer);
    });
    handle = await serveHttp(server);
  });
  afterAll(async () => {
    await handle.close();
  });

  const accepting: ClientHandlers = { elicitation: async () => ({ action: "accept", content: { nickname: "A" } }) };
  const answer = async (client: Client) => {
    const result = await client.callTool("ask");
    const block = result.content[0]!;
    return JSON.parse(block.type === "text" ? block.text : "null") as unknown;
  };

  for (const revision of ["2025-11-25", "2026-07-28"]) {
    test(`${revision}: the server receives every default and the handler's own field`, async () => {
      const client = await Client.connect(new StreamableHttpClientTransport(handle.url), {
        revision,
        handlers: accepting,
      });
      try {
        expect(await answer(client)).toEqual({ action: "accept", content: { ...ALL_DEFAULTS, nickname: "A" } });
      } finally {
        await client.close();
      }
    });
  }

  test("elicitationDefaults: false sends the handler's answer as it is", async () => {
    const client = await Client.connect(new StreamableHttpClientTransport(handle.url), {
      handlers: accepting,
      elicitationDefaults: false,
    });
    try {
      expect(await answer(client)).toEqual({ action: "accept", content: { nickname: "A" } });
    } finally {
      await client.close();
    }
  });
});
