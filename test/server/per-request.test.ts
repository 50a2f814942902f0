// The per-request era (2026-07-28 and draft: no handshake, each request's
// `_meta` names its revision and what the client can do) on in-process
// sessions, beside the handshake era on the same server and connection. Every
// server message is checked by the generated validator of the revision it
// belongs to (WireClient.problems), responses against the result type of the
// request they answer.
import type { Channel } from "../../runtime/server/context.js";
import { afterEach, describe, expect, test } from "vitest";
import { hostOf } from "../../runtime/server/mcp-server.js";
import { McpServer, type ElicitResult, type ServerOptions } from "../../runtime/server/index.js";
import {
  SERVER_INFO,
  SUBSCRIPTION_ID,
  WireClient,
  settle,
  sleep,
  statePayload,
  tampered,
  withMeta,
  type Message,
} from "./per-request-support.js";

const quiet = { logger: () => {} };
const INFO = { name: "per-request-server", version: "2.0.0" };
const LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const ALL_VERSIONS = ["2026-07-28", ...[...LEGACY].reverse()];

const clients: WireClient[] = [];

async function connect(server: McpServer, revision = "2026-07-28"): Promise<WireClient> {
  const client = await WireClient.connect(server, revision);
  clients.push(client);
  return client;
}

/** A handshake client at `revision`. */
async function legacy(
  server: McpServer,
  revision: string,
  capabilities: Record<string, unknown> = {},
): Promise<WireClient> {
  const client = await connect(server, revision);
  const response = await client.initialize(revision, capabilities);
  expect(response["result"]["protocolVersion"]).toBe(revision);
  return client;
}

afterEach(() => {
  for (const client of clients.splice(0)) {
    expect(client.problems).toEqual([]);
    client.close();
  }
});

const text = (response: Message): string => response["result"]["content"][0]["text"];

const NAME_FORM = {
  mode: "form" as const,
  message: "Your name?",
  requestedSchema: {
    type: "object" as const,
    properties: { name: { type: "string" as const } },
    required: ["name"],
  },
};

const accept = (name: string): ElicitResult => ({ action: "accept", content: { name } });

/** A server with one of everything the tests need; `options` go to the constructor. */
function buildServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer(INFO, { ...quiet, ...options });
  server.tool(
    "ask",
    {
      description: "Asks the user for a name (awaitable style).",
      inputSchema: { type: "object", properties: { topic: { type: "string" } } },
    },
    async ({ topic }, context) => {
      const answer = await context.elicit({ ...NAME_FORM, message: `Your name for ${topic ?? "nothing"}?` });
      return `${context.revision}: ${answer.action} ${JSON.stringify(answer.content ?? null)}`;
    },
  );
  server.tool("ask_twice", { description: "Asks two questions in sequence." }, async (_args, context) => {
    const first = await context.elicit({ ...NAME_FORM, message: "First name?" });
    const second = await context.elicit({ ...NAME_FORM, message: "Last name?" });
    return `${first.content?.["name"]} ${second.content?.["name"]}`;
  });
  server.tool("confirm", { description: "Asks for confirmation (explicit style)." }, (_args, context) => {
    const answer = context.inputResponses["confirm"] as ElicitResult | undefined;
    if (answer === undefined)
      return context.inputRequired(
        { confirm: { method: "elicitation/create", params: { ...NAME_FORM, message: "Confirm?" } } },
        { step: 1 },
      );
    return `${context.revision}: ${answer.action} after ${JSON.stringify(context.requestState)}`;
  });
  server.tool("log", { description: "Logs at info and error." }, (_args, context) => {
    context.log("info", { said: "info" }, "test");
    context.log("error", { said: "error" }, "test");
    return "logged";
  });
  server.tool("progress", { description: "Reports two steps." }, (_args, context) => {
    context.progress(1, 2, "half");
    context.progress(2, 2, "done");
    return "progressed";
  });
  server.resource("file:///a", { name: "a", mimeType: "text/plain" }, () => "A");
  server.resource("file:///own", { name: "own", cache: { ttlMs: 5, cacheScope: "private" } }, () => "own");
  server.resourceTemplate("file:///t/{name}", { name: "t" }, (_uri, { name }) => `template ${String(name)}`);
  server.prompt("greet", { description: "Greets." }, () => "Hello.");
  return server;
}

describe("server/discover", () => {
  test("names every served version, the capabilities, the server, and caching hints", async () => {
    const server = buildServer({ instructions: "Use it well." });
    const client = await connect(server);
    const response = await client.call("server/discover");
    const result = response["result"];
    expect(result["resultType"]).toBe("complete");
    expect(result["supportedVersions"]).toEqual(ALL_VERSIONS);
    expect(result["capabilities"]).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
    });
    expect(result["instructions"]).toBe("Use it well.");
    expect(result["_meta"]).toEqual({ [SERVER_INFO]: INFO });
    expect(result["ttlMs"]).toBe(0);
    expect(result["cacheScope"]).toBe("private");
  });

  test("capabilities follow what is registered; the server's cache hint applies", async () => {
    const server = new McpServer(INFO, { ...quiet, cache: { ttlMs: 1000, cacheScope: "public" } });
    server.tool("only", {}, () => "x");
    const client = await connect(server);
    const result = (await client.call("server/discover"))["result"];
    expect(result["capabilities"]).toEqual({ logging: {}, tools: { listChanged: true } });
    expect("instructions" in result).toBe(false);
    expect([result["ttlMs"], result["cacheScope"]]).toEqual([1000, "public"]);
  });
});

