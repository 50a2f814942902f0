// What a per-request tools/call leaves to the young generation's collections.
// Every request's objects should die young: only the requests in flight when a
// scavenge runs are copied. An arrow made per request in Session.invoke, held
// by the round its own context held (onMissing, since gone), once kept whole requests alive
// through scavenges on Node 20: V8 grew new space to its maximum over a warm-up,
// and the server's RSS with it. The fixture runs without the optimizing
// compiler (--no-opt): unoptimized code is what a server runs while it warms
// up, and where that retention showed on every call (~7.9 KB survived a call,
// against ~60 B without it).
// A legacy session's calls are held to the same bound.
// The fixture is compiled by `npm test` (tsconfig.scripts.json) into dist/.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { Agent } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ACCEPT_BOTH, initializeMessage, post, raw, startFixture } from "./http-support.js";
import { requestMeta } from "./per-request-support.js";

const fixture = fileURLToPath(new URL("../../dist/test/fixtures/servers/young-survival.js", import.meta.url));
/** Calls between two survival reports; more batches until the scavenges make an average. */
const CALLS = 1500;
/** Scavenges enough for an average, and the most calls made to reach them. */
const SCAVENGES = 6;
const MAX_CALLS = 6 * CALLS;
/** Bytes a call may leave surviving scavenges, on average (a request in flight at a scavenge is copied). */
const BOUND = 1024;

let child: ChildProcessWithoutNullStreams;
let url: string;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let nextId = 1;

beforeAll(async () => {
  ({ child, url } = await startFixture(fixture, ["--no-opt"]));
});

afterAll(() => {
  agent.destroy();
  child?.kill("SIGKILL");
});

/** A legacy (2025-11-25) session's id once opened; per-request calls until then. */
let sessionId: string | undefined;

async function call(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const id = nextId++;
  const perRequest = sessionId === undefined;
  const response = await raw("POST", url, {
    headers: {
      "Content-Type": "application/json",
      Accept: ACCEPT_BOTH,
      ...(perRequest
        ? { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name }
        : { "MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": sessionId! }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: perRequest ? { name, arguments: args, _meta: requestMeta() } : { name, arguments: args },
    }),
    agent,
  });
  expect(response.status).toBe(200);
  const message = JSON.parse(response.body);
  expect(message.id).toBe(id);
  return message.result;
}

/**
 * Survived bytes per call of `tool`, over batches of CALLS calls until SCAVENGES scavenges ran
 * (Node 24's V8 keeps a larger young generation than Node 20's: fewer scavenges a call), and the
 * scavenges they took.
 */
async function survivalOf(tool: string): Promise<{ perCall: number; scavenges: number }> {
  await call("survival");
  let calls = 0;
  let survived = 0;
  let scavenges = 0;
  while (scavenges < SCAVENGES && calls < MAX_CALLS) {
    for (let i = 0; i < CALLS; i++) {
      const text = `${tool} ${calls++}`;
      expect((await call(tool, { text })).content).toEqual([{ type: "text", text }]);
    }
    const report = (await call("survival")).structuredContent;
    survived += report.survived;
    scavenges += report.scavenges;
  }
  return { perCall: survived / calls, scavenges };
}

/** After a warm-up, both tools' calls leave less than BOUND bytes a call to scavenges. */
async function expectCallsDieYoung(): Promise<void> {
  // Loading the revision and first compilations survive by nature: not counted.
  for (let i = 0; i < 100; i++) await call("echo", { text: "warm" });
  for (const tool of ["echo", "later"]) {
    const { perCall, scavenges } = await survivalOf(tool);
    // Enough scavenges for an average; fewer would mean the calls allocated far less than they do.
    expect(scavenges, tool).toBeGreaterThanOrEqual(SCAVENGES);
    expect(perCall, `${tool}: bytes surviving scavenges per call`).toBeLessThan(BOUND);
  }
}

test("per-request tools/call: a call's objects die young, whether its handler answers at once or later", async () => {
  await expectCallsDieYoung();
}, 120_000);

test("legacy session tools/call: the same, the session's window of finished ids included", async () => {
  const opened = await post(url, initializeMessage());
  expect(opened.status).toBe(200);
  sessionId = opened.headers["mcp-session-id"] as string;
  const headers = { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" };
  expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
  await expectCallsDieYoung();
}, 120_000);
