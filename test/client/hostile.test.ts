// mcpgen/client against servers that misbehave (test/fixtures/servers/hostile.ts):
// each failure is a clear error naming what the server did, within the
// request's timeout, and the server process is gone after close().
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import {
  Client,
  ConnectionClosedError,
  RequestTimeoutError,
  ServerMessageError,
  StdioClientTransport,
} from "mcpgen/client";

const hostile = fileURLToPath(new URL("../../dist/test/fixtures/servers/hostile.js", import.meta.url));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Connects to the hostile server in a mode; what the client reported goes to `problems`. */
async function connect(mode: string, extra: string[] = [], timeoutMs = 1_000) {
  const problems: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [hostile, "--mode", mode, ...extra],
    shutdownGraceMs: 300,
  });
  const client = await Client.connect(transport, {
    timeoutMs,
    probeTimeoutMs: 1_000,
    onProblem: (error) => problems.push(error.message),
  });
  const pid = transport.pid!;
  expect(client.era).toBe("legacy");
  return { client, transport, problems, pid };
}

async function timed<T>(work: Promise<T>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

describe("hostile servers", () => {
  test("garbage on stdout: reported with its line and column; the call times out; the process is stopped", async () => {
    const { client, problems, pid } = await connect("garbage");
    const { error, ms } = await timed(client.callTool("x"));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(String(error)).toMatch(/tools\/call got no answer from .* within 1000 ms/);
    expect(ms).toBeLessThan(2_000);
    expect(problems.join("\n")).toMatch(/sent text that is not JSON \(line 1, column 1/);
    await client.close();
    expect(alive(pid)).toBe(false);
  });

  test("an answer with the wrong id: reported, never taken for the call's answer", async () => {
    const { client, problems, pid } = await connect("wrong-id");
    const { error } = await timed(client.callTool("x"));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(problems.join("\n")).toMatch(/answered a request it was not sent \(id 100\d\)/);
    await client.close();
    expect(alive(pid)).toBe(false);
  });

  test("structuredContent against the listed outputSchema: checked, the breach named by its JSON pointer", async () => {
    const { client, problems, pid } = await connect("structured");
    await client.listTools();
    expect((await client.callTool("weather")).structuredContent).toEqual({ temp: 21, unit: "C" });
    const bad = await timed(client.callTool("weather-bad"));
    expect(bad.error).toBeInstanceOf(ServerMessageError);
    expect((bad.error as ServerMessageError).pointer).toBe("/result/structuredContent/temp");
    expect(String(bad.error)).toMatch(
      /tool "weather-bad" answered structuredContent that breaks its outputSchema: at \/result\/structuredContent\/temp must be number/,
    );
    const missing = await timed(client.callTool("weather-missing"));
    expect(missing.error).toBeInstanceOf(ServerMessageError);
    expect(String(missing.error)).toMatch(/answered without structuredContent, which its outputSchema requires/);
    // A schema the client cannot use (an external $ref) is reported once; that tool's results go unchecked.
    expect((await client.callTool("remote")).structuredContent).toEqual({ temp: 21, unit: "C" });
    expect((await client.callTool("remote")).isError).toBeUndefined();
    expect(problems.filter((p) => p.includes('outputSchema of tool "remote" cannot be used'))).toHaveLength(1);
    await client.close();
    expect(alive(pid)).toBe(false);
  });

  test("validateToolOutput: false leaves structuredContent unchecked", async () => {
    const problems: string[] = [];
    const client = await Client.connect(
      new StdioClientTransport({ command: process.execPath, args: [hostile, "--mode", "structured"] }),
      {
        timeoutMs: 1_000,
        probeTimeoutMs: 1_000,
        validateToolOutput: false,
        onProblem: (e) => problems.push(e.message),
      },
    );
    await client.listTools();
    expect((await client.callTool("weather-bad")).structuredContent).toEqual({ temp: "hot" });
    await client.close();
  });

  test("a result its revision's schema forbids: an error naming the JSON pointer, at once", async () => {
    const { client, pid } = await connect("invalid");
    const { error, ms } = await timed(client.callTool("x"));
    expect(error).toBeInstanceOf(ServerMessageError);
    // 2025-11-25's tools/call answers CallToolResult or CreateTaskResult: the union fails as a whole, at /result.
    expect((error as ServerMessageError).pointer).toBe("/result");
    expect(String(error)).toMatch(
      /sent an invalid message \(its answer to tools\/call\): at \/result must match one of: CallToolResult, CreateTaskResult/,
    );
    expect(ms).toBeLessThan(1_000);
    await client.close();
    expect(alive(pid)).toBe(false);
  });

  test("a 50 MB line: dropped without being held, the call fails naming the size", async () => {
    // The call's own timeout well past the bound below: on a loaded machine 50 MB
    // through a pipe can take over a second, and the size, not the clock, must end the call.
    const { client, problems, pid } = await connect("huge", [], 10_000);
    const { error, ms } = await timed(client.callTool("x"));
    expect(String(error)).toMatch(/sent a line of \d+ bytes, more than the 33554432 accepted/);
    expect(ms).toBeLessThan(5_000);
    expect(problems).toHaveLength(1);
    await client.close();
    expect(alive(pid)).toBe(false);
  });

  test("exit mid-request: the call fails with the exit code and the server's last stderr", async () => {
    const { client } = await connect("exit");
    const { error, ms } = await timed(client.callTool("x"));
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(String(error)).toMatch(/exited with code 3; its stderr ended with: hostile: giving up/);
    expect(ms).toBeLessThan(1_000);
    await expect(client.callTool("x")).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(client.closed).toBe(true);
  });

  test("a server that never answers and ignores stdin's end and SIGTERM: close() ends it with SIGKILL", async () => {
    const { client, pid } = await connect("silent", ["--stubborn"]);
    const { error } = await timed(client.callTool("x"));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    const started = Date.now();
    await client.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(alive(pid)).toBe(false);
  });

  test("a command that does not exist: connect fails naming it", async () => {
    await expect(
      Client.connect(new StdioClientTransport({ command: "/nonexistent/mcp-server" }), { timeoutMs: 1_000 }),
    ).rejects.toThrow(/cannot start \/nonexistent\/mcp-server: spawn \/nonexistent\/mcp-server ENOENT/);
  });
});