describe("errors", () => {
  test("an unsupported version is -32022 naming the supported ones and the requested one", async () => {
    const client = await connect(buildServer());
    const response = await client.call("tools/list", {}, { version: "1900-01-01" }, { revision: "2026-07-28" });
    expect(response["error"]).toEqual({
      code: -32022,
      message: `Unsupported protocol version: 1900-01-01 (supported: ${ALL_VERSIONS.join(", ")})`,
      data: { supported: ALL_VERSIONS, requested: "1900-01-01" },
    });
  });

  test("per-request fields without protocolVersion are -32602", async () => {
    const client = await connect(buildServer());
    const response = await client.request("tools/list", {
      _meta: { "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": INFO },
    });
    expect(response["error"]).toEqual({
      code: -32602,
      message: `Invalid params: /params/_meta must have property 'io.modelcontextprotocol/protocolVersion' (supported: ${ALL_VERSIONS.join(", ")})`,
      data: { supported: ALL_VERSIONS },
    });
  });

  test("malformed _meta is a JSON-RPC error and the session keeps serving", async () => {
    const client = await connect(buildServer());
    const works = async () => {
      const ok = await client.call("tools/list");
      expect(ok["result"]["tools"].length).toBeGreaterThan(0);
    };
    // protocolVersion not a string.
    const numeric = await client.request("tools/list", {
      _meta: { "io.modelcontextprotocol/protocolVersion": 20260728, "io.modelcontextprotocol/clientCapabilities": {} },
    });
    expect(numeric["error"]).toEqual({
      code: -32602,
      message: "Invalid params: /params/_meta/io.modelcontextprotocol~1protocolVersion must be a string",
    });
    await works();
    // _meta not an object: nothing marks the request as per-request, so on a server that also
    // serves the handshake era it is a handshake client's request before initialize.
    const stringMeta = await client.request("tools/list", { _meta: "2026-07-28" });
    expect(stringMeta["error"]["code"]).toBe(-32600);
    expect(stringMeta["error"]["message"]).toMatch(/^Invalid Request: tools\/list before initialize/);
    await works();
    // clientCapabilities missing.
    const noCapabilities = await client.request("tools/list", {
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
    });
    expect(noCapabilities["error"]).toMatchObject({
      code: -32602,
      message: "Invalid params: /params/_meta/io.modelcontextprotocol~1clientCapabilities is required",
    });
    await works();
    // logLevel not a level.
    const loud = await client.call("tools/list", {}, { logLevel: "loud" });
    expect(loud["error"]["code"]).toBe(-32602);
    expect(loud["error"]["message"]).toMatch(
      /^Invalid params: \/params\/_meta\/io\.modelcontextprotocol~1logLevel must be one of "debug"/,
    );
    await works();
    // clientCapabilities not an object.
    const badCapabilities = await client.request("tools/list", {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": 1,
      },
    });
    expect(badCapabilities["error"]["code"]).toBe(-32602);
    await works();
  });

  test("a server with no handshake revision refuses a request without _meta as -32602", async () => {
    const server = new McpServer(INFO, { ...quiet, revisions: ["2026-07-28"] });
    server.tool("only", {}, () => "x");
    const client = await connect(server);
    const response = await client.request("tools/list", { _meta: "2026-07-28" });
    expect(response["error"]).toMatchObject({
      code: -32602,
      message:
        "Invalid params: /params/_meta must have property 'io.modelcontextprotocol/protocolVersion' (supported: 2026-07-28)",
    });
    // initialize is not a method of such a server.
    const initialize = await client.request(
      "initialize",
      { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: INFO },
      { revision: "2025-11-25" },
    );
    expect(initialize["error"]).toMatchObject({ code: -32601, data: { supported: ["2026-07-28"] } });
    expect((await client.call("tools/list"))["result"]["tools"]).toHaveLength(1);
  });

  test("an unknown tool is -32602", async () => {
    const client = await connect(buildServer());
    const response = await client.call("tools/call", { name: "nope", arguments: {} });
    expect(response["error"]).toEqual({ code: -32602, message: "Unknown tool: nope", data: { name: "nope" } });
  });

  test("ping and logging/setLevel do not exist at 2026-07-28 (-32601)", async () => {
    const client = await connect(buildServer());
    expect((await client.call("ping"))["error"]).toEqual({
      code: -32601,
      message: "Method not found: ping does not exist in protocol revision 2026-07-28",
    });
    expect((await client.call("logging/setLevel", { level: "debug" }))["error"]).toEqual({
      code: -32601,
      message: "Method not found: logging/setLevel does not exist in protocol revision 2026-07-28",
    });
    expect((await client.call("resources/subscribe", { uri: "file:///a" }))["error"]["code"]).toBe(-32601);
  });

  test("an unknown resource is -32602 at 2026-07-28 and -32002 at 2025-11-25", async () => {
    const server = buildServer();
    const modern = await connect(server);
    expect((await modern.call("resources/read", { uri: "file:///nope" }))["error"]).toEqual({
      code: -32602,
      message: "Resource not found: file:///nope",
      data: { uri: "file:///nope" },
    });
    const old = await legacy(server, "2025-11-25");
    expect((await old.request("resources/read", { uri: "file:///nope" }))["error"]).toEqual({
      code: -32002,
      message: "Resource not found: file:///nope",
      data: { uri: "file:///nope" },
    });
  });
});

