// examples/fetch-server.ts on Bun and on Deno (the npm packages bun and deno, .ci/runtimes),
// each started from dist/ on a loopback port as a user runs it, then: the
// official conformance suite against it (.ci/conformance --url), the
// 2026-07-28 requirements and every scenario (both runtimes hold 2025
// sessions in the process, as Node does); the official SDK v1 client, and the
// v2 client pinned to 2026-07-28 and in auto mode, calling a tool; and a 2025
// session's SSE stream, opened first and left quiet, still open at the end
// (Bun cuts a connection idle for 10 s unless told otherwise). Each runtime
// is stopped after its tests. The runtimes run one after the other: the suite
// installs its CLI into one cache folder.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";
import { runtimeBin } from "./installed.js";

const example = join(projectRoot, "dist", "examples", "fetch-server.js");

/** How each runtime starts a file; Deno with the permissions docs/transports.md names. */
const RUNTIMES: Record<string, { command: string; args: string[] }> = {
  bun: { command: runtimeBin("bun"), args: [example] },
  deno: { command: runtimeBin("deno"), args: ["run", "--allow-net=127.0.0.1", "--allow-read", "--allow-env", example] },
};

const SIMPLE_TEXT = "This is a simple text response for testing.";
const text = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

/** Starts `command`, resolves with the URL the example prints; rejects if it exits first or takes 30 s. */
function start(command: string, args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(command, [...args, "--port", "0"], { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL after 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const served = /^fetch server: (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(output);
      if (served) (clearTimeout(timer), resolve({ child, url: served[1]!, output: () => output }));
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`exited with ${code}:\n${output}`))));
    child.once("error", (error) => (clearTimeout(timer), reject(error)));
  });
}

/** SIGTERM (the example closes its sessions and listener), SIGKILL after 5 s. */
async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

/** .ci/conformance against `url` for the given selections: its exit code and output. */
function conformance(url: string, ...selections: string[]): Promise<{ code: number | null; output: string }> {
  const run = spawn("bash", [join(projectRoot, ".ci", "conformance"), "--url", url, ...selections], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  run.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  run.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => run.once("close", (code) => resolve({ code, output })));
}

/** A 2025 session's standalone SSE stream, read until it ends; `ended` says how, once it has. */
async function openQuietStream(url: string) {
  const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "quiet", version: "1" } },
  };
  const opened = await fetch(url, { method: "POST", headers, body: JSON.stringify(initialize) });
  await opened.text();
  const session = { "Mcp-Session-Id": opened.headers.get("mcp-session-id")!, "MCP-Protocol-Version": "2025-11-25" };
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  await (
    await fetch(url, { method: "POST", headers: { ...headers, ...session }, body: JSON.stringify(initialized) })
  ).text();
  const stream = await fetch(url, { headers: { Accept: "text/event-stream", ...session } });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  const state = { openedAt: Date.now(), ended: undefined as string | undefined, cancel: () => reader.cancel() };
  void (async () => {
    try {
      while (!(await reader.read()).done);
      state.ended = `ended after ${Date.now() - state.openedAt} ms`;
    } catch (error) {
      state.ended = `cut after ${Date.now() - state.openedAt} ms: ${(error as Error).message}`;
    }
  })();
  return state;
}

describe.each(Object.keys(RUNTIMES))("examples/fetch-server on %s", (name) => {
  const { command, args } = RUNTIMES[name]!;
  let child: ChildProcess | undefined;
  let url = "";
  let output = () => "";
  let quiet: Awaited<ReturnType<typeof openQuietStream>> | undefined;

  beforeAll(async () => {
    ({ child, url, output } = await start(command, args));
    quiet = await openQuietStream(url);
  });
  afterAll(async () => {
    await quiet?.cancel().catch(() => {});
    if (child) expect(await stop(child)).toBe(0);
  });

  test("the official conformance suite passes: the 2026-07-28 requirements", async () => {
    const { code, output } = await conformance(url, "0.2.0-alpha.12:--requirements 2026-07-28");
    expect(code, output).toBe(0);
    expect(output).toMatch(/^Total: [1-9]\d* passed/m);
  }, 600_000);

  test("the official conformance suite passes: every scenario (--suite all)", async () => {
    const { code, output } = await conformance(url, "0.2.0-alpha.12:--suite all");
    expect(code, output).toBe(0);
    expect(output).toMatch(/^Total: [1-9]\d* passed/m);
  }, 600_000);

  test("the official SDK v1 client calls a tool in a 2025 session", async () => {
    const client = new ClientV1({ name: "v1", version: "1.32.2" });
    try {
      await client.connect(new HttpV1(new URL(url)));
      expect(client.getServerVersion()?.name).toBe("mcpgen-conformance");
      expect(text(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe(SIMPLE_TEXT);
    } finally {
      await client.close();
    }
  });

  for (const mode of ["pin", "auto"] as const) {
    test(`the official SDK v2 client (${mode === "pin" ? "pinned to 2026-07-28" : "auto mode"}) calls a tool`, async () => {
      const client = new ClientV2({ name: `v2-${mode}`, version: "2.4.0" }, {
        versionNegotiation:
          mode === "pin"
            ? { mode: { pin: "2026-07-28" }, probe: { timeoutMs: 5_000 } }
            : { mode: "auto", probe: { timeoutMs: 5_000 } },
      } as never);
      try {
        await client.connect(new HttpV2(new URL(url)));
        expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        expect(text(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe(SIMPLE_TEXT);
      } finally {
        await client.close();
      }
    });
  }

  test("the SSE stream opened first, quiet since, is still open after 12 s or more", async () => {
    const waited = Date.now() - quiet!.openedAt;
    if (waited < 12_000) await new Promise((resolve) => setTimeout(resolve, 12_000 - waited));
    expect(quiet!.ended).toBeUndefined();
  });

  test("the runtime printed nothing but the URL: no warning, no error", () => {
    expect(output()).toBe(`fetch server: ${url}\n`);
  });
});
