// mcpgen/client against 2026-07-28 servers that misbehave, each a scripted
// child process over stdio: a multi round-trip result that asks for more input
// than a client should answer, or all of it at once; a request sent as a
// message of its own, on a revision where servers send none; a subscription
// acknowledged (and fed) beyond what was asked.
import { describe, expect, test } from "vitest";
import { Client, ServerMessageError, StdioClientTransport, type ClientOptions } from "mcpgen/client";

/**
 * Answers tools/call with an InputRequiredResult of INPUTS sampling/createMessage requests; the retry
 * (with inputResponses) is answered with how many answers it carried. Anything else with an id: -32601.
 */
const mrtrServer = `
  const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
  const count = Number(process.env.INPUTS);
  require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
    const msg = JSON.parse(line);
    if (msg.method === "tools/call") {
      if (msg.params.inputResponses)
        return send({ jsonrpc: "2.0", id: msg.id, result: { resultType: "complete",
          content: [{ type: "text", text: "got " + Object.keys(msg.params.inputResponses).length + " answers" }] } });
      const inputRequests = {};
      for (let i = 0; i < count; i++)
        inputRequests["k" + i] = { method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: { type: "text", text: "hi " + i } }], maxTokens: 10 } };
      return send({ jsonrpc: "2.0", id: msg.id, result: { resultType: "input_required", inputRequests, requestState: "s" } });
    }
    if (msg.id !== undefined && msg.method) send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "nope" } });
  });
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function connect(script: string, env: Record<string, string>, options: ClientOptions) {
  return Client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["-e", script],
      env: { ...process.env, ...env },
      shutdownGraceMs: 1_000,
    }),
    { revision: "2026-07-28", timeoutMs: 10_000, ...options },
  );
}

describe("multi round-trip input is bounded (2026-07-28 basic/patterns/mrtr)", () => {
  /** A sampling handler that takes 20 ms and counts its calls and how many ran at once. */
  const sampler = () => {
    const seen = { calls: 0, running: 0, peak: 0 };
    const sampling = async () => {
      seen.calls++;
      seen.peak = Math.max(seen.peak, ++seen.running);
      await sleep(20);
      seen.running--;
      return { role: "assistant" as const, content: { type: "text" as const, text: "x" }, model: "m" };
    };
    return { seen, sampling };
  };

  test("300 input requests in one result: all answered, at most 100 handler calls at once", async () => {
    const { seen, sampling } = sampler();
    const client = await connect(mrtrServer, { INPUTS: "300" }, { handlers: { sampling } });
    try {
      const result = await client.callTool("t", {});
      expect(result.content).toEqual([{ type: "text", text: "got 300 answers" }]);
      expect(seen.calls).toBe(300);
      expect(seen.peak).toBe(100);
    } finally {
      await client.close();
    }
  });

  test("1,001 input requests in one result: the call fails naming the bound, no handler is called", async () => {
    const { seen, sampling } = sampler();
    const client = await connect(mrtrServer, { INPUTS: "1001" }, { handlers: { sampling } });
    try {
      const error = await client.callTool("t", {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerMessageError);
      expect(String(error)).toMatch(
        /the server asked for 1001 inputs in one answer to tools\/call, more than the 1000 a client answers/,
      );
      expect(seen.calls).toBe(0);
    } finally {
      await client.close();
    }
  });
});

/**
 * Answers initialize (at the version asked) and tools/list; before the tools/list answer it sends
 * REQUEST (a JSON-RPC request). Every message without a method that the client sends (a response)
 * is written to stderr, one line each.
 */
const requestingServer = `
  const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
  require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
    const msg = JSON.parse(line);
    if (msg.method === undefined) return process.stderr.write(line + "\\n");
    if (msg.method === "initialize")
      return send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: {} }, serverInfo: { name: "scripted", version: "1" } } });
    if (msg.method === "tools/list") {
      send(JSON.parse(process.env.REQUEST));
      send({ jsonrpc: "2.0", id: msg.id, result: { resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [] } });
    }
  });