describe("results", () => {
  test("every 2026-07-28 result carries resultType and the server's info", async () => {
    const client = await connect(buildServer());
    const calls: [string, Record<string, unknown>][] = [
      ["server/discover", {}],
      ["tools/list", {}],
      ["tools/call", { name: "log" }],
      ["prompts/list", {}],
      ["prompts/get", { name: "greet" }],
      ["resources/list", {}],
      ["resources/templates/list", {}],
      ["resources/read", { uri: "file:///a" }],
      ["resources/read", { uri: "file:///t/x" }],
    ];
    for (const [method, params] of calls) {
      const result = (await client.call(method, params))["result"];
      expect(result, method).toBeDefined();
      expect(result["resultType"], method).toBe("complete");
      expect(result["_meta"]?.[SERVER_INFO], method).toEqual(INFO);
    }
  });

  test("serverInfoInResults: false leaves the server's info out", async () => {
    const client = await connect(buildServer({ serverInfoInResults: false }));
    const result = (await client.call("tools/list"))["result"];
    expect(result["resultType"]).toBe("complete");
    expect(result["_meta"]?.[SERVER_INFO]).toBeUndefined();
  });

  // basic/index#meta: serverInfo SHOULD be in "every result's _meta"; the runtime adds it to complete
  // results (Session.encodeResult) but not to InputRequiredResult (Session.sendInputRequired).
  test("an input_required result carries the server's info too", async () => {
    const client = await connect(buildServer());
    const first = await client.call("tools/call", { name: "ask" }, { capabilities: { elicitation: {} } });
    expect(first["result"]["resultType"]).toBe("input_required");
    expect(first["result"]["_meta"]?.[SERVER_INFO]).toEqual(INFO);
  });

  test("tools/list is sorted by name", async () => {
    const server = new McpServer(INFO, quiet);
    for (const name of ["zeta", "Alpha", "mid", "alpha", "a.b", "a_b"]) server.tool(name, {}, () => name);
    const client = await connect(server);
    const names = (await client.call("tools/list"))["result"]["tools"].map((t: { name: string }) => t.name);
    expect(names).toEqual(["Alpha", "a.b", "a_b", "alpha", "mid", "zeta"]);
  });

  test("caching hints: the server's on every cacheable result, a resource's own on its reads", async () => {
    const client = await connect(buildServer({ cache: { ttlMs: 60_000, cacheScope: "public" } }));
    const hint = (result: Message) => [result["ttlMs"], result["cacheScope"]];
    for (const [method, params] of [
      ["server/discover", {}],
      ["tools/list", {}],
      ["prompts/list", {}],
      ["resources/list", {}],
      ["resources/templates/list", {}],
      ["resources/read", { uri: "file:///a" }],
      ["resources/read", { uri: "file:///t/x" }],
    ] as const)
      expect(hint((await client.call(method, params))["result"]), `${method} ${JSON.stringify(params)}`).toEqual([
        60_000,
        "public",
      ]);
    expect(hint((await client.call("resources/read", { uri: "file:///own" }))["result"])).toEqual([5, "private"]);
    // Not cacheable: no hints.
    const called = (await client.call("tools/call", { name: "log" }))["result"];
    expect("ttlMs" in called || "cacheScope" in called).toBe(false);
  });

  test("caching hints default to ttlMs 0, private", async () => {
    const client = await connect(buildServer());
    for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) {
      const result = (await client.call(method))["result"];
      expect([result["ttlMs"], result["cacheScope"]], method).toEqual([0, "private"]);
    }
    const read = (await client.call("resources/read", { uri: "file:///a" }))["result"];
    expect([read["ttlMs"], read["cacheScope"]]).toEqual([0, "private"]);
    expect(read["contents"]).toEqual([{ uri: "file:///a", text: "A", mimeType: "text/plain" }]);
    const own = (await client.call("resources/read", { uri: "file:///own" }))["result"];
    expect([own["ttlMs"], own["cacheScope"]]).toEqual([5, "private"]);
  });

  test("a handshake client gets no 2026-07-28 fields", async () => {
    const server = buildServer({ cache: { ttlMs: 60_000, cacheScope: "public" } });
    const client = await legacy(server, "2025-11-25");
    const listed = (await client.request("tools/list", {}))["result"];
    expect("resultType" in listed || "ttlMs" in listed || "cacheScope" in listed).toBe(false);
    expect(listed["_meta"]?.[SERVER_INFO]).toBeUndefined();
  });
});

describe("logging and progress", () => {
  test("notifications/message only when the request names a logLevel, filtered by it", async () => {
    const client = await connect(buildServer());
    const levels = () => client.notifications("notifications/message").map((n) => n["params"]["level"]);
    expect(text(await client.call("tools/call", { name: "log" }))).toBe("logged");
    expect(levels()).toEqual([]);
    await client.call("tools/call", { name: "log" }, { logLevel: "warning" });
    expect(levels()).toEqual(["error"]);
    expect(client.notifications("notifications/message")[0]!["params"]).toEqual({
      level: "error",
      logger: "test",
      data: { said: "error" },
    });
    await client.call("tools/call", { name: "log" }, { logLevel: "debug" });
    expect(levels()).toEqual(["error", "info", "error"]);
    await client.call("tools/call", { name: "log" }, { logLevel: "emergency" });
    expect(levels()).toHaveLength(3);
    // A request's level is its own: the next request without one gets nothing.
    await client.call("tools/call", { name: "log" });
    expect(levels()).toHaveLength(3);
  });

  test("notifications/progress only when the request carries a progressToken", async () => {
    const client = await connect(buildServer());
    await client.call("tools/call", { name: "progress" });
    expect(client.notifications("notifications/progress")).toEqual([]);
    expect(text(await client.call("tools/call", { name: "progress" }, { progressToken: "tok" }))).toBe("progressed");
    expect(client.notifications("notifications/progress").map((n) => n["params"])).toEqual([
      { progressToken: "tok", progress: 1, total: 2, message: "half" },
      { progressToken: "tok", progress: 2, total: 2, message: "done" },
    ]);
  });
});

