// The protocol core on in-process sessions, for each revision with the
// initialize handshake: every server message is checked by the generated
// validator of the negotiated revision (ScriptedClient.problems).
import { afterEach, describe, expect, test } from "vitest";
import { hostOf } from "../../runtime/server/mcp-server.js";
import { McpServer } from "../../runtime/server/index.js";
import { REMEMBERED_IDS } from "../../runtime/server/session/session.js";
import { buildEverythingServer } from "../fixtures/servers/everything.js";
import { inProcess, loadTables, statefulRevisions, type ScriptedClient } from "./support.js";
import { RevisionLoads, type LoadingSession } from "../../runtime/server/session/revisions.js";
import type { Channel } from "../../runtime/server/context.js";
import { classifyMessage } from "../../runtime/messages.js";
import type { MessageTables, RevisionInfo } from "../../runtime/index.js";

const quiet = { logger: () => {} };
const clients: ScriptedClient[] = [];

async function connect(
  revision: string,
  options: { capabilities?: Record<string, unknown>; server?: McpServer } = {},
): Promise<ScriptedClient> {
  const client = await inProcess(options.server ?? buildEverythingServer({ ...quiet, pageSize: 3 }), revision);
  clients.push(client);
  const response = await client.initialize(revision, options.capabilities ?? {});
  expect(response["result"]["protocolVersion"]).toBe(revision);
  return client;
}

afterEach(() => {
  for (const client of clients.splice(0)) {
    expect(client.problems).toEqual([]);
    client.close();
  }
});

const text = (response: Record<string, any>) => response["result"]["content"][0]["text"];

test("a tool's result object is never changed, and what is checked is what is sent (a class's getters are not)", async () => {
  const server = new McpServer({ name: "results", version: "1" }, quiet);
  const frozen = Object.freeze({ content: Object.freeze([Object.freeze({ type: "text", text: "as is" })]) });
  const structuredOnly = { structuredContent: { n: 1 } };
  class Gotten {
    get content() {
      return [{ type: "text", text: "from a getter" }];
    }
  }
  server.tool("frozen", { inputSchema: { type: "object" } }, () => frozen as never);
  server.tool("structured", { inputSchema: { type: "object" } }, () => structuredOnly as never);
  server.tool("gotten", { inputSchema: { type: "object" } }, () => new Gotten() as never);
  const client = await connect("2025-11-25", { server });
  expect(text(await client.request("tools/call", { name: "frozen", arguments: {} }))).toBe("as is");
  const structured = await client.request("tools/call", { name: "structured", arguments: {} });
  expect(structured["result"]["content"]).toEqual([{ type: "text", text: '{"n":1}' }]);
  expect(structuredOnly).toEqual({ structuredContent: { n: 1 } }); // the text block went on a copy
  // JSON would drop the prototype's getter: the result is judged as sent, without content (-32603).
  const gotten = await client.request("tools/call", { name: "gotten", arguments: {} });
  expect(gotten["error"]["code"]).toBe(-32603);
});

test("the four revisions with the initialize handshake are served", () => {
  expect(statefulRevisions).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]);
});

