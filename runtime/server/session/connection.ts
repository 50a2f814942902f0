// One client connection: the JSON-RPC protocol core behind a Session (what
// transports and server authors hold, session.ts). Every decision about a
// message comes from the generated tables of the revision it is handled at
// (which methods exist, who sends them, what they need declared, what they
// must look like); handlers see the handler revision's shapes, converted by the
// generated shims.
//
// A connection serves both eras (2026-07-28 basic/versioning): initialize
// opens a handshake session (its lifecycle: handshake.ts), whose negotiated
// revision then serves every request; without it, each request is served on
// its own at the revision its `_meta` names (request/era.ts). A request's scope
// (context.ts) carries which. Its path through the stages is request/index.ts;
// while a revision loads, messages wait (revisions.ts).
import { nodeCrypto } from "../../node-crypto.js";
import { run } from "../../validation.js";
import { classifyMessage, type Classification, type RequestId } from "../../messages.js";
import { parseJson } from "../../json.js";
import {
  INTERNAL_ERROR,
  INVALID_REQUEST,
  PARSE_ERROR,
  type ClientCapabilities,
  type Implementation,
  type LoggingLevel,
} from "../../protocol/handler-revision.js";
import { isLoggingLevel } from "../logging.js";
import { loadedHandlerRevision, type LoadedRevision } from "../../protocol/revisions.js";
import { Inflight, RequestContext, type Channel, type RequestOptions, type Scope } from "../context.js";
import { headerValue } from "../../protocol/headers.js";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, metaOf } from "../../protocol/meta.js";
import { assumeInitialized as assumeHandshake, receiveInitialize } from "./handshake.js";
import { Lifecycle, sessionScope } from "./lifecycle.js";
import { log, notify, progress, receiveAnswer, request, serverRequests } from "../outgoing/send.js";
import type { PendingRequests } from "../../protocol/pending-requests.js";
import { RequestRefusedError } from "../errors.js";
import type { MethodHandler, ServerSession, SessionHost } from "../context.js";
import type { IncomingRequest } from "../types.js";
import { InflightRequests } from "./requests-in-flight.js";
import { RevisionLoads, type LoadingSession } from "./revisions.js";
import {
  admit,
  askClient,
  eraOf,
  errorJson,
  fail,
  receiveBatch,
  refusal,
  statesPerRequest,
  succeed,
} from "../request/index.js";

/** The protocol core of one client connection (Session is its public face). */
export class Connection implements ServerSession, LoadingSession {
  /** Where the connection is in the handshake, and what it negotiated (session/handshake.ts). */
  readonly lifecycle = new Lifecycle();
  /** While a revision loads, incoming messages wait there, in order (session/revisions.ts). */
  readonly loads: RevisionLoads = new RevisionLoads(this);
  private readonly requests = new InflightRequests();
  /** Made on the first server-to-client request (most sessions send none; a stateless one lives for one POST). */
  private outgoingRequests: PendingRequests | undefined;
  private idleWaiters: (() => void)[] = [];
  private subscribed: Set<string> | undefined;
  /** The length of the message being received (its share, in a batch), for the request it holds; 0 after. */
  private receivedLength = 0;

  /** URIs this client subscribed to (resources/subscribe); made on first use (a stateless session lives for one POST). */
  get subscriptions(): Set<string> {
    return (this.subscribed ??= new Set());
  }

  /** Whether the client subscribed to `uri`, without making the set. */
  isSubscribed(uri: string): boolean {
    return this.subscribed?.has(uri) === true;
  }

  private madeDefaultChannel: Channel | undefined;

  constructor(
    readonly host: SessionHost,
    private readonly send: (json: string) => void,
  ) {}

  /**
   * Where replies go when the transport names no channel, and the
   * messages no incoming message caused (list_changed, resource updates,
   * server-wide logs). Made on first use: an HTTP transport names a channel for
   * every message.
   */
  get defaultChannel(): Channel {
    if (!this.madeDefaultChannel) {
      const send = this.send;
      this.madeDefaultChannel = {
        reply: (json) => {
          if (json !== null) send(json);
        },
        send,
      };
    }
    return this.madeDefaultChannel;
  }

  /** The server's requests to the client waiting for answers (made on first use). */
  get serverRequests(): PendingRequests {
    return (this.outgoingRequests ??= serverRequests(this.host.sessionLimits.pendingClientRequests));
  }

