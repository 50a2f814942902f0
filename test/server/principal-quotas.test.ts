// Bounds per principal over HTTP with authorization: one token holder cannot
// take another's sessions, session slots, streams or task slots. Each test runs
// a real serveHttp server on loopback whose verifier maps a token to the
// principal it names, and speaks raw HTTP as an attacker would.
import { afterEach, describe, expect, test } from "vitest";
import { McpServer, type AuthInfo } from "../../runtime/server/index.js";
import { serveHttp, type HttpOptions, type HttpServerHandle } from "../../runtime/transports/http.js";
import { initializeMessage, openSse, post, raw, type SseReader } from "./http-support.js";

const ISSUER = "https://as.example";
const VERSION = { "MCP-Protocol-Version": "2025-11-25" };
const handles: HttpServerHandle[] = [];
const releases: (() => void)[] = [];
const readers: SseReader[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) reader.close();
  for (const release of releases.splice(0)) release();
  for (const handle of handles.splice(0)) await handle.close();
});

/** The token is the subject (`subject.client` names a client too): a verifier standing in for a real authorization server. */
const auth: HttpOptions["auth"] = {
  resource: "https://mcp.example/mcp",
  authorizationServers: [ISSUER],
  verifier: async (token): Promise<AuthInfo> => ({
    subject: token.split(".")[0]!,
    clientId: token.split(".")[1] ?? "app",
    issuer: ISSUER,
    scopes: [],
    claims: {},
  }),
};

/** A server whose `work` tool (a task when asked) runs until the test releases it, recording why it stopped. */
async function start(options: HttpOptions, tasks: { maxTasksPerRequestor?: number } = {}) {
  const server = new McpServer(
    { name: "quotas", version: "1" },
    { logger: () => {}, tasks: { pollIntervalMs: 20, ...tasks } },
  );
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  releases.push(release);
  const stopped: string[] = [];
  server.tool("work", { task: { support: "optional" } }, async (_args, context) => {
    await new Promise<void>((resolve, reject) => {
      void released.then(resolve);
      context.signal.addEventListener("abort", () => {
        stopped.push(String(context.signal.reason));
        reject(new Error("stopped"));
      });
    });
    return `done for ${context.authInfo?.subject}`;
  });
  const handle = await serveHttp(server, { ...options, auth });
  handles.push(handle);
  return { url: handle.url, sse: handle.url.replace(/\/mcp$/, "/sse"), stopped };
}

const bearer = (who: string) => ({ Authorization: `Bearer ${who}` });

/** An initialize as `who`: the response, and the session id it opened (if any). */
async function initialize(url: string, who: string) {
  const response = await post(url, initializeMessage(), bearer(who));
  const id = response.headers["mcp-session-id"];
  return { response, id: typeof id === "string" ? id : undefined };
}

/** A session of `who`, initialized. */
async function openSession(url: string, who: string): Promise<string> {
  const { response, id } = await initialize(url, who);
  if (id === undefined) throw new Error(`no session for ${who}: ${response.status} ${response.body}`);
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...bearer(who), "Mcp-Session-Id": id });
  return id;
}

let nextId = 1;

/** One request of `who` in session `id`: the HTTP status and the JSON-RPC response. */
async function rpc(url: string, who: string, id: string, method: string, params: unknown = {}) {
  const response = await post(
    url,
    { jsonrpc: "2.0", id: nextId++, method, params },
    { ...VERSION, ...bearer(who), "Mcp-Session-Id": id },
  );
  return { status: response.status, body: JSON.parse(response.body) as Record<string, any> };
}

/** A 2025-11-25 task of `who` in session `id`; its id. */
async function startTask(url: string, who: string, id: string): Promise<string> {
  const created = await rpc(url, who, id, "tools/call", { name: "work", arguments: {}, task: { ttl: 60_000 } });
  expect(created.body["result"]?.["task"]?.["status"], JSON.stringify(created.body)).toBe("working");
  return created.body["result"]["task"]["taskId"] as string;
}

/** The standalone GET stream of session `id`, kept open until the test ends. */
async function openStream(url: string, who: string, id: string) {
  const stream = await openSse("GET", url, { Accept: "text/event-stream", ...bearer(who), "Mcp-Session-Id": id });
  readers.push(stream.reader);
  return stream;
}

describe("eviction never takes busy work, nor another principal's last session", () => {
  test("maxSessions + 2 initializes with another token leave a victim's running task alone", async () => {
    const maxSessions = 20;
    const { url, stopped } = await start({ maxSessions });
    // The victim keeps no standalone GET stream: its session only has a task running.
    const victim = await openSession(url, "victim");
    const taskId = await startTask(url, "victim", victim);

    const statuses = new Set<number>();
    for (let i = 0; i < maxSessions + 2; i++) statuses.add((await initialize(url, "attacker")).response.status);
    expect([...statuses]).toEqual([200]); // the attacker's own idle sessions made room for its new ones

    const got = await rpc(url, "victim", victim, "tasks/get", { taskId });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body["result"]).toMatchObject({ taskId, status: "working" });
    expect(stopped).toEqual([]);
  });

  test("a session whose task still runs is not evicted, even to make room for its own principal", async () => {
    const { url, stopped } = await start({ maxSessions: 3, maxSessionsPerPrincipal: 3 });
    const working = await openSession(url, "alice");
    const taskId = await startTask(url, "alice", working);
    const idle = await openSession(url, "alice");
    await openSession(url, "alice");
    // Full, and the working session is the least recently active: the idle one goes instead.
    expect((await initialize(url, "alice")).response.status).toBe(200);
    expect((await rpc(url, "alice", idle, "ping")).status).toBe(404);
    const got = await rpc(url, "alice", working, "tasks/get", { taskId });
    expect(got.body["result"]).toMatchObject({ taskId, status: "working" });
    expect(stopped).toEqual([]);
  });

  test("a principal at its share recycles its own sessions; another's last idle session stays", async () => {
    // No per-principal cap in play: only the share rule protects the victim.
    const maxSessions = 10;
    const { url } = await start({ maxSessions, maxSessionsPerPrincipal: maxSessions });
    const victim = await openSession(url, "victim"); // idle, and the least recently active of all
    for (let i = 0; i < maxSessions + 2; i++) expect((await initialize(url, "attacker")).response.status).toBe(200);
    expect((await rpc(url, "victim", victim, "ping")).body).toMatchObject({ result: {} });
    // A newcomer below its share may still take an idle session of the principal above its share.
    expect((await initialize(url, "newcomer")).response.status).toBe(200);
    expect((await rpc(url, "victim", victim, "ping")).status).toBe(200);
  });
});