describe.each(statefulRevisions)("revision %s", (revision) => {
  test("initialize echoes the revision and declares what the server offers", async () => {
    const client = await inProcess(buildEverythingServer(quiet), revision);
    clients.push(client);
    const response = await client.initialize(revision);
    const result = response["result"];
    expect(result["serverInfo"]["name"]).toBe("everything");
    expect(result["instructions"]).toBe("A test server.");
    expect(result["capabilities"]).toMatchObject({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
    });
    // completions is a capability from 2025-03-26 on; title and icons from 2025-06-18 and 2025-11-25.
    expect("completions" in result["capabilities"]).toBe(revision !== "2024-11-05");
    expect("title" in result["serverInfo"]).toBe(revision >= "2025-06-18");
    expect("icons" in result["serverInfo"]).toBe(revision >= "2025-11-25");
  });

  test("tools/list pages with opaque cursors; a forged cursor is -32602", async () => {
    const client = await connect(revision);
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await client.request("tools/list", cursor === undefined ? {} : { cursor });
      names.push(...response["result"]["tools"].map((t: { name: string }) => t.name));
      cursor = response["result"]["nextCursor"];
      pages++;
    } while (cursor !== undefined);
    expect(names).toContain("echo");
    expect(names).toContain("add_tool");
    expect(new Set(names).size).toBe(names.length);
    expect(pages).toBe(Math.ceil(names.length / 3));
    const forged = await client.request("tools/list", { cursor: "not-a-cursor" });
    expect(forged["error"]).toMatchObject({ code: -32602, message: 'Invalid cursor: "not-a-cursor"' });
  });

  test("tools/call: results, structured output, and the errors that are results", async () => {
    const client = await connect(revision);
    expect(text(await client.request("tools/call", { name: "echo", arguments: { text: "hi" } }))).toBe("hi");
    const sum = await client.request("tools/call", { name: "add", arguments: { a: 2, b: 3 } });
    expect(text(sum)).toBe('{"sum":5}');
    expect(sum["result"]["structuredContent"]).toEqual(revision >= "2025-06-18" ? { sum: 5 } : undefined);
    // Invalid arguments, thrown errors and bad structured output are tool execution errors (isError).
    const invalid = await client.request("tools/call", { name: "add", arguments: { a: 2, b: "3", c: 1 } });
    expect(invalid["result"]["isError"]).toBe(true);
    expect(text(invalid)).toBe(
      "Invalid arguments for tool add: (root): must NOT have additional properties (c); /b: must be number",
    );
    const thrown = await client.request("tools/call", { name: "fail", arguments: {} });
    expect(thrown["result"]).toEqual({ content: [{ type: "text", text: "the disk is full" }], isError: true });
    const bad = await client.request("tools/call", { name: "bad_output" });
    expect(bad["result"]["isError"]).toBe(true);
    expect(text(bad)).toMatch(
      /^Tool bad_output returned structuredContent that does not match its outputSchema: \/sum: must be number/,
    );
    // An unknown tool is a protocol error; so is a ProtocolError a handler throws.
    const unknown = await client.request("tools/call", { name: "nope", arguments: {} });
    expect(unknown["error"]).toMatchObject({ code: -32602, message: "Unknown tool: nope" });
    const custom = await client.request("tools/call", { name: "protocol_fail" });
    expect(custom["error"]).toEqual({ code: -32099, message: "a custom protocol error", data: { why: "test" } });
  });

  test("content an older revision lacks is converted for it", async () => {
    const client = await connect(revision);
    const response = await client.request("tools/call", { name: "media" });
    const types = response["result"]["content"].map((c: { type: string }) => c.type);
    if (revision === "2024-11-05") expect(types).not.toContain("audio");
    if (revision < "2025-06-18") expect(types).not.toContain("resource_link");
    if (revision >= "2025-06-18") expect(types).toEqual(["text", "audio", "resource_link"]);
  });

  test("protocol errors: unknown method, wrong params, bad envelope, parse error, reused id", async () => {
    const client = await connect(revision);
    expect((await client.request("no/such"))["error"]).toMatchObject({
      code: -32601,
      message: `Method not found: no/such does not exist in protocol revision ${revision}`,
    });
    // A method only the server sends is not one the client may call.
    expect((await client.request("sampling/createMessage", { messages: [], maxTokens: 1 }))["error"]["code"]).toBe(
      -32601,
    );
    const wrong = await client.request("tools/call", { name: 5 });
    expect(wrong["error"]).toMatchObject({ code: -32602, message: "Invalid params: /params/name must be string" });
    client.expect(77, "ping");
    const envelope = client.response(77);
    client.write({ jsonrpc: "1.0", id: 77, method: "ping" });
    expect((await envelope)["error"]).toMatchObject({
      code: -32600,
      message: 'Invalid Request: jsonrpc must be "2.0" (at /jsonrpc)',
    });
    client.write('{"jsonrpc": "2.0", "id": 78, "method": ');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.received.at(-1)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error: unexpected end of input at line 1 column 40" },
    });
    await client.request("ping", undefined, "same");
    expect((await client.request("ping", undefined, "same"))["error"]).toMatchObject({
      code: -32600,
      message: 'Invalid Request: id "same" was already used in this session',
    });
    // Notifications are never answered, even unknown or invalid ones.
    const before = client.received.length;
    client.notify("notifications/unknown", {});
    client.notify("notifications/cancelled", { requestId: { not: "an id" } });
    await client.request("ping");
    expect(client.received.length).toBe(before + 1);
  });

  test("a finished request's id is refused while it is among the last REMEMBERED_IDS, served again after", async () => {
    // The window is bounded (a client cannot grow it); the handshake's own requests share it.
    const client = await connect(revision);
    await client.request("ping", undefined, "first");
    let id = 1;
    for (; id < REMEMBERED_IDS - 2; id++) await client.request("ping", undefined, id);
    expect((await client.request("ping", undefined, "first"))["error"]).toMatchObject({ code: -32600 });
    for (const end = id + 4; id < end; id++) await client.request("ping", undefined, id);
    expect(await client.request("ping", undefined, "first")).toMatchObject({ result: {} });
  });

  test("cancellation aborts the handler and suppresses its response", async () => {
    const client = await connect(revision);
    const response = client.request(
      "tools/call",
      { name: "slow", arguments: { steps: 1000 }, _meta: { progressToken: 7 } },
      "slow-1",
    );
    await client.next((m) => m["method"] === "notifications/progress");
    client.notify("notifications/cancelled", { requestId: "slow-1", reason: "user pressed stop" });
    await expect(Promise.race([response, new Promise((r) => setTimeout(() => r("no response"), 200))])).resolves.toBe(
      "no response",
    );
    // The session goes on.
    expect((await client.request("ping"))["result"]).toEqual({});
  });

  test("progress notifications carry the token and increase; none without a token", async () => {
    const client = await connect(revision);
    const done = await client.request("tools/call", {
      name: "slow",
      arguments: { steps: 3 },
      _meta: { progressToken: "tok" },
    });
    expect(text(done)).toBe("done after 3 steps");
    const progress = client.notifications("notifications/progress").map((n) => n["params"]);
    expect(progress.map((p) => [p.progressToken, p.progress, p.total])).toEqual([
      ["tok", 1, 3],
      ["tok", 2, 3],
      ["tok", 3, 3],
    ]);
    // The message field exists from 2025-03-26 on.
    expect(progress[0].message).toBe(revision === "2024-11-05" ? undefined : "step 1");
    await client.request("tools/call", { name: "slow", arguments: { steps: 2 } });
    expect(client.notifications("notifications/progress")).toHaveLength(3);
  });

  test("logging/setLevel filters notifications/message", async () => {
    const client = await connect(revision);
    await client.request("tools/call", { name: "log" });
    expect(client.notifications("notifications/message").map((n) => n["params"]["level"])).toEqual([
      "debug",
      "info",
      "warning",
      "error",
    ]);
    expect((await client.request("logging/setLevel", { level: "warning" }))["result"]).toEqual({});
    await client.request("tools/call", { name: "log" });
    expect(
      client
        .notifications("notifications/message")
        .slice(4)
        .map((n) => n["params"]["level"]),
    ).toEqual(["warning", "error"]);
    expect((await client.request("logging/setLevel", { level: "loud" }))["error"]["code"]).toBe(-32602);
  });

  test("resources: read fixed and templated URIs, not found, subscribe and unsubscribe", async () => {
    const client = await connect(revision);
    const listed = await client.request("resources/list", {});
    expect(listed["result"]["resources"].map((r: { uri: string }) => r.uri)).toEqual([
      "test://static/a",
      "test://static/b",
    ]);
    const templates = await client.request("resources/templates/list", {});
    expect(templates["result"]["resourceTemplates"][0]["uriTemplate"]).toBe("file:///{+path}");
    expect((await client.request("resources/read", { uri: "test://static/a" }))["result"]).toEqual({
      contents: [{ uri: "test://static/a", text: "A", mimeType: "text/plain" }],
    });
    expect(
      (await client.request("resources/read", { uri: "file:///docs/a%20b.md" }))["result"]["contents"][0]["text"],
    ).toBe("contents of docs/a b.md");
    const missing = await client.request("resources/read", { uri: "file:///missing" });
    expect(missing["error"]).toMatchObject({ code: -32002, message: "Resource not found: file:///missing" });
    expect((await client.request("resources/read", { uri: "other://x" }))["error"]["code"]).toBe(-32002);

    await client.request("resources/subscribe", { uri: "test://static/a" });
    await client.request("tools/call", { name: "touch", arguments: { uri: "test://static/a" } });
    await client.request("tools/call", { name: "touch", arguments: { uri: "test://static/b" } });
    expect(client.notifications("notifications/resources/updated").map((n) => n["params"]["uri"])).toEqual([
      "test://static/a",
    ]);
    await client.request("resources/unsubscribe", { uri: "test://static/a" });
    await client.request("tools/call", { name: "touch", arguments: { uri: "test://static/a" } });
    expect(client.notifications("notifications/resources/updated")).toHaveLength(1);
  });

  test("prompts and completion", async () => {
    const client = await connect(revision);
    const prompts = await client.request("prompts/list", {});
    expect(prompts["result"]["prompts"][0]).toMatchObject({
      name: "greet",
      arguments: [{ name: "name", required: true }, { name: "style" }],
    });
    const got = await client.request("prompts/get", { name: "greet", arguments: { name: "Ada", style: "formal" } });
    expect(got["result"]["messages"]).toEqual([{ role: "user", content: { type: "text", text: "Good day, Ada." } }]);
    expect((await client.request("prompts/get", { name: "greet", arguments: {} }))["error"]).toMatchObject({
      code: -32602,
      message: "Missing required argument name for prompt greet",
    });
    expect((await client.request("prompts/get", { name: "nope" }))["error"]["code"]).toBe(-32602);
    const completed = await client.request("completion/complete", {
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "style", value: "f" },
    });
    expect(completed["result"]["completion"]).toEqual({ values: ["formal"], total: 1, hasMore: false });
    const paths = await client.request("completion/complete", {
      ref: { type: "ref/resource", uri: "file:///{+path}" },
      argument: { name: "path", value: "docs/" },
    });
    expect(paths["result"]["completion"]["values"]).toEqual(["docs/a.md", "docs/b.md"]);
  });

  test("features added at run time send list_changed", async () => {
    const client = await connect(revision);
    await client.request("tools/call", { name: "add_tool" });
    expect(client.notifications("notifications/tools/list_changed")).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ]);
    const listed = await client.request("tools/list", {});
    expect(listed["result"]["tools"].length).toBeGreaterThan(0);
  });

  test("server-to-client requests: sampling, elicitation, roots, refused without the capability", async () => {
    const client = await connect(revision, { capabilities: { sampling: {}, roots: {}, elicitation: {} } });
    client.answer = (request) => {
      switch (request["method"]) {
        case "sampling/createMessage":
          return { role: "assistant", content: { type: "text", text: "42" }, model: "test-model" };
        case "roots/list":
          return { roots: [{ uri: "file:///home" }, { uri: "file:///work" }] };
        case "elicitation/create":
          return { action: "accept", content: { name: "Ada" } };
        default:
          return { error: { code: -32601, message: "no" } };
      }
    };
    expect(text(await client.request("tools/call", { name: "sample", arguments: { q: "meaning?" } }))).toBe(
      "model said: 42",
    );
    expect(text(await client.request("tools/call", { name: "roots" }))).toBe("file:///home,file:///work");
    const elicited = await client.request("tools/call", { name: "elicit" });
    // elicitation/create exists from 2025-06-18 on.
    expect(text(elicited)).toBe(
      revision >= "2025-06-18"
        ? 'user accept: {"name":"Ada"}'
        : `elicitation/create is not a request the server sends in protocol revision ${revision}`,
    );

    const bare = await connect(revision);
    const refused = await bare.request("tools/call", { name: "sample" });
    expect(refused["result"]).toEqual({
      content: [
        {
          type: "text",
          text: "sampling/createMessage needs the client capability sampling, which the client did not declare",
        },
      ],
      isError: true,
    });
  });

  test("a client error answer to a server request reaches the handler", async () => {
    const client = await connect(revision, { capabilities: { roots: {} } });
    client.answer = () => ({ error: { code: -32603, message: "roots are secret" } });
    expect(text(await client.request("tools/call", { name: "roots" }))).toBe("roots are secret");
  });
});