  /** The revision negotiated by initialize, or undefined before (and on a connection without a handshake). */
  get revision(): string | undefined {
    const { scope, negotiated } = this.lifecycle;
    return (scope?.wire ?? negotiated)?.info.name;
  }

  get isInitialized(): boolean {
    return this.lifecycle.phase === "initialized";
  }

  get isClosed(): boolean {
    return this.lifecycle.phase === "closed";
  }

  /**
   * A request of the client's is being handled, or the server waits for the
   * client's answer to one of its own: ending the session now would lose work
   * (an HTTP transport never evicts such a session).
   */
  get busy(): boolean {
    return this.requests.size > 0 || (this.outgoingRequests?.size ?? 0) > 0 || this.loads.holding;
  }

  /** The client's name and version from initialize. */
  get clientInfo(): Implementation | undefined {
    const { scope, negotiated } = this.lifecycle;
    return scope?.clientInfo ?? (negotiated?.clientInfo as Implementation | undefined);
  }

  /** The client's capabilities from initialize (as sent, in its revision's shape). */
  get clientCapabilities(): ClientCapabilities | undefined {
    const { scope, negotiated } = this.lifecycle;
    return (scope ?? negotiated)?.clientCapabilities as ClientCapabilities | undefined;
  }

  /** The level set by logging/setLevel; until then every level passes. */
  get logLevel(): LoggingLevel | undefined {
    return this.lifecycle.scope?.logThreshold ?? undefined;
  }

  set logLevel(level: LoggingLevel | undefined) {
    const { scope } = this.lifecycle;
    if (scope) scope.logThreshold = level;
  }

  // --- incoming ---------------------------------------------------------------

  /**
   * One framed message from the transport: a line on stdio, a body over HTTP.
   * Returns true when `channel.reply` will be called exactly once (the message
   * holds a request, or is invalid), false when nothing will answer it (only
   * notifications and responses), as HTTP needs to know (202 Accepted).
   */
  receive(text: string, channel: Channel = this.defaultChannel): boolean {
    if (this.lifecycle.phase === "closed") return false;
    const parsed = parseJson(text);
    if (!parsed.ok) {
      channel.reply(
        errorJson(
          undefined,
          PARSE_ERROR,
          `Parse error: ${parsed.message} at line ${parsed.line} column ${parsed.column}`,
        ),
        { code: PARSE_ERROR, malformed: true },
      );
      return true;
    }
    return this.receiveMessage(parsed.value, channel, text.length);
  }

  /**
   * A message the transport has parsed already; see receive(). `length`: the
   * length of its text, where the transport knows it (SessionLimits.inflightLength).
   */
  receiveMessage(value: unknown, channel: Channel = this.defaultChannel, length = 0): boolean {
    if (this.lifecycle.phase === "closed") return false;
    const classification = classifyMessage(value, this.lifecycle.envelope);
    const answered = expectsReply(classification);
    try {
      this.receivedLength = length;
      if (this.loads.holding) this.loads.hold(value, channel, classification, length);
      else if (classification.kind === "batch") this.receiveBatch(value as unknown[], classification.messages, channel);
      else this.dispatch(value, classification, (json, outcome) => channel.reply(json, outcome), channel);
    } catch (error) {
      // A defect of ours, not the peer's: it must not end the process (a stdio server would exit)
      // nor leave a request unanswered. The peer gets -32603 with the id when there is one.
      this.host.logger("error", `failed on a ${classification.kind} message`, String((error as Error)?.stack ?? error));
      if (answered) {
        const id = classification.kind === "request" ? classification.id : undefined;
        channel.reply(errorJson(id, INTERNAL_ERROR, "Internal error"), { code: INTERNAL_ERROR });
      }
    }
    this.receivedLength = 0; // a request handled later (after a load) is not charged for another message
    return answered;
  }

  /**
   * A message that is not UTF-8 (basic/transports: messages "MUST be UTF-8
   * encoded"), from its byte `offset` on: not decoded, so the reply has no id.
   */
  receiveNotUtf8(offset: number, channel: Channel = this.defaultChannel): void {
    if (this.lifecycle.phase === "closed") return;
    channel.reply(errorJson(undefined, PARSE_ERROR, `Parse error: not UTF-8 at byte offset ${offset}`), {
      code: PARSE_ERROR,
      malformed: true,
    });
  }

