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
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";
import { callTool, conformance, SDK_CLIENTS } from "./clients.js";
import { runtimeBin } from "./installed.js";
import { startPrinting, stopProcess } from "./processes.js";

const example = join(projectRoot, "dist", "examples", "fetch-server.js");

/** How each runtime starts a file; Deno with the permissions docs/transports.md names. */
const RUNTIMES: Record<string, { command: string; args: string[] }> = {
  bun: { command: runtimeBin("bun"), args: [example] },
  deno: { command: runtimeBin("deno"), args: ["run", "--allow-net=127.0.0.1", "--allow-read", "--allow-env", example] },
};

const SIMPLE_TEXT = "This is a simple text response for testing.";
const FETCH_SERVER = /^fetch server: (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m;

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
    ({ child, url, output } = await startPrinting(command, [...args, "--port", "0"], FETCH_SERVER));
    quiet = await openQuietStream(url);
  });
  afterAll(async () => {
    await quiet?.cancel().catch(() => {});
    if (child) expect(await stopProcess(child)).toBe(0);
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

  test.each(SDK_CLIENTS)("the official SDK %s client calls a tool", async (which) => {
    const called = await callTool(which, url, "test_simple_text");
    expect(called).toEqual({
      revision: which === "v1" ? undefined : "2026-07-28",
      server: "mcpgen-conformance",
      text: SIMPLE_TEXT,
    });
  });

  test("the SSE stream opened first, quiet since, is still open after 12 s or more", async () => {
    const waited = Date.now() - quiet!.openedAt;
    if (waited < 12_000) await new Promise((resolve) => setTimeout(resolve, 12_000 - waited));
    expect(quiet!.ended).toBeUndefined();
  });

  test("the runtime printed nothing but the URL: no warning, no error", () => {
    expect(output()).toBe(`fetch server: ${url}\n`);
  });
});
