// 200 concurrent Streamable HTTP sessions doing 50 requests each against a
// child process on loopback: every response accounted for; and 2000 sessions
// held at once, then deleted, leave the server's heap near where it started.
// The fixture is compiled by `npm test` (tsconfig.scripts.json) into dist/.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { Agent } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ACCEPT_BOTH, initializeMessage, raw, startFixture } from "./http-support.js";

const fixture = fileURLToPath(new URL("../../dist/test/fixtures/servers/http.js", import.meta.url));
const SESSIONS = 200;
const REQUESTS = 50;
// The memory check holds more sessions, each doing fewer requests: what the
// sessions hold must stand well clear of what a round of traffic leaves behind
// for good (optimized code and its feedback, ~0.1-0.5 MB whatever the round's
// size, more on a busy machine, where compilation finishes later).
const HELD = 2000;
const HELD_REQUESTS = 5;
let child: ChildProcessWithoutNullStreams;
let url: string;
let agent = new Agent({ keepAlive: true, maxSockets: 64 });

beforeAll(async () => {
  ({ child, url } = await startFixture(fixture, ["--expose-gc"]));
});

afterAll(() => {
  agent.destroy();
  child?.kill("SIGKILL");
});

async function post(message: unknown, sessionId?: string) {
  return rawPost(JSON.stringify(message), sessionId);
}

function rawPost(body: string, sessionId?: string) {
  return raw("POST", url, {
    headers: {
      "Content-Type": "application/json",
      Accept: ACCEPT_BOTH,
      ...(sessionId ? { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" } : {}),
    },
    body,
    agent,
  });
}

async function open(): Promise<string> {
  const response = await post(initializeMessage());
  expect(response.status).toBe(200);
  const id = response.headers["mcp-session-id"] as string;
  expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, id)).status).toBe(202);
  return id;
}

async function memory(): Promise<{ heapUsed: number; sessions: number }> {
  const id = await open();
  const response = await post({ jsonrpc: "2.0", id: "m", method: "tools/call", params: { name: "memory" } }, id);
  await raw("DELETE", url, { headers: { "Mcp-Session-Id": id }, agent });
  return JSON.parse(response.body).result.structuredContent;
}

/** Opens `count` sessions and runs `requests` echo calls in each, all sessions at once; returns their ids. */
async function load(count: number, requests: number): Promise<string[]> {
  const sessions = await Promise.all(Array.from({ length: count }, open));
  expect(new Set(sessions).size).toBe(count);
  const answered = await Promise.all(
    sessions.map(async (sessionId, s) => {
      const texts: string[] = [];
      for (let r = 0; r < requests; r++) {
        const text = `session ${s} request ${r}`;
        const response = await post(
          { jsonrpc: "2.0", id: r + 1, method: "tools/call", params: { name: "echo", arguments: { text } } },
          sessionId,
        );
        expect(response.status).toBe(200);
        const message = JSON.parse(response.body);
        expect(message.id).toBe(r + 1); // 0 was initialize's: ids are never reused in a session
        texts.push(message.result.content[0].text);
      }
      return texts;
    }),
  );
  expect(answered.flat()).toEqual(
    Array.from({ length: count }, (_, s) =>
      Array.from({ length: requests }, (_, r) => `session ${s} request ${r}`),
    ).flat(),
  );
  return sessions;
}

async function deleteAll(sessions: string[]): Promise<void> {
  for (const sessionId of sessions)
    expect((await raw("DELETE", url, { headers: { "Mcp-Session-Id": sessionId }, agent })).status).toBe(204);
  // Close the keep-alive connections too: the server's memory for open sockets is not the sessions'.
  agent.destroy();
  agent = new Agent({ keepAlive: true, maxSockets: 64 });
  await new Promise((resolve) => setTimeout(resolve, 200));
}

test(`${SESSIONS} concurrent sessions x ${REQUESTS} requests: every response accounted for`, async () => {
  await deleteAll(await load(SESSIONS, REQUESTS));
  const after = await memory();
  expect(after.sessions).toBe(1); // the measuring session itself
}, 120_000);

test(`${HELD} sessions held at once: memory back after DELETE`, async () => {
  // Warm up with the same load, so that the baseline includes what serving
  // loads, compiles and caches once (ajv, the schemas, optimized code).
  await deleteAll(await load(HELD, HELD_REQUESTS));
  const before = await memory();
  expect(before.sessions).toBe(1);

  const sessions = await load(HELD, HELD_REQUESTS);
  const during = await memory();
  expect(during.sessions).toBe(HELD + 1);

  await deleteAll(sessions);
  const after = await memory();

  expect(after.sessions).toBe(1);
  // Live sessions hold memory; what remains after DELETE must be noise, not 2000 sessions' worth.
  const live = during.heapUsed - before.heapUsed;
  const growth = after.heapUsed - before.heapUsed;
  expect(live).toBeGreaterThan(HELD * 1024); // the sessions were really held (~1.9 KB each)
  expect(growth, `heap ${before.heapUsed} → ${during.heapUsed} (live) → ${after.heapUsed}`).toBeLessThan(live / 3);
}, 120_000);