  /** A message the transport refused to frame because it is too large; the reply has no id (it was not read). */
  receiveOversized(bytes: number, limit: number, channel: Channel = this.defaultChannel): void {
    if (this.lifecycle.phase === "closed") return;
    channel.reply(
      errorJson(
        undefined,
        INVALID_REQUEST,
        `Invalid Request: message of ${bytes} bytes exceeds the limit of ${limit} bytes`,
      ),
      { code: INVALID_REQUEST, malformed: true },
    );
  }

  /** A batch (request/batch.ts); each request in it is charged its share of the batch's length. */
  private receiveBatch(items: unknown[], classifications: readonly Classification[], channel: Channel): void {
    this.receivedLength = Math.ceil(this.receivedLength / Math.max(1, items.length));
    receiveBatch(items, classifications, channel, (item, classification, reply) =>
      this.dispatch(item, classification, reply, channel),
    );
  }

  private dispatch(message: unknown, classification: Classification, reply: Inflight["reply"], channel: Channel): void {
    switch (classification.kind) {
      case "invalid":
        reply(errorJson(classification.id, INVALID_REQUEST, `Invalid Request: ${describe(classification)}`), {
          code: INVALID_REQUEST,
          malformed: true,
        });
        return;
      case "request":
        this.receiveRequest({
          message: message as Record<string, unknown>,
          method: classification.method,
          id: classification.id,
          reply,
          channel,
          length: this.receivedLength,
        });
        return;
      case "notification":
        this.receiveNotification(message as Record<string, unknown>, classification.method);
        return;
      case "result":
      case "error":
        receiveAnswer(this, message as Record<string, unknown>, classification);
        return;
      case "batch": // a batch inside a batch is classified invalid; nothing else nests
        reply(errorJson(undefined, INVALID_REQUEST, "Invalid Request: a batch must not contain a batch"), {
          code: INVALID_REQUEST,
          malformed: true,
        });
    }
  }

  private receiveRequest(request: IncomingRequest): void {
    const { message, method, id, reply, channel } = request;
    const refused = refusal(request, this.host.sessionLimits, this.lifecycle, this.requests);
    if (refused) {
      reply(errorJson(id, refused.code, refused.message), { code: refused.code, malformed: refused.malformed });
      return;
    }
    const headerVersion = channel.headers && headerValue(channel.headers, "mcp-protocol-version");
    // initialize opens a handshake session, unless it states a per-request version: there it is
    // a method the revision does not have (-32601; Streamable HTTP 404).
    if (
      method === "initialize" &&
      !channel.singleRequest &&
      !statesPerRequest(message, this.host.served, headerVersion)
    ) {
      receiveInitialize(this, request);
      return;
    }
    const { scope } = this.lifecycle;
    const era = eraOf(message, scope !== undefined, this.host.served, headerVersion);
    switch (era.kind) {
      case "refused":
        reply(errorJson(id, era.code, era.message, era.data), { code: era.code, malformed: era.malformed });
        return;
      case "per-request":
        this.loads.withRevision(era.info, request, (wire) => this.handle(request, this.requestScope(wire, message)));
        return;
      case "session":
        if (scope) {
          this.handle(request, scope);
          return;
        }
        this.beforeInitialize(request);
    }
  }

  /** A handshake client's request before initialize: only the overlay's pre-handshake methods pass. */
  private beforeInitialize(request: IncomingRequest): void {
    const { method, id, reply } = request;
    const newest = this.host.served.handshake.at(-1);
    if (!newest || !(newest.beforeInitialized?.client ?? []).includes(method)) {
      reply(
        errorJson(
          id,
          INVALID_REQUEST,
          `Invalid Request: ${method} before initialize; the session must be initialized first (basic/lifecycle#initialization), or the request must carry the per-request _meta of protocol version ${this.host.served.supportedVersions[0]}`,
        ),
        { code: INVALID_REQUEST },
      );
      return;
    }
    this.loads.withRevision(newest, request, (wire) =>
      this.handle(request, sessionScope(wire, {}, undefined, this.host.capabilitiesFor(wire))),
    );
  }