describe("one handler set at every revision: awaitable elicitation", () => {
  const handshakeAnswer = (request: Message) =>
    request["method"] === "elicitation/create" ? accept("Ada") : { error: { code: -32601, message: "no" } };

  test.each(["2024-11-05", "2025-03-26"])(
    "%s has no elicitation: the tool's request is refused, an isError result",
    async (revision) => {
      const client = await legacy(buildServer(), revision, { elicitation: {} });
      client.answer = handshakeAnswer;
      const response = await client.request("tools/call", { name: "ask", arguments: { topic: "x" } });
      expect(response["result"]).toEqual({
        content: [
          {
            type: "text",
            text: `elicitation/create is not a request the server sends in protocol revision ${revision}`,
          },
        ],
        isError: true,
      });
      expect(client.received.some((m) => m["method"] === "elicitation/create")).toBe(false);
    },
  );

  test.each(["2025-06-18", "2025-11-25"])(
    "%s: a server-to-client elicitation/create goes out and its answer reaches the tool",
    async (revision) => {
      const client = await legacy(buildServer(), revision, { elicitation: {} });
      client.answer = handshakeAnswer;
      const asked = client.next((m) => m["method"] === "elicitation/create");
      const response = await client.request("tools/call", { name: "ask", arguments: { topic: "x" } });
      expect((await asked)["params"]).toMatchObject({
        message: "Your name for x?",
        requestedSchema: NAME_FORM.requestedSchema,
      });
      expect(text(response)).toBe(`${revision}: accept {"name":"Ada"}`);
    },
  );

  test("2025-11-25 without the elicitation capability: refused, an isError result", async () => {
    const client = await legacy(buildServer(), "2025-11-25");
    const response = await client.request("tools/call", { name: "ask", arguments: { topic: "x" } });
    expect(response["result"]["isError"]).toBe(true);
    expect(text(response)).toBe(
      "elicitation/create needs the client capability elicitation, which the client did not declare",
    );
  });

  // draft states protocol version 2026-07-28; a server serving both answers it with the
  // released revision, so draft is reached on a server that serves it without 2026-07-28.
  test.each([
    ["2026-07-28", undefined],
    ["draft", ["draft", "2025-11-25"]],
  ] as const)("%s: InputRequiredResult, then the retry completes", async (revision, revisions) => {
    const server = buildServer(revisions ? { revisions } : {});
    const client = await connect(server, revision);
    const meta = { capabilities: { elicitation: {} } };
    const options = { revision };
    const first = await client.call("tools/call", { name: "ask", arguments: { topic: "x" } }, meta, options);
    const result = first["result"];
    expect(result["resultType"]).toBe("input_required");
    expect(result["inputRequests"]).toEqual({
      "elicitation/create#1": {
        method: "elicitation/create",
        params: { ...NAME_FORM, message: "Your name for x?" },
      },
    });
    expect(typeof result["requestState"]).toBe("string");
    expect("ttlMs" in result || "cacheScope" in result).toBe(false);
    expect(client.received.some((m) => m["method"] === "elicitation/create")).toBe(false);
    const retry = await client.call(
      "tools/call",
      {
        name: "ask",
        arguments: { topic: "x" },
        inputResponses: { "elicitation/create#1": accept("Ada") },
        requestState: result["requestState"],
      },
      meta,
      options,
    );
    expect(retry["result"]["resultType"]).toBe("complete");
    expect(text(retry)).toBe(`${revision}: accept {"name":"Ada"}`);
    expect(retry["result"]["_meta"][SERVER_INFO]).toEqual(INFO);
  });

  test("2026-07-28 without the elicitation capability: -32021 naming it", async () => {
    const client = await connect(buildServer());
    const response = await client.call("tools/call", { name: "ask", arguments: { topic: "x" } });
    expect(response["error"]).toEqual({
      code: -32021,
      message: "Missing required client capability: elicitation",
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  test("both eras on one connection: per-request requests, then initialize", async () => {
    const server = buildServer();
    const client = await connect(server);
    const first = await client.call(
      "tools/call",
      { name: "ask", arguments: { topic: "x" } },
      {
        capabilities: { elicitation: {} },
      },
    );
    expect(first["result"]["resultType"]).toBe("input_required");
    await client.initialize("2025-11-25", { elicitation: {} });
    client.answer = handshakeAnswer;
    const response = await client.request("tools/call", { name: "ask", arguments: { topic: "y" } });
    expect(text(response)).toBe('2025-11-25: accept {"name":"Ada"}');
    expect(client.session.revision).toBe("2025-11-25");
  });
});

describe("explicit multi round-trip style", () => {
  test("2026-07-28: two rounds, requestState carries the handler's state", async () => {
    const client = await connect(buildServer());
    const meta = { capabilities: { elicitation: {} } };
    const first = (await client.call("tools/call", { name: "confirm" }, meta))["result"];
    expect(first["resultType"]).toBe("input_required");
    expect(first["inputRequests"]).toEqual({
      confirm: { method: "elicitation/create", params: { ...NAME_FORM, message: "Confirm?" } },
    });
    expect(statePayload(first["requestState"])).toMatchObject({ m: "tools/call", s: { step: 1 }, n: 1 });
    const second = await client.call(
      "tools/call",
      { name: "confirm", inputResponses: { confirm: { action: "decline" } }, requestState: first["requestState"] },
      meta,
    );
    expect(text(second)).toBe('2026-07-28: decline after {"step":1}');
  });

  test("2026-07-28: params nested 20,000 deep with a forged requestState are refused, and the session goes on", async () => {
    const client = await connect(buildServer());
    const meta = { capabilities: { elicitation: {} } };
    const depth = 20_000;
    // Written as text: JSON.stringify itself cannot nest that deep.
    const params = JSON.stringify(withMeta({ name: "confirm", requestState: "v1.x.y" }, meta));
    const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    client.expect("deep", "tools/call");
    const answer = client.response("deep");
    client.write(
      `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"arguments":{"x":${deep}},${params.slice(1)}}`,
    );
    const refused = await answer;
    expect(refused["error"]["code"]).toBe(-32602);
    expect(refused["error"]["message"]).toContain("requestState");
    expect((await client.call("tools/call", { name: "confirm" }, meta))["result"]["resultType"]).toBe("input_required");
  });

  test("a defect that throws on a request's path is logged and answered -32603 with its id; the session goes on", async () => {
    const logged: string[] = [];
    const server = buildServer({ logger: (level, message) => logged.push(`${level}: ${message}`) });
    const client = await connect(server);
    const loaded = hostOf(server).served.loaded.bind(hostOf(server).served);
    hostOf(server).served.loaded = () => {
      hostOf(server).served.loaded = loaded;
      throw new Error("a defect");
    };
    const failed = await client.call("tools/call", { name: "confirm" }, { capabilities: { elicitation: {} } });
    expect(failed["error"]).toEqual({ code: -32603, message: "Internal error" });
    expect(logged).toContain("error: failed on a request message");
    const answered = await client.call("tools/call", { name: "confirm" }, { capabilities: { elicitation: {} } });
    expect(answered["result"]["resultType"]).toBe("input_required");
  });

  test("2026-07-28: a requestState is bound to the authenticated caller; another's is refused -32602 (mrtr#security)", async () => {
    const server = buildServer();
    const session = server.connect(() => {});
    const post = (subject: string, params: Record<string, unknown>): Promise<Message> =>
      new Promise((resolve) => {
        const channel = {
          singleRequest: true,
          authorization: { info: { subject, scopes: [], claims: {} }, missing: () => [] },
          reply: (json: string) => resolve(JSON.parse(json)),
          send: () => {},
          onClose: () => {},
        };
        session.receiveMessage(
          {
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: withMeta(params, { capabilities: { elicitation: {} } }),
          },
          channel as unknown as Channel,
        );
      });
    const first = (await post("alice", { name: "confirm" }))["result"];
    expect(first["resultType"]).toBe("input_required");
    const answer = {
      name: "confirm",
      inputResponses: { confirm: { action: "accept" } },
      requestState: first["requestState"],
    };
    const stolen = await post("bob", answer);
    expect(stolen["error"]).toMatchObject({
      code: -32602,
      message: "Invalid params: requestState belongs to another caller",
    });
    expect(text(await post("alice", answer))).toBe('2026-07-28: accept after {"step":1}');
  });

  test("2026-07-28: without requestState the handler starts over", async () => {
    const client = await connect(buildServer());
    const meta = { capabilities: { elicitation: {} } };
    const answered = await client.call(
      "tools/call",
      { name: "confirm", inputResponses: { confirm: { action: "accept", content: { name: "x" } } } },
      meta,
    );
    // The answer arrives without state: the handler sees the answer and no state.
    expect(text(answered)).toBe("2026-07-28: accept after undefined");
  });

  test("2025-11-25: the runtime sends the request itself and runs the handler again", async () => {
    const client = await legacy(buildServer(), "2025-11-25", { elicitation: {} });
    const asked: Message[] = [];
    client.answer = (request) => {
      asked.push(request);
      return { action: "accept", content: { name: "Ada" } };
    };
    const response = await client.request("tools/call", { name: "confirm" });
    expect(text(response)).toBe('2025-11-25: accept after {"step":1}');
    expect(asked.map((r) => [r["method"], r["params"]["message"]])).toEqual([["elicitation/create", "Confirm?"]]);
  });
});

describe("multi-round awaitable", () => {
  test("two awaited elicitations take three rounds; earlier answers travel in requestState", async () => {
    const client = await connect(buildServer());
    const meta = { capabilities: { elicitation: {} } };
    const round1 = (await client.call("tools/call", { name: "ask_twice" }, meta))["result"];
    expect(round1["resultType"]).toBe("input_required");
    expect(Object.keys(round1["inputRequests"])).toEqual(["elicitation/create#1"]);
    expect(round1["inputRequests"]["elicitation/create#1"]["params"]["message"]).toBe("First name?");
    const round2 = (
      await client.call(
        "tools/call",
        {
          name: "ask_twice",
          inputResponses: { "elicitation/create#1": accept("Ada") },
          requestState: round1["requestState"],
        },
        meta,
      )
    )["result"];
    expect(round2["resultType"]).toBe("input_required");
    expect(Object.keys(round2["inputRequests"])).toEqual(["elicitation/create#2"]);
    expect(round2["inputRequests"]["elicitation/create#2"]["params"]["message"]).toBe("Last name?");
    expect(statePayload(round2["requestState"])).toMatchObject({ a: { "elicitation/create#1": accept("Ada") }, n: 2 });
    // Round 3 answers only the second question: the first answer comes from requestState.
    const round3 = await client.call(
      "tools/call",
      {
        name: "ask_twice",
        inputResponses: { "elicitation/create#2": accept("Lovelace") },
        requestState: round2["requestState"],
      },
      meta,
    );
    expect(round3["result"]["resultType"]).toBe("complete");
    expect(text(round3)).toBe("Ada Lovelace");
  });
});

describe("requestState security", () => {
  const KEY_A = "a".repeat(32);
  const KEY_B = "b".repeat(32);
  const meta = { capabilities: { elicitation: {} } };

  async function firstRound(client: WireClient, topic = "x"): Promise<string> {
    const first = await client.call("tools/call", { name: "ask", arguments: { topic } }, meta);
    expect(first["result"]["resultType"]).toBe("input_required");
    return first["result"]["requestState"];
  }

  const retry = (client: WireClient, requestState: string, topic = "x") =>
    client.call(
      "tools/call",
      {
        name: "ask",
        arguments: { topic },
        inputResponses: { "elicitation/create#1": accept("Ada") },
        requestState,
      },
      meta,
    );

  const refusal = (reason: string) => ({
    code: -32602,
    message: `Invalid params: ${reason}`,
    data: { reason },
  });

  test("tampered state fails verification", async () => {
    const client = await connect(buildServer());
    const state = await firstRound(client);
    expect((await retry(client, tampered(state)))["error"]).toEqual(
      refusal("requestState failed verification (tampered, or signed with another key)"),
    );
    // The genuine one still works.
    expect(text(await retry(client, state))).toBe('2026-07-28: accept {"name":"Ada"}');
  });

  test("state that is not a server's token at all is refused", async () => {
    const client = await connect(buildServer());
    expect((await retry(client, "hello"))["error"]).toEqual(refusal("requestState is not one this server issued"));
  });

  test("expired state is refused", async () => {
    const client = await connect(buildServer({ requestState: { ttlMs: 1 } }));
    const state = await firstRound(client);
    await sleep(20);
    expect((await retry(client, state))["error"]).toEqual(refusal("requestState has expired"));
  });

  test("state signed by another server's key fails verification", async () => {
    const a = await connect(buildServer({ requestState: { keys: [KEY_A] } }));
    const b = await connect(buildServer({ requestState: { keys: [KEY_B] } }));
    const state = await firstRound(a);
    expect((await retry(b, state))["error"]).toEqual(
      refusal("requestState failed verification (tampered, or signed with another key)"),
    );
  });

  test("state replayed on another request is refused", async () => {
    const client = await connect(buildServer());
    const state = await firstRound(client, "x");
    expect((await retry(client, state, "y"))["error"]).toEqual(refusal("requestState belongs to another request"));
    // Another tool with the same state: another request too.
    const other = await client.call(
      "tools/call",
      { name: "ask_twice", inputResponses: { "elicitation/create#1": accept("Ada") }, requestState: state },
      meta,
    );
    expect(other["error"]).toEqual(refusal("requestState belongs to another request"));
  });

  test("servers sharing a key accept each other's state; a rotated-out key still verifies", async () => {
    const a = await connect(buildServer({ requestState: { keys: [KEY_A] } }));
    const b = await connect(buildServer({ requestState: { keys: [KEY_A] } }));
    expect(text(await retry(b, await firstRound(a)))).toBe('2026-07-28: accept {"name":"Ada"}');
    const rotated = await connect(buildServer({ requestState: { keys: [KEY_B, KEY_A] } }));
    expect(text(await retry(rotated, await firstRound(a)))).toBe('2026-07-28: accept {"name":"Ada"}');
  });

  test("keys from a source change while the server runs; a state no key verifies is reported to the source", async () => {
    let keys: readonly string[] = [KEY_A];
    const accepting: number[] = [];
    let misses = 0;
    const source = {
      current: () => keys,
      missed: () => void misses++,
      accepting: (ttlMs: number) => void accepting.push(ttlMs),
    };
    const client = await connect(buildServer({ requestState: { keys: source, ttlMs: 60_000 } }));
    expect(accepting).toEqual([60_000]);
    const signedWithA = await firstRound(client);
    keys = [KEY_B, KEY_A]; // rotated: B signs, A still verifies
    expect(text(await retry(client, signedWithA))).toBe('2026-07-28: accept {"name":"Ada"}');
    const signedWithB = await firstRound(client);
    keys = [KEY_B]; // A retired
    expect((await retry(client, signedWithA))["error"]).toEqual(
      refusal("requestState failed verification (tampered, or signed with another key)"),
    );
    expect(misses).toBe(1);
    expect(text(await retry(client, signedWithB))).toBe('2026-07-28: accept {"name":"Ada"}');
  });
});

describe("subscriptions/listen", () => {
  /** tools and resources, no prompts. */
  function subscriptionServer(options: ServerOptions = {}): McpServer {
    const server = new McpServer(INFO, { ...quiet, ...options });
    server.tool("one", {}, () => "one");
    server.resource("file:///a", { name: "a" }, () => "A");
    server.resource("file:///b", { name: "b" }, () => "B");
    return server;
  }

  const FILTER = {
    toolsListChanged: true,
    promptsListChanged: true,
    resourceSubscriptions: ["file:///a"],
  };

  const listen = (client: WireClient, id: string, notifications: Record<string, unknown> = FILTER) => {
    const response = client.call("subscriptions/listen", { notifications }, {}, { id });
    // The response of an open subscription never comes; a test that wants it awaits client.response(id).
    response.catch(() => {});
    return response;
  };

  const tagged = (id: string) => ({ [SUBSCRIPTION_ID]: id });

  test("acknowledged first, then tagged deliveries of what was asked for; cancelled ends it", async () => {
    const server = subscriptionServer();
    const client = await connect(server);
    void listen(client, "listen-1");
    await settle();
    const ids = () => client.received.filter((m) => m["params"]?.["_meta"]?.[SUBSCRIPTION_ID] === "listen-1");
    expect(ids()).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: {
          _meta: tagged("listen-1"),
          // promptsListChanged is omitted: the server has no prompts.
          notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a"] },
        },
      },
    ]);

    server.tool("two", {}, () => "two");
    await settle();
    expect(client.notifications("notifications/tools/list_changed")).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tagged("listen-1") } },
    ]);

    server.resourceUpdated("file:///a");
    server.resourceUpdated("file:///b");
    await settle();
    expect(client.notifications("notifications/resources/updated")).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: "file:///a", _meta: tagged("listen-1") },
      },
    ]);
    // Not asked for: resources/list_changed.
    server.resource("file:///c", { name: "c" }, () => "C");
    await settle();
    expect(client.notifications("notifications/resources/list_changed")).toEqual([]);

    const before = client.received.length;
    client.notify("notifications/cancelled", { requestId: "listen-1", reason: "done" });
    await settle();
    server.resourceUpdated("file:///a");
    server.tool("three", {}, () => "three");
    await sleep(20);
    expect(client.received.slice(before)).toEqual([]);
    expect(client.responsesTo("listen-1")).toEqual([]);
    // The connection goes on.
    expect((await client.call("tools/list"))["result"]["tools"]).toHaveLength(3);
  });

  test("one server.resourceUpdated reaches a listen subscription and a handshake session's resources/subscribe", async () => {
    const server = subscriptionServer();
    const modern = await connect(server);
    void listen(modern, "L", { resourceSubscriptions: ["file:///a"] });
    const old = await legacy(server, "2025-11-25");
    expect((await old.request("resources/subscribe", { uri: "file:///a" }))["result"]).toEqual({});
    await settle();
    server.resourceUpdated("file:///a");
    await settle();
    expect(modern.notifications("notifications/resources/updated").map((n) => n["params"])).toEqual([
      { uri: "file:///a", _meta: tagged("L") },
    ]);
    expect(old.notifications("notifications/resources/updated").map((n) => n["params"])).toEqual([
      { uri: "file:///a" },
    ]);
  });

  // basic/patterns/subscriptions#graceful-closure: the server SHOULD answer the listen request with a
  // complete result carrying the subscriptionId. McpServer.close() resolves every listener
  // (Listeners.closeAll) but then closes every session synchronously (Session.close cancels and
  // forgets the in-flight requests), so when the resolved promise reaches Session.succeed the request
  // is no longer in flight and finish() drops the result: nothing is sent.
  test("server.close() ends open subscriptions with a complete result carrying their id", async () => {
    const server = subscriptionServer();
    const client = await connect(server);
    void listen(client, "L1", { toolsListChanged: true });
    void listen(client, "L2", { resourceSubscriptions: ["file:///a"] });
    await settle();
    server.close();
    await sleep(20);
    // toMatchObject: the result may also name the server in _meta.
    expect(client.responsesTo("L1")).toMatchObject([
      { jsonrpc: "2.0", id: "L1", result: { resultType: "complete", _meta: tagged("L1") } },
    ]);
    expect(client.responsesTo("L2")).toMatchObject([
      { jsonrpc: "2.0", id: "L2", result: { resultType: "complete", _meta: tagged("L2") } },
    ]);
  });

  test("bounds: too many URIs is -32602, a listener over the limit is refused", async () => {
    const server = subscriptionServer({ subscriptions: { maxListeners: 2, maxUrisPerListener: 3 } });
    const client = await connect(server);
    const tooMany = await listen(client, "many", {
      resourceSubscriptions: ["file:///a", "file:///b", "file:///c", "file:///d"],
    });
    expect(tooMany["error"]).toEqual({
      code: -32602,
      message: "Invalid params: at most 3 resourceSubscriptions per subscription (4 given)",
    });
    void listen(client, "L1", { resourceSubscriptions: ["file:///a", "file:///b", "file:///c"] });
    void listen(client, "L2", { toolsListChanged: true });
    const third = await listen(client, "L3", { toolsListChanged: true });
    expect(third["error"]).toEqual({ code: -32603, message: "the server has 2 open subscriptions, its limit" });
    // Cancelling one frees its place.
    client.notify("notifications/cancelled", { requestId: "L1" });
    await settle();
    void listen(client, "L4", { toolsListChanged: true });
    await settle();
    expect(
      client
        .notifications("notifications/subscriptions/acknowledged")
        .map((n) => n["params"]["_meta"][SUBSCRIPTION_ID]),
    ).toEqual(["L1", "L2", "L4"]);
    expect(client.responsesTo("L4")).toEqual([]);
  });

  test("bounds: an authorized caller holds at most maxListenersPerPrincipal; others and unauthorized callers are not refused for it", async () => {
    const server = subscriptionServer({ subscriptions: { maxListeners: 10, maxListenersPerPrincipal: 2 } });
    const session = server.connect(() => {});
    const closers = new Map<string, () => void>();
    const replies = new Map<string, Message>();
    const acknowledged: string[] = [];
    // A per-request POST's exchange, as Streamable HTTP makes it: one request alone, with the token's identity.
    const post = (id: string, subject: string | undefined) => {
      const channel = {
        singleRequest: true,
        ...(subject ? { authorization: { info: { subject, scopes: [], claims: {} }, missing: () => [] } } : {}),
        reply: (json: string | null) => {
          if (json) replies.set(id, JSON.parse(json));
        },
        send: (json: string) => {
          if (JSON.parse(json)["method"] === "notifications/subscriptions/acknowledged") acknowledged.push(id);
        },
        onClose: (cancel: () => void) => closers.set(id, cancel),
      };
      session.receiveMessage(
        {
          jsonrpc: "2.0",
          id,
          method: "subscriptions/listen",
          params: withMeta({ notifications: { toolsListChanged: true } }, {}),
        },
        channel as unknown as Channel,
      );
    };
    post("alice-1", "alice");
    post("alice-2", "alice");
    post("alice-3", "alice");
    post("bob-1", "bob");
    post("anonymous-1", undefined);
    post("anonymous-2", undefined);
    post("anonymous-3", undefined);
    await settle();
    expect(replies.get("alice-3")?.["error"]).toEqual({
      code: -32603,
      message: "this caller has 2 open subscriptions, its limit (ListenLimits.maxListenersPerPrincipal)",
    });
    // Only alice's third was answered: every other subscription is open (its response never comes while it is).
    expect([...replies.keys()]).toEqual(["alice-3"]);
    expect(acknowledged).toEqual(["alice-1", "alice-2", "bob-1", "anonymous-1", "anonymous-2", "anonymous-3"]);
    // Closing one of alice's exchanges gives her its place back.
    closers.get("alice-1")!();
    await settle();
    post("alice-4", "alice");
    await settle();
    expect(replies.has("alice-4")).toBe(false);
    expect(acknowledged.at(-1)).toBe("alice-4");
    post("alice-5", "alice");
    await settle();
    expect(replies.get("alice-5")?.["error"]?.["code"]).toBe(-32603);
  });
});

