// A raw JSON-RPC client for one in-process session that may speak both eras:
// per-request revisions (2026-07-28, draft: each request's `_meta` names its
// revision and capabilities) and handshake revisions (initialize). Every
// message the server sends is checked with the generated validator of the
// revision in use: a response with the revision and method of the request it
// answers, a notification tied to a request (subscriptionId, progressToken)
// with that request's revision, anything else with the client's current
// revision (`revision`). Problems are collected in `problems`.
import { loadExtensionTables, loadMessageTables, revisions } from "../../generated/index.js";
import { checkMessage, withExtensions, type MessageTables } from "../../runtime/index.js";
import type { McpServer, Session } from "../../runtime/server/index.js";
import { MessageWaiters } from "./support.js";

export type Message = Record<string, any>;
export type RequestId = string | number;
export type RevisionName = keyof typeof loadMessageTables;

export const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

export const CLIENT = { name: "per-request-client", version: "1.0.0" };

/** What a per-request client puts in a request's `_meta`. */
export interface MetaOptions {
  /** Default "2026-07-28". */
  version?: string;
  /** Default {}. */
  capabilities?: Record<string, unknown>;
  /** Default CLIENT; null leaves it out. */
  clientInfo?: Record<string, unknown> | null;
  logLevel?: string;
  progressToken?: string | number;
}

/** A per-request `_meta` object. */
export function requestMeta(options: MetaOptions = {}): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [PROTOCOL_VERSION]: options.version ?? "2026-07-28",
    [CLIENT_CAPABILITIES]: options.capabilities ?? {},
  };
  if (options.clientInfo !== null) meta[CLIENT_INFO] = options.clientInfo ?? CLIENT;
  if (options.logLevel !== undefined) meta[LOG_LEVEL] = options.logLevel;
  if (options.progressToken !== undefined) meta["progressToken"] = options.progressToken;
  return meta;
}

/** `params` with a per-request `_meta` merged in. */
export function withMeta(params: Record<string, unknown> = {}, options: MetaOptions = {}): Record<string, unknown> {
  const given = typeof params["_meta"] === "object" && params["_meta"] !== null ? params["_meta"] : {};
  return { ...params, _meta: { ...requestMeta(options), ...(given as Record<string, unknown>) } };
}

const ALL_REVISIONS = Object.keys(loadMessageTables) as RevisionName[];

let allTables: Promise<Map<string, MessageTables>> | undefined;

/** Every generated revision's tables, loaded once. */
export function tablesByRevision(): Promise<Map<string, MessageTables>> {
  allTables ??= Promise.all(ALL_REVISIONS.map(async (r) => [r, await loadMessageTables[r]()] as const)).then(
    (entries) => new Map(entries),
  );
  return allTables;
}

/** How the client answers a server-to-client request: a result, or `{ error }` to send back. */
export type Answerer = (request: Message) => unknown;

interface Sent {
  readonly method: string;
  readonly revision: string;
}

export class WireClient {
  /** Every message the server sent, parsed, in order (batches flattened). */
  readonly received: Message[] = [];
  /** Server messages the validator of their revision rejected, and anything else wrong on the wire. */
  readonly problems: string[] = [];
  /** The session under test. */
  session!: Session;
  /** The revision of messages not tied to a request: server requests, unrelated notifications. */
  revision: string;
  /** Answers server-to-client requests; by default an error. */
  answer: Answerer = (request) => ({ error: { code: -32601, message: `no handler for ${request["method"]}` } });

  private readonly sent = new Map<RequestId, Sent>();
  private readonly tokens = new Map<RequestId, string>();
  private readonly waiting = new Map<RequestId, (message: Message) => void>();
  private readonly waiters = new MessageWaiters();
  private nextId = 1;

  private constructor(
    private readonly tables: Map<string, MessageTables>,
    revision: string,
  ) {
    this.revision = revision;
  }

  /** A client on a new in-process session of `server`; `revision` is the one messages default to. */
  static async connect(
    server: McpServer,
    revision = "2026-07-28",
    options: { extensions?: readonly string[] } = {},
  ): Promise<WireClient> {
    let tables = await tablesByRevision();
    if (options.extensions?.length) {
      // Extensions' messages are checked with their tables merged into the revisions that negotiate them.
      const extensions = await Promise.all(options.extensions.map((name) => loadExtensionTables[name]!()));
      tables = new Map(
        [...tables].map(([name, t]) => [
          name,
          revisions.find((r) => r.name === name)?.extensions ? withExtensions(t, extensions) : t,
        ]),
      );
    }
    const client = new WireClient(tables, revision);
    client.session = server.connect((json) => client.onLine(json));
    return client;
  }