describe("lifecycle", () => {
  test("before initialize only ping is served; initialize is answered once", async () => {
    const client = await inProcess(buildEverythingServer(quiet));
    clients.push(client);
    expect((await client.request("ping"))["result"]).toEqual({});
    expect((await client.request("tools/list"))["error"]).toMatchObject({
      code: -32600,
      message:
        "Invalid Request: tools/list before initialize; the session must be initialized first (basic/lifecycle#initialization), or the request must carry the per-request _meta of protocol version 2026-07-28",
    });
    await client.initialize("2025-11-25");
    expect(
      (
        await client.request("initialize", {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "x", version: "1" },
        })
      )["error"],
    ).toMatchObject({
      code: -32600,
      message: "Invalid Request: initialize was already received in this session",
    });
  });

  test("an unknown or stateless revision is answered with the newest served one", async () => {
    for (const requested of ["1999-01-01", "2026-07-28", "draft"]) {
      const client = await inProcess(buildEverythingServer(quiet));
      clients.push(client);
      const response = await client.initialize(requested);
      expect(response["result"]["protocolVersion"]).toBe("2025-11-25");
    }
  });

  test("an invalid initialize names the problem and leaves the session uninitialized", async () => {
    const client = await inProcess(buildEverythingServer(quiet), "2025-06-18");
    clients.push(client);
    const response = await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {} });
    expect(response["error"]).toMatchObject({
      code: -32602,
      message: "Invalid params: /params/clientInfo is required",
    });
    expect((await client.request("tools/list"))["error"]["code"]).toBe(-32600);
    expect((await client.initialize("2025-06-18"))["result"]["protocolVersion"]).toBe("2025-06-18");
  });

  test("the server sends only ping and logging before notifications/initialized", async () => {
    const client = await inProcess(buildEverythingServer(quiet));
    clients.push(client);
    await client.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { sampling: {} },
      clientInfo: { name: "x", version: "1" },
    });
    await client.useRevision("2025-11-25");
    const early = await client.request("tools/call", { name: "sample" });
    expect(text(early)).toBe(
      "sampling/createMessage may not be sent before the client has sent notifications/initialized",
    );
    await client.request("tools/call", { name: "add_tool" });
    await client.request("tools/call", { name: "log" });
    expect(client.notifications("notifications/tools/list_changed")).toEqual([]);
    expect(client.notifications("notifications/message")).toHaveLength(4);
  });

  test("list_changed is sent once per tick per feature, and only where declared", async () => {
    const server = new McpServer({ name: "grow", version: "1" }, quiet);
    server.tool("first", {}, () => "1");
    const client = await connect("2025-11-25", { server });
    const registrations = [server.tool("a", {}, () => "a"), server.tool("b", {}, () => "b")];
    server.prompt("p", {}, () => "p"); // prompts were not declared at initialize: no notification
    await client.request("ping");
    expect(client.notifications().map((n) => n["method"])).toEqual(["notifications/tools/list_changed"]);
    expect(registrations[0]!.remove()).toBe(true);
    expect(registrations[0]!.remove()).toBe(false);
    await client.request("ping");
    expect(client.notifications("notifications/tools/list_changed")).toHaveLength(2);
  });

  test("a server without prompts refuses prompts/list as an undeclared capability", async () => {
    const server = new McpServer({ name: "bare", version: "1" }, quiet);
    server.tool("t", {}, () => "t");
    const client = await connect("2025-11-25", { server });
    expect((await client.request("prompts/list", {}))["error"]).toMatchObject({
      code: -32601,
      message: "Method not found: prompts/list needs the server capability prompts, which this server did not declare",
    });
  });

  test("a server request times out, and a cancellation is sent", async () => {
    const server = buildEverythingServer({ ...quiet, requestTimeoutMs: 50 });
    const client = await connect("2025-11-25", { server, capabilities: { sampling: {} } });
    client.answer = () => new Promise(() => {}); // never answers
    const response = await client.request("tools/call", { name: "sample" });
    expect(text(response)).toMatch(
      /^sampling\/createMessage \(request 0\) got no response within 50 ms; it was cancelled$/,
    );
    expect(client.notifications("notifications/cancelled")).toEqual([
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0, reason: "timed out after 50 ms" } },
    ]);
  });

  test("a handler result that breaks the schema is -32603, not sent", async () => {
    const server = new McpServer({ name: "buggy", version: "1" }, quiet);
    server.prompt("p", {}, () => ({ messages: [{ role: "robot", content: { type: "text", text: "x" } }] }) as never);
    const client = await connect("2025-11-25", { server });
    expect((await client.request("prompts/get", { name: "p" }))["error"]).toMatchObject({
      code: -32603,
      message:
        'Internal error: the server\'s prompts/get result is invalid at /messages/0/role: must be one of "user", "assistant"',
    });
  });
});

