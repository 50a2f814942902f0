// Scripted raw JSON-RPC sessions with a real child process over stdio, one
// per revision with the initialize handshake, and the stdio transport's
// behaviour with bad input, stray output, end of input and a broken pipe.
// Every server message is checked with the negotiated revision's validator.
// The fixture is compiled by `npm test` (tsconfig.scripts.json) into dist/.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { childServer, statefulRevisions, type ChildServer } from "./support.js";

const fixture = fileURLToPath(new URL("../../dist/test/fixtures/servers/everything.js", import.meta.url));
const running: ChildServer[] = [];

beforeAll(() => {
  if (!existsSync(fixture)) throw new Error(`${fixture} is missing: run npm test (it compiles the fixtures) first`);
});

afterEach(async () => {
  for (const server of running.splice(0)) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
});

async function start(args: string[] = []): Promise<ChildServer> {
  const server = await childServer(fixture, args, { timeoutMs: 60_000 });
  running.push(server);
  return server;
}

const text = (response: Record<string, any>) => response["result"]["content"][0]["text"];

describe.each(statefulRevisions)("a stdio session at %s", (revision) => {
  test("initialize, list, call, errors, cancellation, progress, pagination, subscribe, prompts; exit 0 when stdin closes", async () => {
    const { client, exited } = await start(["--page-size", "4"]);
    const init = await client.initialize(revision, { roots: {} });
    expect(init["result"]["protocolVersion"]).toBe(revision);

    // Pagination across every page of tools/list.
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request("tools/list", cursor ? { cursor } : {});
      expect(page["result"]["tools"].length).toBeLessThanOrEqual(4);
      names.push(...page["result"]["tools"].map((t: { name: string }) => t.name));
      cursor = page["result"]["nextCursor"];
    } while (cursor);
    expect(names).toEqual(expect.arrayContaining(["echo", "add", "slow", "touch"]));

    // Calls and their errors.
    expect(text(await client.request("tools/call", { name: "echo", arguments: { text: "over stdio" } }))).toBe(
      "over stdio",
    );
    expect((await client.request("tools/call", { name: "missing", arguments: {} }))["error"]["code"]).toBe(-32602);
    expect((await client.request("tools/call", { name: "echo", arguments: {} }))["result"]["isError"]).toBe(true);
    expect((await client.request("resources/read", { uri: "file:///missing" }))["error"]["code"]).toBe(-32002);

    // Progress, then cancellation of a long call.
    const steps = await client.request("tools/call", {
      name: "slow",
      arguments: { steps: 2 },
      _meta: { progressToken: 1 },
    });
    expect(text(steps)).toBe("done after 2 steps");
    expect(client.notifications("notifications/progress").map((n) => n["params"]["progress"])).toEqual([1, 2]);
    const long = client.request("tools/call", { name: "slow", arguments: { steps: 500 } }, "long");
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.notify("notifications/cancelled", { requestId: "long", reason: "test" });
    const outcome = await Promise.race([long, new Promise((r) => setTimeout(() => r("no response"), 300))]);
    expect(outcome).toBe("no response");

    // Subscribe, and the update that follows.
    await client.request("resources/subscribe", { uri: "file:///notes.txt" });
    await client.request("tools/call", { name: "touch", arguments: { uri: "file:///notes.txt" } });
    expect(client.notifications("notifications/resources/updated")).toEqual([
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///notes.txt" } },
    ]);

    // A server-to-client request answered by the scripted client.
    client.answer = () => ({ roots: [{ uri: "file:///r" }] });
    expect(text(await client.request("tools/call", { name: "roots" }))).toBe("file:///r");

    const prompt = await client.request("prompts/get", { name: "greet", arguments: { name: "Ada" } });
    expect(prompt["result"]["messages"][0]["content"]["text"]).toBe("Hi Ada!");

    expect(client.problems).toEqual([]);
    client.close();
    expect(await exited).toBe(0);
  });
});