  private onLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.problems.push(`not JSON: ${line.slice(0, 200)}`);
      return;
    }
    for (const message of (Array.isArray(value) ? value : [value]) as Message[]) {
      this.received.push(message);
      this.check(message);
      this.waiters.notify(message);
      if (message["method"] !== undefined && message["id"] !== undefined) this.answerRequest(message);
      else if (message["method"] === undefined && message["id"] !== undefined) {
        const resolve = this.waiting.get(message["id"]);
        if (resolve) {
          this.waiting.delete(message["id"]);
          resolve(message);
        }
      }
    }
  }

  /** The revision a server message belongs to. */
  revisionOf(message: Message): string {
    if (message["method"] === undefined && message["id"] !== undefined)
      return this.sent.get(message["id"])?.revision ?? this.revision;
    if (message["method"] !== undefined && message["id"] === undefined) {
      const params = message["params"] ?? {};
      const subscription = params["_meta"]?.[SUBSCRIPTION_ID];
      if (subscription !== undefined && this.sent.has(subscription)) return this.sent.get(subscription)!.revision;
      const token = params["progressToken"];
      if (token !== undefined && this.tokens.has(token)) return this.tokens.get(token)!;
    }
    return this.revision;
  }

  private check(message: Message): void {
    const revision = this.revisionOf(message);
    const tables = this.tables.get(revision);
    if (!tables) {
      this.problems.push(`no tables for revision ${revision}`);
      return;
    }
    const method = message["method"] === undefined ? this.sent.get(message["id"])?.method : undefined;
    const verdict = checkMessage(message, tables, method);
    if (!verdict.result.valid)
      this.problems.push(
        `${revision}: ${JSON.stringify(message).slice(0, 400)}: ${JSON.stringify(verdict.result.errors)}`,
      );
  }

  private answerRequest(message: Message): void {
    void Promise.resolve()
      .then(() => this.answer(message))
      .then((answer) => {
        const reply =
          answer && typeof answer === "object" && "error" in answer
            ? { jsonrpc: "2.0", id: message["id"], error: (answer as { error: unknown }).error }
            : { jsonrpc: "2.0", id: message["id"], result: answer };
        this.write(reply);
      });
  }

  write(message: unknown): void {
    this.session.receive(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Remembers what a request the test writes itself is, for validating its response. */
  expect(id: RequestId, method: string, revision = this.revision): void {
    this.sent.set(id, { method, revision });
  }

  /** A fresh request id. */
  id(prefix = "r"): string {
    return `${prefix}-${this.nextId++}`;
  }

  /**
   * Sends a request as given (params untouched) and resolves with its
   * response; `revision` is what the response is validated with.
   */
  request(method: string, params?: unknown, options: { id?: RequestId; revision?: string } = {}): Promise<Message> {
    const id = options.id ?? this.id();
    this.expect(id, method, options.revision ?? this.revision);
    const token = (params as Message | undefined)?.["_meta"]?.["progressToken"];
    if (token !== undefined) this.tokens.set(token, options.revision ?? this.revision);
    const response = this.response(id);
    this.write(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return response;
  }

  /** A per-request request: `params` with `_meta` built from `meta` (its version is the validating revision unless `revision` says). */
  call(
    method: string,
    params: Record<string, unknown> = {},
    meta: MetaOptions = {},
    options: { id?: RequestId; revision?: string } = {},
  ): Promise<Message> {
    return this.request(method, withMeta(params, meta), {
      ...options,
      revision: options.revision ?? meta.version ?? "2026-07-28",
    });
  }

  /** Resolves with the response to `id`; rejects after `timeoutMs`. */
  response(id: RequestId, timeoutMs = 5_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no response to request ${JSON.stringify(id)} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  notify(method: string, params?: unknown): void {
    this.write(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Notifications received so far, optionally of one method. */
  notifications(method?: string): Message[] {
    return this.received.filter(
      (m) => m["id"] === undefined && m["method"] !== undefined && (method === undefined || m["method"] === method),
    );
  }

  /** Messages received so far that carry `id` (responses and nothing else: server requests use their own ids). */
  responsesTo(id: RequestId): Message[] {
    return this.received.filter((m) => m["method"] === undefined && m["id"] === id);
  }

  /** Resolves with the next server message that satisfies `test`. */
  next(test: (message: Message) => boolean, timeoutMs = 5_000): Promise<Message> {
    return this.waiters.next(test, timeoutMs);
  }

  /** initialize at a handshake revision, then notifications/initialized; later messages default to it. */
  async initialize(revision: string, capabilities: Record<string, unknown> = {}): Promise<Message> {
    const response = await this.request(
      "initialize",
      { protocolVersion: revision, capabilities, clientInfo: CLIENT },
      { revision },
    );
    if (response["result"]) this.revision = response["result"]["protocolVersion"];
    this.notify("notifications/initialized");
    return response;
  }

  close(): void {
    this.session.close();
  }
}

/** Waits `ms` milliseconds (for what must not arrive, or for time to pass). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Lets pending microtasks and immediates run (deliveries are queued, InputRequiredResult is sent on setImmediate). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** requestState's readable payload (it is signed, not encrypted: `v1.<base64url JSON>.<mac>`). */
export function statePayload(requestState: string): Record<string, any> {
  const body = requestState.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, any>;
}

/** requestState with one character of its payload part changed. */
export function tampered(requestState: string): string {
  const [version, body = "", mac] = requestState.split(".");
  const at = Math.floor(body.length / 2);
  const flipped = body[at] === "A" ? "B" : "A";
  return `${version}.${body.slice(0, at)}${flipped}${body.slice(at + 1)}.${mac}`;
}
