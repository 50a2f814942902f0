// A stdio server started from a V8 startup snapshot (`node --snapshot-blob
// server.blob`): the process begins with the server built, its tools registered
// and the code of a session's first requests compiled, where a server started
// from its script first loads and compiles the package's modules, which is most
// of its start. Node's startup snapshot API
// (v8.startupSnapshot) is experimental on Node 20 and 22, and a blob starts
// only on the Node binary that built it.
//
// The entry script builds the server and calls serveStdioFromSnapshot; `mcpgen
// snapshot` bundles that script into the one CommonJS file Node's snapshot
// builder runs, and builds the blob. While the builder runs, the server is
// warmed up: one session per warmed revision goes through the stdio transport
// over in-memory streams, so that revision's tables (and shims) are loaded and
// the code of the handshake and of a list request is compiled when the heap is
// captured; then every tool's schemas are compiled, but for those that need
// ajv, which a snapshot cannot hold (runtime/protocol/json-schema.ts): the run
// compiles them after its first handshake, as a server started from its script
// does. No handler of the server's runs in the warm-up: it sends initialize
// (handshake revisions) and tools/list only.
import { PassThrough, Writable } from "node:stream";
import { startupSnapshot } from "node:v8";
import type { RevisionInfo } from "../table-types.js";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from "../protocol/meta.js";
import { hostOf, type McpServer } from "../server/mcp-server.js";
import { serveStdio, type StdioOptions } from "./stdio.js";

export interface SnapshotOptions extends StdioOptions {
  /**
   * The revisions to warm up while the snapshot is built, by name, or "all".
   * Default: the newest released revision the server serves of each lifecycle
   * (the initialize handshake, and per-request). A revision not warmed up is
   * still served: its code is in the blob, loaded on its first session.
   */
  warm?: readonly string[] | "all";
  /** Longest wait for one warm-up session's answers, in ms. Default 10000. */
  warmUpTimeoutMs?: number;
}

/**
 * Serves `server` over stdio from a startup snapshot. Under Node's snapshot
 * builder (`node --build-snapshot`, which `mcpgen snapshot` runs) it warms the
 * server up and makes serving stdio the snapshot's main function; run as an
 * ordinary script, it serves stdio at once, as serveStdio.
 */
export function serveStdioFromSnapshot(server: McpServer, options: SnapshotOptions = {}): void {
  const { warm, warmUpTimeoutMs = 10_000, ...stdio } = options;
  if (!startupSnapshot.isBuildingSnapshot()) {
    serveStdio(server, stdio);
    return;
  }
  const revisions = warmedRevisions(server, warm);
  // The builder runs the event loop until it is empty before it captures the heap: the warm-up
  // ends first. A failed one is an unhandled rejection, which fails the build with its message.
  void (async () => {
    for (const info of revisions) await warmUp(server, info, warmUpTimeoutMs);
    await server.compileToolSchemas();
  })();
  startupSnapshot.setDeserializeMainFunction(() => {
    serveStdio(server, stdio);
  });
}

/** The revisions `warm` names, checked against the server's; by default the newest released one of each lifecycle. */
export function warmedRevisions(server: McpServer, warm: SnapshotOptions["warm"]): RevisionInfo[] {
  const served = hostOf(server).served.all;
  if (warm === "all") return [...served];
  if (warm) {
    const unknown = warm.filter((name) => !served.some((r) => r.name === name));
    if (unknown.length > 0)
      throw new TypeError(
        `warm: the server does not serve ${unknown.join(", ")} (it serves ${served.map((r) => r.name).join(", ")})`,
      );
    return served.filter((r) => warm.includes(r.name));
  }
  const newest = new Map<string, RevisionInfo>();
  for (const info of served) {
    const released = info.name === info.protocolVersion;
    const current = newest.get(info.lifecycle);
    if (!current || released || current.name !== current.protocolVersion) newest.set(info.lifecycle, info);
  }
  return [...newest.values()];
}

const WARM_UP_CLIENT = { name: "mcpgen-snapshot-warm-up", version: "0" };
const METHOD_NOT_FOUND = -32601;

/** One request of a warm-up session. */
interface Exchange {
  /** Written together: the request last, after the notifications that precede it. */
  lines: string[];
  /** The request's id. */
  id: number;
  /** tools/list, which a server with no tools may answer with "method not found". */
  listsTools: boolean;
}

/**
 * One warm-up session's requests of `info`'s lifecycle, each sent after the
 * answer to the one before (basic/lifecycle: initialized after the initialize
 * answer).
 */
function warmUpExchanges(info: RevisionInfo): Exchange[] {
  const jsonrpc = info.jsonrpcVersion;
  if (info.lifecycle === "initialize") {
    const initialize = {
      jsonrpc,
      id: 1,
      method: "initialize",
      params: { protocolVersion: info.protocolVersion, capabilities: {}, clientInfo: WARM_UP_CLIENT },
    };
    return [
      { lines: [JSON.stringify(initialize)], id: 1, listsTools: false },
      {
        lines: [
          JSON.stringify({ jsonrpc, method: "notifications/initialized" }),
          JSON.stringify({ jsonrpc, id: 2, method: "tools/list" }),
        ],
        id: 2,
        listsTools: true,
      },
    ];
  }
  // basic/index#meta: a per-request revision's request states the version, capabilities and client.
  const _meta = {
    [META_PROTOCOL_VERSION]: info.protocolVersion,
    [META_CLIENT_CAPABILITIES]: {},
    [META_CLIENT_INFO]: WARM_UP_CLIENT,
  };
  return [
    { lines: [JSON.stringify({ jsonrpc, id: 1, method: "tools/list", params: { _meta } })], id: 1, listsTools: true },
  ];
}

/**
 * One session of `info` through the stdio transport over in-memory streams.
 * Every answer must be a result, but tools/list's may be "method not found" (a
 * server with no tools), which warms the same path.
 */
async function warmUp(server: McpServer, info: RevisionInfo, timeoutMs: number): Promise<void> {
  const answers = new Map<unknown, Record<string, unknown>>();
  let waiting: { id: number; resolve: () => void } | undefined;
  let pending = "";
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      pending += chunk.toString();
      for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
        const answer = JSON.parse(pending.slice(0, end)) as Record<string, unknown>;
        pending = pending.slice(end + 1);
        answers.set(answer["id"], answer);
        if (waiting && answer["id"] === waiting.id) waiting.resolve();
      }
      callback();
    },
  });
  const input = new PassThrough();
  const connection = serveStdio(server, { input, output, exitProcess: false });
  let timer: NodeJS.Timeout | undefined;
  const failure = (why: string) =>
    new Error(
      `mcpgen snapshot: warming up revision ${info.name} failed: ${why}` +
        (answers.size > 0 ? ` (answers: ${[...answers.values()].map((a) => JSON.stringify(a)).join(" ")})` : ""),
    );
  try {
    for (const exchange of warmUpExchanges(info)) {
      const answered = new Promise<boolean>((resolve) => {
        waiting = { id: exchange.id, resolve: () => resolve(true) };
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      for (const line of exchange.lines) input.write(`${line}\n`);
      if (!(await answered)) throw failure(`no answer to request ${exchange.id} within ${timeoutMs} ms`);
      clearTimeout(timer);
      const error = answers.get(exchange.id)!["error"] as { code?: unknown } | undefined;
      if (error !== undefined && !(exchange.listsTools && error.code === METHOD_NOT_FOUND))
        throw failure(`the server answered request ${exchange.id} with an error`);
    }
  } finally {
    clearTimeout(timer);
    connection.close();
    input.end();
  }
}