  /** The scope of a per-request request: what its `_meta` declares (checked by the revision's validator next). */
  private requestScope(wire: LoadedRevision, message: Record<string, unknown>): Scope {
    const meta = metaOf(message);
    const level = meta?.[META_LOG_LEVEL];
    return {
      wire,
      perRequest: true,
      clientCapabilities: meta?.[META_CLIENT_CAPABILITIES] ?? {},
      clientInfo: meta?.[META_CLIENT_INFO] as Implementation | undefined,
      // basic/index#meta: without logLevel "the server MUST NOT send any notifications/message".
      logThreshold: isLoggingLevel(level) ? level : null,
      serverCapabilities: this.host.capabilitiesFor(wire),
    };
  }

  /** A request at a known scope: the checks before its handler (request/admit.ts), then the handler. */
  private handle(request: IncomingRequest, scope: Scope): void {
    const admitted = admit(this.host, request, scope);
    if (!admitted) return;
    const { inflight, core, handler } = admitted;
    const { channel } = request;
    this.requests.add(inflight);
    if (core) this.invoke(inflight, (p, context) => core(p as Record<string, unknown>, inflight, this, context), true);
    else this.invoke(inflight, handler!, false);
    // Closing the exchange cancels what is still running (a request answered at once needs no watch).
    // A request that turned into a task outlives its response (tasks.md, basic/utilities/tasks).
    if (channel.singleRequest && !inflight.done)
      channel.onClose?.(() => {
        if (!inflight.task) inflight.cancel("the client closed the request's response");
      });
  }