describe("batches (2025-03-26 only)", () => {
  test("a batch of requests and notifications gets one array of responses", async () => {
    const client = await connect("2025-03-26");
    client.expect("a", "ping");
    client.expect("b", "tools/call");
    client.write([
      { jsonrpc: "2.0", id: "a", method: "ping" },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "echo", arguments: { text: "x" } } },
      { jsonrpc: "2.0", id: "c" },
    ]);
    await client.response("b");
    const reply = client.received.at(-1) as Record<string, any>[];
    expect(Array.isArray(reply)).toBe(true);
    expect(reply.map((r) => r["id"]).sort()).toEqual(["a", "b", "c"]);
    expect(reply.find((r) => r["id"] === "c")!["error"]["code"]).toBe(-32600);
  });

  test("an empty batch is invalid; a batch of notifications gets no reply", async () => {
    const client = await connect("2025-03-26");
    client.write([]);
    client.write([{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }]);
    await client.request("ping");
    expect(client.received.slice(-2)).toEqual([
      {
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid Request: an empty batch is not a valid JSON-RPC message" },
      },
      expect.objectContaining({ result: {} }),
    ]);
  });

  test.each(statefulRevisions.filter((r) => r !== "2025-03-26"))("%s refuses batches", async (revision) => {
    const client = await connect(revision);
    client.write([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    await client.request("ping");
    expect(client.received.at(-2)).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: `Invalid Request: a JSON-RPC batch (array) is not allowed in revision ${revision}`,
      },
    });
  });
});

