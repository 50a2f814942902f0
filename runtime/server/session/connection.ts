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
// (context.ts) carries which. How a message comes in and finds its scope is
// receive.ts; its path through the stages is request/index.ts; while a revision
// loads, messages wait (revisions.ts). What stays here is the session's state,
// its requests' ends, and what the server sends (outgoing/send.ts).
import { nodeCrypto } from "../../node-crypto.js";
import type { RequestId } from "../../messages.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../../protocol/handler-revision.js";
import { Inflight, RequestContext, type Channel, type RequestOptions, type Scope } from "../context.js";
import { assumeInitialized as assumeHandshake } from "./handshake.js";
import { Lifecycle } from "./lifecycle.js";
import { log, notify, progress, request, serverRequests } from "../outgoing/send.js";
import type { PendingRequests } from "../../protocol/pending-requests.js";
import { RequestRefusedError } from "../errors.js";
import type { MethodHandler, SessionHost } from "../context.js";
import { InflightRequests } from "./requests-in-flight.js";
import { RevisionLoads, type LoadingSession } from "./revisions.js";
import { Receiver, type ReceivingSession } from "./receive.js";
import { askClient, fail, succeed } from "../request/index.js";

/** The protocol core of one client connection (Session is its public face). */
export class Connection implements ReceivingSession, LoadingSession {
  /** Where the connection is in the handshake, and what it negotiated (session/handshake.ts). */
  readonly lifecycle = new Lifecycle();
  /** While a revision loads, incoming messages wait there, in order (session/revisions.ts). */
  readonly loads: RevisionLoads = new RevisionLoads(this);
  readonly requests = new InflightRequests();
  /** The way in: each message from the transport, to its handler (receive.ts). */
  readonly receiver = new Receiver(this);
  /** Made on the first server-to-client request (most sessions send none; a stateless one lives for one POST). */
  private outgoingRequests: PendingRequests | undefined;
  private idleWaiters: (() => void)[] = [];
  private subscribed: Set<string> | undefined;

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
   * A request of the client's is being handled, the server waits for the
   * client's answer to one of its own, or a task the session created still
   * runs (closing the session would cancel it: basic/utilities/tasks binds it
   * to the session): ending the session now would lose work (an HTTP transport
   * never evicts such a session). A session's tasks run in its own process.
   */
  get busy(): boolean {
    return (
      this.requests.size > 0 ||
      (this.outgoingRequests?.size ?? 0) > 0 ||
      this.loads.holding ||
      (this.id !== undefined && this.host.runsTasksOf(this.id))
    );
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

  /** A message that waited for a revision's load, received again in its turn (revisions.ts). */
  receiveMessage(value: unknown, channel: Channel, length: number): boolean {
    return this.receiver.receiveMessage(value, channel, length);
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
