// The method model on small schemas: where each fact comes from (unions,
// response types, @category, naming, overlay) and what is reported when the
// schema and the overlay leave a gap or disagree.
import { describe, expect, test } from "vitest";
import { buildRevisionModel } from "../../generator/model/build.js";
import type { MethodOverlay } from "../../generator/model/overlay.js";
import type { RevisionModel } from "../../generator/model/types.js";
import { parseSchema } from "../../generator/parse/parse-schema.js";

/** JSON-RPC plumbing every test schema shares. */
const base = `
export const LATEST_PROTOCOL_VERSION = "2099-01-01";
export const JSONRPC_VERSION = "2.0";
export type RequestId = string | number;
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Notification { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export interface JSONRPCRequest extends Request { jsonrpc: typeof JSONRPC_VERSION; id: RequestId }
export interface JSONRPCNotification extends Notification { jsonrpc: typeof JSONRPC_VERSION }
export interface JSONRPCResultResponse { jsonrpc: typeof JSONRPC_VERSION; id: RequestId; result: Result }
export interface JSONRPCErrorResponse { jsonrpc: typeof JSONRPC_VERSION; id?: RequestId; error: { code: number; message: string } }
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResultResponse | JSONRPCErrorResponse;
export type EmptyResult = Result;
export interface ServerCapabilities { tools?: { listChanged?: boolean } }
export interface ClientCapabilities { sampling?: object }
`;

const noOverlay: MethodOverlay = { results: [], capabilities: [], revisions: [] };

function model(
  schema: string,
  options: { overlay?: MethodOverlay; locked?: boolean; revision?: string } = {},
): RevisionModel {
  return buildRevisionModel(parseSchema({ file: "schema.ts", text: base + schema }), {
    revision: options.revision ?? "2099-01-01",
    source: { file: "schema.ts", sha256: "0".repeat(64), locked: options.locked ?? true },
    overlay: options.overlay ?? noOverlay,
  });
}

function method(m: RevisionModel, name: string) {
  const found = m.methods.find((x) => x.name === name);
  if (!found) throw new Error(`no method ${name}; diagnostics: ${JSON.stringify(m.diagnostics)}`);
  return found;
}

const pingAndCall = `
export interface PingRequest extends JSONRPCRequest { method: "ping" }
export interface CallRequest extends JSONRPCRequest { method: "tools/call"; params: CallRequestParams }
export interface CallRequestParams { name: string }
export interface CallResult extends Result { content: string[] }
export interface SampleRequest extends JSONRPCRequest { method: "sampling/createMessage"; params: { n: number } }
export interface SampleResult extends Result { text: string }
export interface Progress extends JSONRPCNotification { method: "notifications/progress"; params: { progress: number } }
export interface Changed extends JSONRPCNotification { method: "notifications/tools/list_changed" }
export type ClientRequest = PingRequest | CallRequest;
export type ServerRequest = PingRequest | SampleRequest;
export type ClientNotification = Progress;
export type ServerNotification = Progress | Changed;
`;

describe("kind and direction come from the message unions", () => {
  const m = model(pingAndCall, {
    overlay: { ...noOverlay, results: [{ method: "ping", result: "EmptyResult", cite: "test" }] },
  });

  test("client-to-server, server-to-client and both", () => {
    expect(m.diagnostics).toEqual([]);
    expect(m.methods.map((x) => [x.name, x.kind, x.direction, x.directionSource])).toEqual([
      ["notifications/progress", "notification", "both", "schema-union"],
      ["notifications/tools/list_changed", "notification", "server-to-client", "schema-union"],
      ["ping", "request", "both", "schema-union"],
      ["sampling/createMessage", "request", "server-to-client", "schema-union"],
      ["tools/call", "request", "client-to-server", "schema-union"],
    ]);
  });

  test("params: named, inline, inherited optional", () => {
    expect(method(m, "tools/call").params).toEqual({
      type: { kind: "reference", name: "CallRequestParams" },
      name: "CallRequestParams",
      required: true,
    });
    expect(method(m, "sampling/createMessage").params).toMatchObject({ type: { kind: "object" }, required: true });
    expect(method(m, "sampling/createMessage").params?.name).toBeUndefined();
    expect(method(m, "ping").params).toMatchObject({ type: { kind: "object" }, required: false });
  });

  test("a message type in no union is left out and reported; an error when pinned, a warning when not", () => {
    const schema = `${pingAndCall}\nexport interface OrphanRequest extends JSONRPCRequest { method: "orphan/x" }\nexport interface OrphanResult extends Result {}`;
    for (const [locked, severity] of [
      [true, "error"],
      [false, "warning"],
    ] as const) {
      const m2 = model(schema, {
        locked,
        overlay: { ...noOverlay, results: [{ method: "ping", result: "EmptyResult", cite: "test" }] },
      });
      expect(m2.methods.map((x) => x.name)).not.toContain("orphan/x");
      // (Unpinned, the schema's era is also a guess: no initialize, no versioned _meta.)
      expect(m2.diagnostics.filter((d) => d.code !== "E_OVERLAY_GUESS")).toEqual([
        {
          severity,
          code: "E_METHOD_DIRECTION",
          message:
            "orphan/x (OrphanRequest) is in none of ClientRequest, ServerRequest, ClientNotification, ServerNotification, so its direction is unknown; it is left out of the method table",
          location: { file: "schema.ts", line: 30, column: 1 },
        },
      ]);
    }
  });
});