test("when the negotiated revision's shims cannot load after initialize was answered, every request gets -32603 and the session keeps answering", async () => {
  const logged: string[] = [];
  const server = buildEverythingServer({ logger: (level, message) => logged.push(`${level}: ${message}`) });
  const revision = statefulRevisions.at(-1)!;
  // As in a fresh process whose install lost a shims chunk: initialize is answered from the tables
  // alone (handshake.ts), and the wire with the shims fails to load right after.
  const revisions = hostOf(server).served;
  const tablesOf = (wire: { info: RevisionInfo; tables: MessageTables }) => ({ info: wire.info, tables: wire.tables });
  const loadedForHandshake = revisions.loadedForHandshake.bind(revisions);
  const loadForHandshake = revisions.loadForHandshake.bind(revisions);
  revisions.loadedForHandshake = (info, tablesSuffice) => {
    const wire = loadedForHandshake(info, tablesSuffice);
    return wire && tablesSuffice ? tablesOf(wire) : wire;
  };
  revisions.loadForHandshake = async (info, tablesSuffice) => {
    const wire = await loadForHandshake(info, tablesSuffice);
    return tablesSuffice ? tablesOf(wire) : wire;
  };
  revisions.load = (info) => Promise.reject(new Error(`the shims of ${info.name} are missing`));
  const client = await inProcess(server, revision);
  clients.push(client);
  const answered = await client.request("initialize", {
    protocolVersion: revision,
    capabilities: {},
    clientInfo: { name: "scripted-client", version: "1.0.0" },
  });
  expect(answered["result"]["protocolVersion"]).toBe(revision);
  client.notify("notifications/initialized");
  // Sent while the shims load: they wait in the backlog, and are answered once the load failed.
  const waiting = [client.request("tools/call", { name: "echo", arguments: { text: "hi" } }), client.request("ping")];
  const failure = { code: -32603, message: `Internal error: cannot load protocol revision ${revision}` };
  for (const response of await Promise.all(waiting)) expect(response["error"]).toEqual(failure);
  expect((await client.request("tools/list"))["error"]).toEqual(failure);
  expect(logged).toContain(`error: cannot load protocol revision ${revision}`);
});

