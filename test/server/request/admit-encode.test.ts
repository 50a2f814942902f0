// admit.ts and encode.ts on their own: a request at a scope in, the error it is
// answered with (or the request admitted) out; a handler's result in, the JSON
// text (or the -32603 problem) out.
import { describe, expect, test } from "vitest";
import { loadedHandlerRevision } from "../../../runtime/protocol/revisions.js";
import type { SessionHost } from "../../../runtime/server/context.js";
import { admit } from "../../../runtime/server/request/admit.js";
import { encodeResult } from "../../../runtime/server/request/encode.js";
import type { IncomingRequest, Scope } from "../../../runtime/server/types.js";

const scope: Scope = {
  wire: loadedHandlerRevision,
  perRequest: true,
  clientCapabilities: {},
  clientInfo: { name: "c", version: "1" },
  logThreshold: null,
  serverCapabilities: { tools: {} },
};
const meta = {
  "io.modelcontextprotocol/protocolVersion": loadedHandlerRevision.info.protocolVersion,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
};
const host = {
  coreMethods: {},
  handlers: { "tools/list": () => ({ tools: [] }) },
  toolHeaders: () => undefined,
  logger: () => {},
} as unknown as SessionHost;

function request(method: string, params: Record<string, unknown>) {
  const replies: { json: string | null; code?: number }[] = [];
  const incoming: IncomingRequest = {
    message: { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: meta } },
    method,
    id: 7,
    reply: (json, outcome) => replies.push({ json, code: outcome?.code }),
    channel: { reply: () => {}, send: () => {} },
    length: 42,
  };
  return { incoming, replies };
}

describe("admit.ts", () => {
  test("a request the server answers is admitted, in flight with its id, method and length", () => {
    const { incoming, replies } = request("tools/list", {});
    const admitted = admit(host, incoming, scope);
    expect(replies).toEqual([]);
    expect(admitted?.handler).toBe(host.handlers["tools/list"]);
    expect(admitted?.inflight).toMatchObject({ id: 7, method: "tools/list", length: 42 });
  });

  test("an unknown method, a capability the server did not declare, a method it does not implement: -32601", () => {
    for (const [method, scopeHere, why] of [
      ["tools/unknown", scope, "does not exist in protocol revision"],
      ["prompts/list", scope, "needs the server capability prompts"],
      ["tools/call", scope, "this server does not implement tools/call"],
    ] as const) {
      const { incoming, replies } = request(method, method === "tools/call" ? { name: "x" } : {});
      expect(admit(host, incoming, scopeHere)).toBeUndefined();
      expect(replies).toHaveLength(1);
      expect(replies[0]!.code).toBe(-32601);
      expect(JSON.parse(replies[0]!.json!).error.message).toContain(why);
    }
  });

  test("params that break the method's schema: -32602 naming where", () => {
    const { incoming, replies } = request("tools/list", { cursor: 5 });
    expect(admit(host, incoming, scope)).toBeUndefined();
    expect(replies[0]!.code).toBe(-32602);
    expect(JSON.parse(replies[0]!.json!).error.message).toMatch(/^Invalid params: \/params\/cursor/);
  });
});

describe("encode.ts", () => {
  test("a per-request result gets resultType and the server's identity in _meta", () => {
    const result = { tools: [], ttlMs: 0, cacheScope: "private" };
    const encoded = encodeResult(() => {}, "tools/list", scope, result, { name: "s", version: "1" });
    expect("json" in encoded && JSON.parse(encoded.json)).toEqual({
      ...result,
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
    });
  });

  test("a result that breaks its schema is the server's bug: an error, never sent", () => {
    const encoded = encodeResult(() => {}, "tools/list", scope, { tools: "none", ttlMs: 0 }, undefined);
    expect(encoded).toEqual({
      error: expect.stringMatching(/^Internal error: the server's tools\/list result is invalid at \/tools/),
    });
  });
});