`;

describe("a server request the client refuses", () => {
  async function refused(revision: string, request: Record<string, unknown>) {
    const responses: Record<string, unknown>[] = [];
    const problems: string[] = [];
    let stderr = "";
    const client = await Client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["-e", requestingServer],
        env: { ...process.env, REQUEST: JSON.stringify(request) },
        onStderr: (chunk) => {
          stderr += chunk;
          const lines = stderr.split("\n");
          stderr = lines.pop()!;
          for (const line of lines) responses.push(JSON.parse(line) as Record<string, unknown>);
        },
        shutdownGraceMs: 1_000,
      }),
      { revision, timeoutMs: 3_000, onProblem: (e) => problems.push(e.message) },
    );
    try {
      await expect(client.listTools()).resolves.toEqual([]);
      await sleep(300); // a response, had one been sent, is in by now
      return { responses, problems };
    } finally {
      await client.close();
    }
  }

  test("2026-07-28 (basic/transports: clients do not send JSON-RPC responses): reported, not answered", async () => {
    const { responses, problems } = await refused("2026-07-28", {
      jsonrpc: "2.0",
      id: "s1",
      method: "sampling/createMessage",
      params: { messages: [], maxTokens: 1 },
    });
    expect(responses).toEqual([]);
    expect(problems).toEqual([
      expect.stringMatching(
        /sent an invalid message \(its sampling\/createMessage request\): .*travels only inside InputRequiredResult in revision 2026-07-28/,
      ),
    ]);
  });

  test("2025-11-25 (server requests exist): an invalid one is answered -32602 naming what was wrong", async () => {
    const { responses, problems } = await refused("2025-11-25", {
      jsonrpc: "2.0",
      id: "s1",
      method: "sampling/createMessage",
      params: { messages: [] },
    });
    expect(responses).toEqual([
      { jsonrpc: "2.0", id: "s1", error: { code: -32602, message: expect.stringMatching(/maxTokens/) } },
    ]);
    expect(problems).toHaveLength(1);
  });
});

/**
 * Acknowledges every subscriptions/listen with more than it asked for (every list_changed flag, and a
 * URI it did not name besides its own), then sends on it a notification of each kind, the asked-for
 * ones last.
 */
const generousServer = `
  const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
  require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
    const msg = JSON.parse(line);
    if (msg.method !== "subscriptions/listen") return;
    const _meta = { "io.modelcontextprotocol/subscriptionId": msg.id };
    const asked = msg.params.notifications.resourceSubscriptions ?? [];
    send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta, notifications: {
      toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true,
      resourceSubscriptions: [...asked, "file:///never-asked"] } } });
    for (const method of ["notifications/prompts/list_changed", "notifications/resources/list_changed"])
      send({ jsonrpc: "2.0", method, params: { _meta } });
    for (const uri of ["file:///never-asked", ...asked])
      send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { _meta, uri } });
    send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta } });
  });
`;

describe("subscriptions/listen acknowledged beyond the filter (2026-07-28 basic/patterns/subscriptions#acknowledgment)", () => {
  test("only what the filter asked for is acknowledged and delivered", async () => {
    const client = await connect(generousServer, {}, {});
    try {
      const seen: string[] = [];
      const sub = await client.subscribe({ toolsListChanged: true, resourceSubscriptions: ["file:///a"] }, (n) =>
        seen.push(n.method === "notifications/resources/updated" ? `${n.method} ${n.params.uri}` : n.method),
      );
      expect(sub.acknowledged).toEqual({ toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
      await expect.poll(() => seen.at(-1), { timeout: 3_000 }).toBe("notifications/tools/list_changed");
      expect(seen).toEqual(["notifications/resources/updated file:///a", "notifications/tools/list_changed"]);
      await sub.close();
    } finally {
      await client.close();
    }
  });
});