describe("bad input on stdin gets the right error, and the server keeps serving", () => {
  test("malformed JSON, a batch where none is allowed, unknown method, wrong params, a 10 MB line, bytes that are not UTF-8, before initialize", async () => {
    const { client, child } = await start();
    const lastError = async () => {
      // Each bad line is followed by a ping: its answer shows the server still serves, and orders the replies.
      expect((await client.request("ping"))["result"]).toEqual({});
      const replies = client.received.filter((m) => !Array.isArray(m) && (m as Record<string, unknown>)["error"]);
      return (replies.at(-1) as Record<string, any>)["error"];
    };

    expect((await client.request("tools/list"))["error"]).toMatchObject({ code: -32600 });
    await client.initialize("2025-11-25");

    client.write('{"jsonrpc":"2.0","id":1,"method":"ping"');
    expect(await lastError()).toEqual({
      code: -32700,
      message: 'Parse error: expected "," or "}", found end of input at line 1 column 40',
    });
    client.write('[{"jsonrpc":"2.0","id":"b1","method":"ping"}]');
    expect(await lastError()).toEqual({
      code: -32600,
      message: "Invalid Request: a JSON-RPC batch (array) is not allowed in revision 2025-11-25",
    });
    expect((await client.request("resources/unknown", {}))["error"]).toMatchObject({ code: -32601 });
    expect((await client.request("resources/read", { uri: 42 }))["error"]).toMatchObject({
      code: -32602,
      message: "Invalid params: /params/uri must be string",
    });
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: "huge",
      method: "tools/call",
      params: { name: "echo", arguments: { text: "x".repeat(10 * 1024 * 1024) } },
    });
    client.write(huge);
    expect(await lastError()).toEqual({
      code: -32600,
      message: `Invalid Request: message of ${huge.length} bytes exceeds the limit of 4194304 bytes`,
    });
    // basic/transports: messages "MUST be UTF-8 encoded". Not decoded with U+FFFD in place of the bad byte.
    const before = '{"jsonrpc":"2.0","id":"bytes","method":"tools/call","params":{"name":"echo","arguments":{"text":"a';
    child.stdin.write(Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from('"}}}\n')]));
    expect(await lastError()).toEqual({
      code: -32700,
      message: `Parse error: not UTF-8 at byte offset ${before.length}`,
    });
    expect(client.received.some((m) => (m as Record<string, unknown>)["id"] === "bytes")).toBe(false);
    client.write("\r\n   \n");
    expect(text(await client.request("tools/call", { name: "echo", arguments: { text: "still here" } }))).toBe(
      "still here",
    );
    expect(client.problems).toEqual([]);
    expect(child.exitCode).toBe(null);
  });

  test("stray console.log goes to stderr, never stdout", async () => {
    const server = await start();
    await server.client.initialize("2025-11-25");
    expect(text(await server.client.request("tools/call", { name: "stray_output" }))).toBe("wrote");
    await server.client.request("ping");
    expect(server.client.problems).toEqual([]); // every stdout line was a valid message
    expect(server.stderr()).toContain("this must not reach stdout\nnor this\n");
  });

  test("what follows initialize in the same write waits for the revision's shims and is served", async () => {
    // A fresh process: initialize at 2025-11-25 is answered from its tables, and its shims load after
    // the answer; the lines already read wait for both, then go through the shims (a 2025-11-25
    // CallToolResult has no resultType), and end of input waits for them.
    const { client, exited } = await start();
    await client.useRevision("2025-11-25");
    const ids = ["init", "call", "list", "ping"] as const;
    ids.forEach((id, i) => client.expect(id, ["initialize", "tools/call", "tools/list", "ping"][i]!));
    const answers = ids.map((id) => client.response(id));
    const lines = [
      {
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: "call", method: "tools/call", params: { name: "echo", arguments: { text: "queued" } } },
      { jsonrpc: "2.0", id: "list", method: "tools/list" },
      { jsonrpc: "2.0", id: "ping", method: "ping" },
    ];
    client.write(lines.map((line) => JSON.stringify(line)).join("\n"));
    client.close();
    const [init, call, list, ping] = await Promise.all(answers);
    expect(init!["result"]["protocolVersion"]).toBe("2025-11-25");
    expect(text(call!)).toBe("queued");
    expect(call!["result"]).not.toHaveProperty("resultType");
    expect(list!["result"]["tools"].map((t: { name: string }) => t.name)).toContain("echo");
    expect(ping!["result"]).toEqual({});
    // initialize is answered first (a tools/call may finish after the requests behind it: JSON-RPC does not order answers).
    expect((client.received[0] as { id?: unknown }).id).toBe("init");
    expect(client.problems).toEqual([]);
    expect(await exited).toBe(0);
  });

  test("closing stdin lets requests in flight answer, then the process exits 0", async () => {
    const { client, exited } = await start();
    await client.initialize("2025-06-18");
    const answer = client.request("tools/call", { name: "slow", arguments: { steps: 5 } });
    client.close();
    expect(text(await answer)).toBe("done after 5 steps");
    expect(await exited).toBe(0);
  });

  test("a client that does not read stdout stops the server reading stdin (replies do not pile up), and all is answered once it reads", async () => {
    const { child, exited } = await start();
    // Raw lines, counted as they come: 100,000 pending promises would be a test of the test.
    let answered = 0;
    let pending = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      answered += lines.length;
    });
    const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } };
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initialize })}\n`);
    while (answered < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = residentBytes(child.pid!);
    child.stdout.pause();
    // ~5 MB of tools/list requests whose answers (~2.4 KB each) nobody reads: ~240 MB if the server kept them.
    const count = 100_000;
    let batch = "";
    for (let id = 1; id <= count; id++) {
      batch += `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}\n`;
      if (id % 1000 === 0) {
        child.stdin.write(batch);
        batch = "";
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    // What the server holds is what it read before stdout filled: a few chunks of input and their answers.
    expect(residentBytes(child.pid!) - before).toBeLessThan(64 * 1024 * 1024);
    child.stdout.resume();
    const deadline = Date.now() + 60_000;
    while (answered < count + 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(count + 1);
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 90_000);

  test("a broken stdout pipe ends the server with a message on stderr and exit code 1", async () => {
    const server = await start();
    await server.client.initialize("2025-11-25");
    server.child.stdout.destroy();
    // The server writes progress every 10 ms: the first write after the close fails with EPIPE.
    server.client.write({
      jsonrpc: "2.0",
      id: "p",
      method: "tools/call",
      params: { name: "slow", arguments: { steps: 100 }, _meta: { progressToken: 1 } },
    });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain("mcpgen: stdout is closed (EPIPE): the client went away; stopping the server");
  });
});

/** A process's resident memory (Linux: /proc/PID/status VmRSS). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(line[1]) * 1024;
}
