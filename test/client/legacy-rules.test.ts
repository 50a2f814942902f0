// Rules of the initialize-era revisions the client keeps with what a server
// sends, each against a scripted stdio server (a child process) that breaks
// exactly the rule: elicitation in a mode the client did not declare, and a
// JSON-RPC batch on a revision that removed batching.
import { describe, expect, test } from "vitest";
import { Client, ServerMessageError, StdioClientTransport, type ClientOptions } from "mcpgen/client";

/**
 * A server that answers initialize at the version asked, and then: after notifications/initialized,
 * sends the elicitation/create requests in ELICIT (a JSON array); answers tools/list as a batch when
 * BATCH is set. What the client answers it writes to stderr, one line each.
 */
const server = `
  const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
  require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
    const msg = JSON.parse(line);
    if (msg.method === "initialize")
      return send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: {} }, serverInfo: { name: "scripted", version: "1" } } });
    if (msg.method === "notifications/initialized")
      return JSON.parse(process.env.ELICIT || "[]").forEach((params, i) =>
        send({ jsonrpc: "2.0", id: "e" + i, method: "elicitation/create", params }));
    if (msg.method === undefined) return process.stderr.write(line + "\\n");
    const answer = { jsonrpc: "2.0", id: msg.id, result: { tools: [] } };
    if (msg.id !== undefined) send(process.env.BATCH ? [answer] : answer);
  });
`;

async function connect(env: Record<string, string>, options: ClientOptions) {
  const answers: Record<string, unknown>[] = [];
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["-e", server],
    env: { ...process.env, ...env },
    onStderr: (chunk) => {
      stderr += chunk;
      const lines = stderr.split("\n");
      stderr = lines.pop()!;
      for (const line of lines) answers.push(JSON.parse(line) as Record<string, unknown>);
    },
    shutdownGraceMs: 1_000,
  });
  const client = await Client.connect(transport, { timeoutMs: 3_000, ...options });
  return { client, answers };
}

const url = { mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "x1" };
const form = { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } };

describe("elicitation modes (2025-11-25 client/elicitation#capabilities)", () => {
  test("an empty capability declares form mode only: a URL-mode request gets -32602, not the handler", async () => {
    const seen: string[] = [];
    const { client, answers } = await connect(
      { ELICIT: JSON.stringify([url, form]) },
      {
        revision: "2025-11-25",
        handlers: { elicitation: async (params) => (seen.push(params.mode ?? "form"), { action: "decline" }) },
      },
    );
    try {
      await expect.poll(() => answers.length, { timeout: 3_000 }).toBe(2);
      const byId = Object.fromEntries(answers.map((a) => [a["id"], a]));
      expect(byId["e0"]).toMatchObject({ error: { code: -32602 } });
      expect(String((byId["e0"]!["error"] as { message: string }).message)).toMatch(
        /elicitation in "url" mode, which this client did not declare \(capabilities.elicitation: \{\}\)/,
      );
      expect(byId["e1"]).toMatchObject({ result: { action: "decline" } });
      expect(seen).toEqual(["form"]);
    } finally {
      await client.close();
    }
  });

  test("URL mode declared: the request reaches the handler", async () => {
    const seen: string[] = [];
    const { client, answers } = await connect(
      { ELICIT: JSON.stringify([url]) },
      {
        revision: "2025-11-25",
        handlers: { elicitation: async (params) => (seen.push(params.mode ?? "form"), { action: "decline" }) },
        capabilities: { elicitation: { form: {}, url: {} } },
      },
    );
    try {
      await expect.poll(() => answers.length, { timeout: 3_000 }).toBe(1);
      expect(answers[0]).toMatchObject({ id: "e0", result: { action: "decline" } });
      expect(seen).toEqual(["url"]);
    } finally {
      await client.close();
    }
  });
});

describe("JSON-RPC batches (the generated envelope's batching)", () => {
  test("2025-06-18 removed batching: a batched answer is refused, and its request fails at once", async () => {
    const problems: string[] = [];
    const { client } = await connect(
      { BATCH: "1" },
      { revision: "2025-06-18", onProblem: (e) => problems.push(e.message) },
    );
    try {
      const started = Date.now();
      const error = await client.listTools().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerMessageError);
      expect(String(error)).toMatch(/sent a JSON-RPC batch, which revision 2025-06-18 does not allow/);
      expect(Date.now() - started).toBeLessThan(2_000); // not the request's timeout
      expect(problems).toEqual([expect.stringMatching(/sent a JSON-RPC batch/)]);
    } finally {
      await client.close();
    }
  });

  test("2025-03-26 admits batches: a batched answer is taken", async () => {
    const { client } = await connect({ BATCH: "1" }, { revision: "2025-03-26" });
    try {
      await expect(client.listTools()).resolves.toEqual([]);
    } finally {
      await client.close();
    }
  });
});