  /** Runs a request's handler; its outcome ends the request (request/outcome.ts). */
  invoke(inflight: Inflight, handler: MethodHandler, core: boolean): void {
    let outcome: unknown;
    try {
      outcome = handler(inflight.params, new RequestContext(this, inflight));
    } catch (error) {
      fail(this, inflight, error);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (result) => succeed(this, inflight, result, handler, core),
        (error) => fail(this, inflight, error),
      );
    } else {
      succeed(this, inflight, outcome, handler, core);
    }
  }

  /**
   * Treats the session as initialized at `protocolVersion` without a
   * handshake (stateless Streamable HTTP: session/handshake.ts). Returns false for a
   * version the server does not serve with a handshake.
   */
  assumeInitialized(protocolVersion: string): boolean {
    return assumeHandshake(this, protocolVersion);
  }

  /** A request id the session must not see again (basic#requests). */
  rememberFinished(id: RequestId): void {
    this.requests.remember(id);
  }

  private receiveNotification(message: Record<string, unknown>, method: string): void {
    const { tables, info } = this.lifecycle.scope?.wire ?? loadedHandlerRevision;
    const entry = Object.hasOwn(tables.methods, method) ? tables.methods[method] : undefined;
    // Notifications are never answered (basic#notifications): what cannot be used is logged and dropped.
    if (!entry || entry.kind !== "notification" || entry.direction === "server-to-client") {
      this.host.logger("debug", `ignored notification ${method}: not a client notification in revision ${info.name}`);
      return;
    }
    const verdict = run(tables.checks[entry.type]!, message);
    if (!verdict.valid) {
      this.host.logger("warning", `ignored invalid ${method}`, verdict.errors);
      return;
    }
    if (method === "notifications/initialized") {
      if (this.lifecycle.phase === "ready") {
        this.lifecycle.phase = "initialized";
        this.host.initialized(this);
      }
      return;
    }
    const handler = Object.hasOwn(this.host.notificationHandlers, method)
      ? this.host.notificationHandlers[method]
      : undefined;
    if (!handler) return;
    try {
      handler(message["params"] ?? {}, this);
    } catch (error) {
      this.host.logger("error", `${method} handler failed`, String(error));
    }
  }

  private id: string | undefined;

  /** An unguessable id, the owner of its 2025-11-25 tasks. */
  get sessionId(): string {
    return (this.id ??= nodeCrypto().randomBytes(16).toString("base64url"));
  }

  /** The sessionId, if anything asked for it. */
  get sessionIdIfAny(): string | undefined {
    return this.id;
  }

  /** Whether the session was assumed for one stateless POST (no handshake): it ends with it. */
  get isStateless(): boolean {
    return this.lifecycle.stateless;
  }

  /** Ends a request; false when it was cancelled, in which case nothing is sent (basic/utilities/cancellation). */
  finish(inflight: Inflight): boolean {
    if (inflight.done) return false;
    inflight.done = true;
    this.requests.delete(inflight);
    if (this.idleWaiters.length > 0) queueMicrotask(() => this.settleIdle()); // after the reply is sent
    if (inflight.cancelled) {
      inflight.reply(null);
      return false;
    }
    return this.lifecycle.phase !== "closed";
  }

  // --- outgoing (outgoing/send.ts) --------------------------------------------------

  /**
   * Sends a notification (params in the handler revision's shape) at a scope:
   * the handshake session's unless a request's is given. Returns false, and
   * sends nothing, when the revision lacks the method, its capability was not
   * declared, or a handshake session is not yet initialized and the method may
   * not be sent before.
   */
  notify(method: string, params?: unknown, channel?: Channel, scope?: Scope): boolean {
    return notify(this, method, params, channel, scope);
  }

  /** A progress notification for a request that carries a progress token (outgoing/send.ts). */
  progress(inflight: Inflight, value: number, total: number | undefined, message: string | undefined): void {
    progress(this, inflight, value, total, message);
  }

  /** Input for a request from the client (request/outcome.ts). */
  askClient(inflight: Inflight, method: string, params: unknown, options: RequestOptions): Promise<unknown> {
    return askClient(this, inflight, method, params, options);
  }

  /** Sends a server-to-client request in the handshake session and resolves with the client's result (handler revision's shape). */
  request(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    return request(this, method, params, options);
  }

  /**
   * Sends notifications/message when `level` passes the threshold of the
   * scope: the level a handshake client set with logging/setLevel, or the one
   * a per-request request named in `_meta` (none named: nothing is sent).
   */
  log(level: LoggingLevel, data: unknown, logger?: string, channel?: Channel, scope?: Scope): boolean {
    return log(this, level, data, logger, channel, scope);
  }

  /** The handshake session's scope (undefined before initialize and without a handshake). */
  get handshakeScope(): Scope | undefined {
    return this.lifecycle.scope;
  }

  /** The server's requests to the client waiting for answers, if it ever sent one. */
  get serverRequestsIfAny(): PendingRequests | undefined {
    return this.outgoingRequests;
  }

  // --- cancellation, close ---------------------------------------------------

  /** notifications/cancelled from the client: aborts the handler's signal; no response will be sent. */
  cancelRequest(requestId: RequestId, reason: string | undefined): void {
    const inflight = this.requests.get(requestId);
    // basic/utilities/cancellation: unknown or finished requests are ignored; initialize cannot be cancelled.
    if (!inflight || inflight.method === "initialize") return;
    inflight.cancel(reason ?? "cancelled by the client");
  }

  /**
   * The client will send nothing more (stdin ended): server requests still
   * waiting fail now, since no answer can come; resolves once every request in
   * flight has been answered, so that a transport can close without losing replies.
   */
  inputEnded(): Promise<void> {
    this.rejectOutgoing("the client closed its side of the connection before answering");
    if (this.requests.size === 0 && !this.loads.holding) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private rejectOutgoing(why: string): void {
    this.outgoingRequests?.rejectAll(({ method }) => new RequestRefusedError(`${method}: ${why}`));
  }

  /** Tells whoever waits for the session to go idle (inputEnded), once it is. */
  settleIdle(): void {
    if (this.requests.size > 0 || this.loads.holding || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The transport closed: handlers are aborted, waiting server requests fail, nothing more is sent. */
  close(): void {
    if (this.lifecycle.phase === "closed") return;
    this.lifecycle.phase = "closed";
    this.loads.clear();
    this.requests.abandonAll();
    this.rejectOutgoing("the connection closed before the client answered");
    this.settleIdle();
    this.host.closed(this);
  }
}

/** Whether a message gets exactly one reply: it holds a request or is invalid. */
function expectsReply(classification: Classification): boolean {
  switch (classification.kind) {
    case "request":
    case "invalid":
      return true;
    case "batch":
      return classification.messages.some(expectsReply);
    default:
      return false;
  }
}

function describe(classification: Classification & { kind: "invalid" }): string {
  return classification.path ? `${classification.reason} (at ${classification.path})` : classification.reason;
}