describe("messages the unions cannot place", () => {
  test("one method literal on two listed types is ambiguous (E_METHOD_AMBIGUOUS)", () => {
    const m = model(`
      export interface A extends JSONRPCRequest { method: "x/y" }
      export interface B extends JSONRPCRequest { method: "x/y" }
      export interface AResult extends Result {}
      export type ClientRequest = A | B;`);
    expect(m.methods).toEqual([]);
    expect(m.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([
      "E_METHOD_AMBIGUOUS: method x/y is carried by A, B and the message unions do not single one out",
    ]);
  });

  test("a type listed both as request and as notification (E_METHOD_KIND)", () => {
    const m = model(`
      export interface Both extends JSONRPCNotification { method: "x/y" }
      export type ClientRequest = Both;
      export type ClientNotification = Both;`);
    expect(m.methods).toEqual([]);
    expect(m.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([
      "E_METHOD_KIND: Both is listed both as a request and as a notification; it is left out of the method table",
    ]);
  });

  test("a schema without LATEST_PROTOCOL_VERSION (E_MISSING_CONSTANT), an error even for an unpinned revision", () => {
    const parsed = parseSchema({
      file: "schema.ts",
      text: base.replace('export const LATEST_PROTOCOL_VERSION = "2099-01-01";', ""),
    });
    const m = buildRevisionModel(parsed, {
      revision: "x",
      source: { file: "schema.ts", sha256: "", locked: false },
      overlay: noOverlay,
    });
    expect(m.diagnostics.filter((d) => d.severity === "error")).toEqual([
      {
        severity: "error",
        code: "E_MISSING_CONSTANT",
        message: "the schema declares no string const LATEST_PROTOCOL_VERSION",
      },
    ]);
  });

  test("a JSONRPCMessage without one of the four message shapes (E_ENVELOPE)", () => {
    const text = base.replace(" | JSONRPCErrorResponse;", ";");
    const m = buildRevisionModel(parseSchema({ file: "schema.ts", text }), {
      revision: "x",
      source: { file: "schema.ts", sha256: "", locked: false },
      overlay: noOverlay,
    });
    expect(m.diagnostics.filter((d) => d.severity === "error")).toEqual([
      {
        severity: "error",
        code: "E_ENVELOPE",
        message:
          "JSONRPCMessage has no errorResponse member (a type requiring method and id, method alone, result, error)",
      },
    ]);
  });

  test("the envelope facts name the four message shapes", () => {
    const m = model(pingAndCall, {
      overlay: { ...noOverlay, results: [{ method: "ping", result: "EmptyResult", cite: "test" }] },
    });
    expect(m.facts.envelope).toEqual({
      request: "JSONRPCRequest",
      notification: "JSONRPCNotification",
      resultResponse: "JSONRPCResultResponse",
      errorResponse: "JSONRPCErrorResponse",
      errorIdRequired: false,
    });
  });
});

describe("results are paired from the schema first", () => {
  test("by naming: XRequest → XResult", () => {
    const m = model(pingAndCall, {
      overlay: { ...noOverlay, results: [{ method: "ping", result: "EmptyResult", cite: "test" }] },
    });
    expect(method(m, "sampling/createMessage").result).toEqual({
      type: { kind: "reference", name: "SampleResult" },
      name: "SampleResult",
      source: "naming",
    });
  });

  test("by @category before naming (a Result subtype or a *Result name)", () => {
    const m = model(`
      /** @category \`a/b\` */ export interface ARequest extends JSONRPCRequest { method: "a/b" }
      /** @category \`a/b\` */ export interface Answer extends Result {}
      export interface AResult extends Result {}
      export type ClientRequest = ARequest;`);
    expect(method(m, "a/b").result).toMatchObject({ name: "Answer", source: "category" });
    expect(method(m, "a/b").category).toBe("a/b");
  });

  test("by the JSONRPCResultResponse subtype of the category, keeping its union", () => {
    const m = model(`
      export interface InputRequiredResult extends Result { inputRequests?: object }
      /** @category \`tools/call\` */ export interface CallToolRequest extends JSONRPCRequest { method: "tools/call" }
      /** @category \`tools/call\` */ export interface CallToolResult extends Result { content: string[] }
      /** @category \`tools/call\` */ export interface CallToolResultResponse extends JSONRPCResultResponse { result: CallToolResult | InputRequiredResult }
      export type ClientRequest = CallToolRequest;`);
    expect(method(m, "tools/call").result).toEqual({
      type: {
        kind: "union",
        members: [
          { kind: "reference", name: "CallToolResult" },
          { kind: "reference", name: "InputRequiredResult" },
        ],
      },
      name: "CallToolResult",
      response: "CallToolResultResponse",
      source: "response-type",
    });
  });

  test("by the overlay only when the schema is silent", () => {
    const overlay = { ...noOverlay, results: [{ method: "ping", result: "EmptyResult", cite: "test" }] };
    expect(method(model(pingAndCall, { overlay }), "ping").result).toEqual({
      type: { kind: "reference", name: "EmptyResult" },
      name: "EmptyResult",
      source: "overlay",
    });
  });

  test("a request left without a result is an error when pinned", () => {
    expect(model(pingAndCall).diagnostics).toEqual([
      {
        severity: "error",
        code: "E_NO_RESULT",
        message:
          "request ping (PingRequest) has no result: the schema pairs none by @category or by name; add a results entry to generator/overlay/methods.ts",
        location: { file: "schema.ts", line: 17, column: 1 },
      },
    ]);
  });
});

describe("overlay entries must match the revision", () => {
  const ping = { method: "ping", result: "EmptyResult", cite: "test" };

  test("a result entry the schema makes redundant", () => {
    const overlay = { ...noOverlay, results: [ping, { method: "tools/call", result: "EmptyResult", cite: "test" }] };
    expect(model(pingAndCall, { overlay }).diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "E_OVERLAY_REDUNDANT",
        "overlay gives tools/call the result EmptyResult, but the schema already gives CallResult (by naming); remove the overlay entry",
      ],
    ]);
  });

  test("entries naming methods, types or capabilities the revision lacks", () => {
    const overlay: MethodOverlay = {
      results: [ping, { method: "nope/nothing", result: "EmptyResult", cite: "test" }],
      capabilities: [
        { method: "tools/call", holder: "server", path: "tools", cite: "test" },
        { method: "tools/call", holder: "server", path: "tools", cite: "test" },
        { method: "notifications/tools/list_changed", holder: "server", path: "tools.listChanged", cite: "test" },
        { method: "sampling/createMessage", holder: "client", path: "sampling.tools", cite: "test" },
        { method: "ping", holder: "receiver", path: "tools", cite: "test" },
        { method: "gone/away", holder: "server", path: "tools", cite: "test" },
      ],
      revisions: [],
    };
    const m = model(pingAndCall, { overlay });
    expect(m.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([
      "E_OVERLAY_UNKNOWN_METHOD: overlay result entry names nope/nothing, which this revision does not have",
      "E_OVERLAY_DUPLICATE: overlay has two capability entries for tools/call",
      "E_OVERLAY_UNKNOWN_CAPABILITY: overlay gives sampling/createMessage the capability sampling.tools, which ClientCapabilities does not declare in this revision",
      "E_OVERLAY_UNKNOWN_CAPABILITY: overlay gives ping the capability tools, which ClientCapabilities does not declare in this revision",
      "E_OVERLAY_UNKNOWN_METHOD: overlay capability entry names gone/away, which this revision does not have",
    ]);
    expect(method(m, "notifications/tools/list_changed").capability).toEqual({
      holder: "server",
      path: ["tools", "listChanged"],
    });
  });

  test("entries outside their since..until range do not apply", () => {
    const overlay: MethodOverlay = {
      ...noOverlay,
      results: [ping],
      capabilities: [{ method: "gone/away", holder: "server", path: "tools", until: "2025-01-01", cite: "test" }],
    };
    expect(model(pingAndCall, { overlay }).diagnostics).toEqual([]);
  });

  test("a revision not in the lock gets warnings, not errors", () => {
    expect(model(pingAndCall, { locked: false }).diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["warning", "E_NO_RESULT"],
      // No initialize request, and no protocol version in its requests' _meta either.
      ["warning", "E_OVERLAY_GUESS"],
    ]);
  });
});