test.each(["2025-03-26", statefulRevisions.at(-1)!])(
  "%s: while a revision loads, messages beyond the session's queue bound are refused, each request with its own id, and the held ones are answered in their turn",
  async (revision) => {
    const logged: string[] = [];
    const server = buildEverythingServer({
      logger: (level, message) => logged.push(`${level}: ${message}`),
      sessionLimits: { queuedMessages: 2 },
    });
    // The revision initialize asks for loads until the test has sent what it sends meanwhile.
    const revisions = hostOf(server).served;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const loadedForHandshake = revisions.loadedForHandshake.bind(revisions);
    const loadForHandshake = revisions.loadForHandshake.bind(revisions);
    let loading = true;
    void released.then(() => (loading = false));
    revisions.loadedForHandshake = (info, tablesSuffice) =>
      loading ? undefined : loadedForHandshake(info, tablesSuffice);
    revisions.loadForHandshake = async (info, tablesSuffice) => {
      await released;
      return loadForHandshake(info, tablesSuffice);
    };
    const client = await inProcess(server, revision);
    clients.push(client);
    const initialized = client.request("initialize", {
      protocolVersion: revision,
      capabilities: {},
      clientInfo: { name: "scripted-client", version: "1.0.0" },
    });
    client.notify("notifications/initialized");
    const held = client.request("tools/call", { name: "echo", arguments: { text: "held" } }, "held");
    const busy = { code: -32603, message: "Server busy: 2 messages are already queued in this session" };
    expect((await client.request("ping", undefined, "refused"))["error"]).toEqual(busy);
    client.notify("notifications/roots/list_changed");
    expect(logged).toContain("warning: dropped a message: 2 messages are already queued in this session");
    release();
    expect((await initialized)["result"]["protocolVersion"]).toBe(revision);
    expect(text(await held)).toBe("held");
    expect(client.received.filter((m) => !Array.isArray(m)).map((m) => (m as { id?: unknown }).id)).toEqual([
      "refused",
      1,
      "held",
    ]);
    // The session goes on: the initialized notification it held was received in its turn.
    expect((await client.request("ping"))["result"]).toEqual({});
  },
);

