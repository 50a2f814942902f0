// What the framework tests share: an example started as a user runs it (from
// dist/, on a loopback port it picks, its URL read from what it prints) and
// stopped; and the official SDK clients calling the weather server's tool, the
// v2 client pinned to 2026-07-28 (per request) and the v1 client in a 2025
// session (initialize, then the GET SSE stream it opens).
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";

export interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything the process printed so far. */
  output(): string;
}

/** A built example's path: examples/deploy/<name>.ts as dist/examples/deploy/<name>.js. */
export const builtExample = (name: string): string => join(projectRoot, "dist", "examples", "deploy", `${name}.js`);

/** Starts `command args --port 0`; resolves with the URL it prints after `label: `, rejects if it exits first or takes 30 s. */
export function start(command: string, args: string[], label: string): Promise<Started> {
  const child = spawn(command, [...args, "--port", "0"], { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const printed = new RegExp(`^${label}: (http://127\\.0\\.0\\.1:\\d+/mcp)$`, "m");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill("SIGKILL"), reject(new Error(`no URL after 30 s:\n${output}`))), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const served = printed.exec(output);
      if (served) (clearTimeout(timer), resolve({ child, url: served[1]!, output: () => output }));
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`exited with ${code}:\n${output}`))));
    child.once("error", (error) => (clearTimeout(timer), reject(error)));
  });
}

/** SIGTERM (the examples end their sessions and listener), SIGKILL after 5 s: the exit code, or the signal that ended it. */
export async function stop(child: ChildProcess): Promise<number | string | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? child.signalCode;
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  );
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

const text = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;
const FORECAST = { name: "get_forecast", arguments: { city: "Lisbon", days: 2 } };
const FORECAST_TEXT = "Lisbon: sunny for the next 2 days";

/** The v2 client pinned to 2026-07-28 calls get_forecast: one POST per request, no session. */
export async function forecastWithV2(url: string): Promise<void> {
  const client = new ClientV2({ name: "v2-pin", version: "2.4.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" }, probe: { timeoutMs: 5_000 } },
  } as never);
  try {
    await client.connect(new HttpV2(new URL(url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(text(await client.callTool(FORECAST))).toBe(FORECAST_TEXT);
  } finally {
    await client.close();
  }
}

/**
 * The v1 client calls get_forecast in a 2025 session: initialize, then the
 * standalone GET SSE stream, which must be answered 200 with an event stream.
 */
export async function forecastWithV1(url: string): Promise<void> {
  const watched = watchStreams();
  const client = new ClientV1({ name: "v1", version: "1.32.2" });
  try {
    await client.connect(new HttpV1(new URL(url), { fetch: watched.fetch }));
    expect(text(await client.callTool(FORECAST))).toBe(FORECAST_TEXT);
    expect(await within(5_000, watched.opened, "GET stream")).toBe("200 text/event-stream");
  } finally {
    await client.close();
  }
}

/** A fetch for the v1 client that reports how its standalone GET stream was answered. */
function watchStreams() {
  let report!: (answer: string) => void;
  const opened = new Promise<string>((resolve) => (report = resolve));
  const fetchWatched = async (input: string | URL, init?: RequestInit) => {
    const response = await fetch(input, init);
    if ((init?.method ?? "GET") === "GET") report(`${response.status} ${response.headers.get("content-type")}`);
    return response;
  };
  return { fetch: fetchWatched, opened };
}

/**
 * Server-to-client messages of a 2025 session through the framework's streams,
 * against the everything fixture mounted at `url`: a tools/list_changed on the
 * standalone GET stream, and progress on a POST answered with an SSE stream.
 */
export async function notificationsOverStreams(url: string): Promise<void> {
  const client = new ClientV1({ name: "v1", version: "1.32.2" });
  try {
    const listChanged = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    const watched = watchStreams();
    await client.connect(new HttpV1(new URL(url), { fetch: watched.fetch }));
    // The GET stream is opened after initialize; a notification goes to it once it is there.
    expect(await within(5_000, watched.opened, "GET stream")).toBe("200 text/event-stream");
    await client.callTool({ name: "add_tool", arguments: {} });
    await within(5_000, listChanged, "tools/list_changed on the GET stream");
    const progress: number[] = [];
    const done = await client.callTool({ name: "slow", arguments: { steps: 3 } }, undefined, {
      onprogress: ({ progress: step }) => progress.push(step),
    });
    expect([text(done), progress]).toEqual(["done after 3 steps", [1, 2, 3]]);
  } finally {
    await client.close();
  }
}

function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} in ${ms} ms`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * A 2025 session's standalone GET stream, opened with plain fetch and read
 * until it ends; `ended` says how, once it has.
 */
export async function openSessionStream(url: string) {
  const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "stream", version: "1" } },
  };
  const opened = await fetch(url, { method: "POST", headers, body: JSON.stringify(initialize) });
  await opened.text();
  const session = { "Mcp-Session-Id": opened.headers.get("mcp-session-id")!, "MCP-Protocol-Version": "2025-11-25" };
  const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
  await (await fetch(url, { method: "POST", headers: { ...headers, ...session }, body: initialized })).text();
  const stream = await fetch(url, { headers: { Accept: "text/event-stream", ...session } });
  expect([stream.status, stream.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
  const reader = stream.body!.getReader();
  const openedAt = Date.now();
  let ended: string | undefined;
  void (async () => {
    try {
      while (!(await reader.read()).done);
      ended = `ended after ${Date.now() - openedAt} ms`;
    } catch (error) {
      ended = `cut after ${Date.now() - openedAt} ms: ${(error as Error).message}`;
    }
  })();
  return { openedAt, ended: () => ended, cancel: () => reader.cancel().catch(() => {}) };
}

export type SessionStream = Awaited<ReturnType<typeof openSessionStream>>;

/**
 * What every example gets: started as a user runs it, a 2025 session's GET stream opened and left
 * open, the official SDK v2 client (pinned to 2026-07-28) and v1 client (a 2025 session) call
 * get_forecast, it printed its URL and nothing else, and SIGTERM stops it with exit 0 while that
 * stream is open. `more` declares tests of its own on the running example.
 */
export function describeExample(
  title: string,
  run: { command: string; args: string[]; label: string },
  more?: (running: () => { started: Started; stream: SessionStream }) => void,
): void {
  describe(title, () => {
    let started: Started | undefined;
    let stream: SessionStream | undefined;
    beforeAll(async () => {
      started = await start(run.command, run.args, run.label);
      // Left open until the process is stopped: stopping must end it, not wait for it.
      stream = await openSessionStream(started.url);
    });
    afterAll(async () => {
      if (started) expect(await stop(started.child)).toBe(0);
      await stream?.cancel();
    });

    test("the SDK v2 client pinned to 2026-07-28 calls get_forecast", () => forecastWithV2(started!.url));
    test("the SDK v1 client calls get_forecast in a 2025 session with its GET stream", () =>
      forecastWithV1(started!.url));
    test("it printed its URL and nothing else: no warning, no error", () =>
      expect(started!.output()).toBe(`${run.label}: ${started!.url}\n`));
    more?.(() => ({ started: started!, stream: stream! }));
  });
}