describe("a revision the lock does not pin: entries by what its schema shows, never by its name", () => {
  const withInitialize = `${pingAndCall.replace("export type ClientRequest = PingRequest | CallRequest;", "export type ClientRequest = PingRequest | CallRequest | InitializeRequest;")}
    export interface InitializeRequest extends JSONRPCRequest { method: "initialize" }
    export interface InitializeResult extends Result {}`;
  const versioned = pingAndCall.replace(
    "export interface CallRequestParams { name: string }",
    'export interface CallRequestParams { name: string; _meta: { "io.modelcontextprotocol/protocolVersion": string } }',
  );
  const overlay: MethodOverlay = {
    results: [{ method: "ping", result: "EmptyResult", until: "2025-11-25", cite: "test" }],
    capabilities: [
      { method: "tools/call", holder: "server", path: "tools", cite: "test" },
      { method: "sampling/createMessage", holder: "client", path: "sampling", until: "2025-11-25", cite: "test" },
    ],
    revisions: [
      { lifecycle: "initialize", until: "2025-11-25", errorCodes: { resourceNotFound: -32002 }, cite: "test" },
      { lifecycle: "per-request", since: "2026-07-28", errorCodes: { resourceNotFound: -32602 }, cite: "test" },
    ],
  };
  const summary = (m: RevisionModel) => ({
    facts: m.facts,
    ping: method(m, "ping").result?.name,
    call: method(m, "tools/call").capability,
    sample: method(m, "sampling/createMessage").capability,
    guesses: m.guesses?.map((g) => g.entry),
  });

  test("an initialize-era schema gets the initialize-era entries under any name", () => {
    const named = ["2024-01-01", "2026-01-01", "2099-01-01", "next"].map((revision) =>
      summary(model(withInitialize, { overlay, locked: false, revision })),
    );
    for (const other of named.slice(1)) expect(other).toEqual(named[0]);
    expect(named[0]).toMatchObject({
      facts: { lifecycle: "initialize", errorCodes: { resourceNotFound: -32002 } },
      ping: "EmptyResult",
      call: { holder: "server", path: ["tools"] },
      sample: { holder: "client", path: ["sampling"] },
      guesses: undefined,
    });
  });

  test("a per-request schema gets the per-request entries; one whose facts hold in the other era is a reported guess", () => {
    const m = model(versioned, { overlay: { ...overlay, results: [] }, locked: false, revision: "2020-01-01" });
    expect(summary(m)).toMatchObject({
      facts: { lifecycle: "per-request", errorCodes: { resourceNotFound: -32602 } },
      call: { holder: "server", path: ["tools"] },
      sample: undefined,
      guesses: ["capabilities[sampling/createMessage]"],
    });
    expect(m.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`)).toEqual([
      "warning E_NO_RESULT: request ping (PingRequest) has no result: the schema pairs none by @category or by name; add a results entry to generator/overlay/methods.ts",
      "warning E_OVERLAY_GUESS: a guess (generator/overlay/methods.ts capabilities[sampling/createMessage]): capabilities[sampling/createMessage] not applied: this schema has everything it names, but it was written for the initialize era and this schema is of the per-request era",
    ]);
  });

  test("for a pinned revision, a range that leaves out a schema showing the entry's facts is an error", () => {
    const narrow: MethodOverlay = {
      ...overlay,
      // Of the per-request era (its range overlaps that entry's), yet not naming 2026-07-28.
      capabilities: [{ method: "tools/call", holder: "server", path: "tools", since: "2027-01-01", cite: "test" }],
    };
    expect(
      model(versioned, { overlay: narrow, revision: "2026-07-28" }).diagnostics.map((d) => [d.code, d.message]),
    ).toContainEqual([
      "E_OVERLAY_RANGE",
      "overlay entry capabilities[tools/call]'s range leaves out 2026-07-28, whose schema shows everything the entry names in its era: this schema under another name would get it; widen the range in generator/overlay/methods.ts",
    ]);
  });
});

describe("revision facts", () => {
  const ping = { method: "ping", result: "EmptyResult", cite: "test" };

  test("lifecycle follows the schema's initialize request, and the overlay must agree", () => {
    const withInitialize = `${pingAndCall.replace("export type ClientRequest = PingRequest | CallRequest;", "export type ClientRequest = PingRequest | CallRequest | InitializeRequest;")}
      export interface InitializeRequest extends JSONRPCRequest { method: "initialize" }
      export interface InitializeResult extends Result {}`;
    expect(model(withInitialize, { overlay: { ...noOverlay, results: [ping] } }).facts.lifecycle).toBe("initialize");
    const stateless = model(pingAndCall, {
      overlay: { ...noOverlay, results: [ping], revisions: [{ lifecycle: "initialize", cite: "test" }] },
    });
    expect(stateless.facts.lifecycle).toBe("per-request");
    expect(stateless.diagnostics.map((d) => d.message)).toEqual([
      'overlay says 2099-01-01 has lifecycle "initialize", but the schema has no initialize request',
    ]);
  });

  test("what each side may send before initialization comes from the overlay and must exist", () => {
    const withInitialize = `${pingAndCall.replace("export type ClientRequest = PingRequest | CallRequest;", "export type ClientRequest = PingRequest | CallRequest | InitializeRequest;")}
      export interface InitializeRequest extends JSONRPCRequest { method: "initialize" }
      export interface InitializeResult extends Result {}`;
    const rule = (client: string[], server: string[]) => ({
      ...noOverlay,
      results: [ping],
      revisions: [{ lifecycle: "initialize" as const, beforeInitialized: { client, server }, cite: "test" }],
    });
    const good = model(withInitialize, { overlay: rule(["ping"], ["ping", "notifications/progress"]) });
    expect(good.diagnostics).toEqual([]);
    expect(good.facts.beforeInitialized).toEqual({ client: ["ping"], server: ["notifications/progress", "ping"] });
    // sampling/createMessage is the server's to send; logging/setLevel does not exist here.
    const bad = model(withInitialize, { overlay: rule(["sampling/createMessage"], ["logging/setLevel"]) });
    expect(bad.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "E_OVERLAY_UNKNOWN_METHOD",
        "overlay lets the client send sampling/createMessage before initialization, but the client does not send it in this revision",
      ],
      [
        "E_OVERLAY_UNKNOWN_METHOD",
        "overlay lets the server send logging/setLevel before initialization, but the server has no such method in this revision",
      ],
    ]);
    expect(model(pingAndCall, { overlay: { ...noOverlay, results: [ping] } }).facts.beforeInitialized).toBeUndefined();
  });

  test("requests in the overlay's input-request union travel inside InputRequiredResult", () => {
    const schema = `${pingAndCall.replace("export type ServerRequest = PingRequest | SampleRequest;", "")}
      export type InputRequest = SampleRequest;`;
    const m = model(schema, {
      overlay: {
        ...noOverlay,
        results: [ping],
        revisions: [{ lifecycle: "per-request", inputRequests: "InputRequest", cite: "test" }],
      },
    });
    expect(m.diagnostics).toEqual([]);
    expect(m.facts.inputRequests).toBe("InputRequest");
    expect(method(m, "sampling/createMessage")).toMatchObject({
      direction: "server-to-client",
      inputRequest: true,
      directionSource: "overlay",
      kind: "request",
    });
    expect(method(m, "ping").direction).toBe("client-to-server");
  });

  test("batching is whether JSONRPCMessage admits an array", () => {
    const overlay = { ...noOverlay, results: [ping] };
    expect(model(pingAndCall, { overlay }).facts.batching).toBe(false);
    const batched = pingAndCall + "\nexport type JSONRPCBatch = (JSONRPCRequest | JSONRPCNotification)[];";
    const m = buildRevisionModel(
      parseSchema({
        file: "schema.ts",
        text: (base + batched).replace(
          "export type JSONRPCMessage = JSONRPCRequest",
          "export type JSONRPCMessage = JSONRPCBatch | JSONRPCRequest",
        ),
      }),
      { revision: "x", source: { file: "schema.ts", sha256: "", locked: true }, overlay },
    );
    expect(m.facts.batching).toBe(true);
  });

  test("protocol and JSON-RPC versions come from the constants", () => {
    const m = model(pingAndCall, { overlay: { ...noOverlay, results: [ping] } });
    expect(m.facts).toMatchObject({ protocolVersion: "2099-01-01", jsonrpcVersion: "2.0" });
  });
});