describe("cancellation", () => {
  test("notifications/cancelled aborts the handler's signal and suppresses the response", async () => {
    const server = new McpServer(INFO, quiet);
    let aborted: (reason: unknown) => void;
    const abortedWith = new Promise<unknown>((resolve) => (aborted = resolve));
    let started: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    server.tool("slow", {}, (_args, context) => {
      started();
      return new Promise<string>((resolve) => {
        context.signal.addEventListener("abort", () => {
          aborted(context.signal.reason);
          resolve("finished anyway");
        });
      });
    });
    const client = await connect(server);
    void client.call("tools/call", { name: "slow" }, {}, { id: "slow-1" }).catch(() => {});
    await running;
    client.notify("notifications/cancelled", { requestId: "slow-1", reason: "user pressed stop" });
    expect(await abortedWith).toBe("user pressed stop");
    // The connection goes on; the cancelled request is never answered.
    expect((await client.call("tools/list"))["result"]["tools"]).toHaveLength(1);
    await sleep(20);
    expect(client.responsesTo("slow-1")).toEqual([]);
    // Its id may be used again: per-request requests are not remembered once done.
    const again = await client.call("tools/list", {}, {}, { id: "slow-1" });
    expect(again["result"]["tools"]).toHaveLength(1);
  });

  test("an id in flight cannot be reused", async () => {
    const server = new McpServer(INFO, quiet);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.tool("wait", {}, async () => {
      await gate;
      return "released";
    });
    const client = await connect(server);
    const pending = client.call("tools/call", { name: "wait" }, {}, { id: "w" });
    await settle();
    // A second request with the same id while the first is in flight: refused (basic#requests).
    const duplicate = client.next((m) => m["id"] === "w" && m["error"] !== undefined);
    client.write({ jsonrpc: "2.0", id: "w", method: "tools/list", params: withMeta() });
    expect((await duplicate)["error"]).toMatchObject({
      code: -32600,
      message: 'Invalid Request: id "w" was already used in this session',
    });
    // The duplicate's error answered the waiter; the real result follows.
    await pending;
    const result = client.next((m) => m["id"] === "w" && m["result"] !== undefined);
    release();
    expect((await result)["result"]["content"][0]["text"]).toBe("released");
  });
});

describe("structuredContent (2026-07-28: any JSON value)", () => {
  function arrayServer(): McpServer {
    const server = new McpServer(INFO, quiet);
    server.tool("list", {}, () => ({ structuredContent: [1, 2, 3] }));
    return server;
  }

  test("a 2026-07-28 client gets the array as structuredContent and its JSON as text", async () => {
    const client = await connect(arrayServer());
    const result = (await client.call("tools/call", { name: "list", arguments: {} }))["result"];
    expect(result["structuredContent"]).toEqual([1, 2, 3]);
    expect(result["content"]).toEqual([{ type: "text", text: "[1,2,3]" }]);
  });

  test("a 2025-11-25 client, whose structuredContent is an object, gets the text block only", async () => {
    const client = await legacy(arrayServer(), "2025-11-25");
    const result = (await client.request("tools/call", { name: "list", arguments: {} }))["result"];
    expect(result["structuredContent"]).toBeUndefined();
    expect(result["content"]).toEqual([{ type: "text", text: "[1,2,3]" }]);
  });
});