describe("sessions and streams per principal", () => {
  test("at the defaults, one principal cannot hold every slot: past its cap 429 names it, another still gets in", async () => {
    const maxSessions = 20; // maxSessionsPerPrincipal defaults to a tenth: 2
    const { url } = await start({ maxSessions });
    for (let i = 0; i < 2; i++) {
      const id = await openSession(url, "hog");
      expect((await openStream(url, "hog", id)).status).toBe(200); // busy: never evicted
    }
    const refused = (await initialize(url, "hog")).response;
    expect([refused.status, refused.headers["retry-after"]]).toEqual([429, "5"]);
    expect(JSON.parse(refused.body).error.message).toMatch(/holds 2 sessions, the limit \(maxSessionsPerPrincipal\)/);
    expect((await initialize(url, "other")).response.status).toBe(200);
  });

  test("one subject through many clients is one caller: the cap counts its sessions together", async () => {
    const maxSessions = 20; // maxSessionsPerPrincipal defaults to a tenth: 2
    const { url } = await start({ maxSessions });
    // Clients registered at will (dynamic client registration) do not multiply a user's bounds.
    for (const client of ["app1", "app2"]) {
      const id = await openSession(url, `hog.${client}`);
      expect((await openStream(url, `hog.${client}`, id)).status).toBe(200);
    }
    expect((await initialize(url, "hog.app3")).response.status).toBe(429);
    // Its sessions stay its client's own: another client of the same subject cannot use them.
    const mine = await openSession(url, "alice.app1");
    expect((await rpc(url, "alice.app2", mine, "ping")).status).toBe(404);
  });

  test("past its cap, a principal's own idlest session makes room, not another's", async () => {
    const { url } = await start({ maxSessions: 10, maxSessionsPerPrincipal: 2 });
    const first = await openSession(url, "alice");
    const bobs = await openSession(url, "bob"); // idler than Alice's second
    const second = await openSession(url, "alice");
    expect((await initialize(url, "alice")).response.status).toBe(200);
    expect((await rpc(url, "alice", first, "ping")).status).toBe(404);
    expect((await rpc(url, "alice", second, "ping")).status).toBe(200);
    expect((await rpc(url, "bob", bobs, "ping")).status).toBe(200);
  });

  test("2024-11-05 /sse sessions count against the principal's cap", async () => {
    const { sse } = await start({ maxSessions: 10, maxSessionsPerPrincipal: 2 });
    const open = async (who: string) => {
      const stream = await openSse("GET", sse, { Accept: "text/event-stream", ...bearer(who) });
      readers.push(stream.reader);
      return stream;
    };
    expect((await open("hog")).status).toBe(200);
    expect((await open("hog")).status).toBe(200);
    const refused = await open("hog");
    expect(refused.status).toBe(429);
    expect((await open("other")).status).toBe(200);
  });

  test("GET streams past maxStreamsPerPrincipal are 429; another principal's are not; a closed one gives room", async () => {
    const { url } = await start({ maxSessions: 10, maxSessionsPerPrincipal: 3, maxStreamsPerPrincipal: 2 });
    const ids = [await openSession(url, "alice"), await openSession(url, "alice"), await openSession(url, "alice")];
    const first = await openStream(url, "alice", ids[0]!);
    expect(first.status).toBe(200);
    expect((await openStream(url, "alice", ids[1]!)).status).toBe(200);
    const refused = await raw("GET", url, {
      headers: { Accept: "text/event-stream", ...bearer("alice"), "Mcp-Session-Id": ids[2]! },
    });
    expect([refused.status, refused.headers["retry-after"]]).toEqual([429, "5"]);
    expect(JSON.parse(refused.body).error.message).toMatch(/2 SSE streams open, the limit \(maxStreamsPerPrincipal\)/);
    const bob = await openSession(url, "bob");
    expect((await openStream(url, "bob", bob)).status).toBe(200);
    first.reader.close();
    await waitFor(async () => (await openStream(url, "alice", ids[2]!)).status === 200);
  });
});

describe("tasks per principal", () => {
  test("one principal's tasks across many sessions hit maxTasksPerRequestor; another principal still creates tasks", async () => {
    const { url } = await start({ maxSessions: 20, maxSessionsPerPrincipal: 20 }, { maxTasksPerRequestor: 3 });
    for (let i = 0; i < 3; i++) await startTask(url, "alice", await openSession(url, "alice"));
    const refused = await rpc(url, "alice", await openSession(url, "alice"), "tools/call", {
      name: "work",
      arguments: {},
      task: { ttl: 60_000 },
    });
    expect(refused.body["error"]).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/already has 3 unfinished tasks, the limit \(tasks.maxTasksPerRequestor\)/),
    });
    await startTask(url, "bob", await openSession(url, "bob"));
  });
});

async function waitFor(test: () => Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