/**
 * A session's load queue whose revision never loads, so that every message after
 * the first waits; what the queue answers is kept in `replies` (JSON), what it logs in `logged`.
 */
async function waitingLoads(sessionLimits: Record<string, number>) {
  const tables = await loadTables("2025-03-26");
  const replies: string[] = [];
  const logged: string[] = [];
  const session = {
    host: {
      sessionLimits,
      logger: (level: string, message: string) => logged.push(`${level}: ${message}`),
      served: { loaded: () => undefined, load: () => new Promise(() => {}) },
    },
    lifecycle: { phase: "ready" },
    receiveMessage: () => true,
    settleIdle: () => {},
  } as unknown as LoadingSession;
  const loads = new RevisionLoads(session);
  loads.withRevision({ name: "2025-03-26" } as RevisionInfo, { id: 0, reply: () => {} }, () => {}); // never loads: what comes after it waits
  const channel = { reply: (json: string) => replies.push(json) } as unknown as Channel;
  const hold = (message: unknown, length = 0) =>
    loads.hold(message, channel, classifyMessage(message, tables.envelope), length);
  return { loads, hold, replies, logged };
}

test("a batch beyond the queue bound is refused with an array of -32603 errors, one for each request in it, by id", async () => {
  const { loads, hold, replies, logged } = await waitingLoads({ queuedMessages: 1 });
  expect(loads.holding).toBe(true);
  hold({ jsonrpc: "2.0", id: "held", method: "ping" });
  expect(replies).toEqual([]);
  hold([
    { jsonrpc: "2.0", id: "batch-1", method: "ping" },
    { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
    { jsonrpc: "2.0", id: 7, method: "tools/list" },
    { jsonrpc: "2.0", id: 8, method: 5 },
  ]);
  hold([{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }]);
  const busy = { code: -32603, message: "Server busy: 1 messages are already queued in this session" };
  expect(replies.map((json) => JSON.parse(json))).toEqual([
    [
      { jsonrpc: "2.0", id: "batch-1", error: busy },
      { jsonrpc: "2.0", id: 7, error: busy },
      { jsonrpc: "2.0", id: 8, error: busy },
    ],
  ]);
  expect(logged).toEqual(["warning: dropped a message: 1 messages are already queued in this session"]);
});

test("the load queue is bounded by length too (inflightLength), unless it is empty", async () => {
  const { hold: holdMessage, replies } = await waitingLoads({ queuedMessages: 1000, inflightLength: 100 });
  const hold = (id: string, length: number) => holdMessage({ jsonrpc: "2.0", id, method: "ping" }, length);
  hold("alone", 150); // longer than the bound, but nothing else waits
  hold("next", 10);
  expect(replies.map((json) => JSON.parse(json))).toEqual([
    {
      jsonrpc: "2.0",
      id: "next",
      error: {
        code: -32603,
        message:
          "Server busy: the messages queued in this session are 150 characters long, and this one's 10 would pass the limit of 100",
      },
    },
  ]);
});

test("a string id longer than the session's bound is refused -32600 with it; a fractional id is echoed in its error", async () => {
  const server = buildEverythingServer({ ...quiet, sessionLimits: { idLength: 16 } });
  const client = await connect("2025-11-25", { server });
  const long = "x".repeat(17);
  expect((await client.request("ping", undefined, long))["error"]).toEqual({
    code: -32600,
    message: "Invalid Request: id is 17 characters long, over this server's 16",
  });
  expect((await client.request("ping", undefined, "x".repeat(16)))["result"]).toEqual({});
  expect((await client.request("ping", undefined, 1.5))["error"]).toEqual({
    code: -32600,
    message: "Invalid Request: id must be a string or an integer, not 1.5",
  });
  // The default bound, 256 code units.
  const defaults = await connect("2025-11-25");
  expect((await defaults.request("ping", undefined, "y".repeat(256)))["result"]).toEqual({});
  expect((await defaults.request("ping", undefined, "y".repeat(257)))["error"]["code"]).toBe(-32600);
});

test("a session closed while the revision its message needs loads stays closed: nothing is answered or run after", async () => {
  const server = new McpServer({ name: "s", version: "1" }, quiet);
  let started = 0;
  server.tool("count", { inputSchema: { type: "object" } }, () => String(++started));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const revisions = hostOf(server).served;
  const loaded = revisions.loaded.bind(revisions);
  const load = revisions.load.bind(revisions);
  let loading = true;
  revisions.loaded = (info) => (loading ? undefined : loaded(info));
  revisions.load = async (info) => {
    await released;
    loading = false;
    return load(info);
  };
  const written: string[] = [];
  const session = server.connect((json) => written.push(json));
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  session.receive(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "count", arguments: {}, _meta: meta },
    }),
  );
  session.close();
  release();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(started).toBe(0);
  expect(session.busy).toBe(false);
  expect(written).toEqual([]);
});
