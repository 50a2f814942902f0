// One client connection: the JSON-RPC protocol core. Every decision about a
// message comes from the negotiated revision's generated tables (which methods
// exist, who sends them, what they need declared, what they must look like);
// handlers see the handler revision's shapes, converted by the generated shims.
//
// Phases (basic/lifecycle): "new" until initialize is answered (only the
// overlay's pre-handshake methods pass), "ready" once it is, "initialized"
// once notifications/initialized arrives; the server sends nothing but the
// overlay's pre-handshake methods before that.
import { isObject, run, type ValidationResult } from "../validation.js";
import { classifyMessage, checkMessage, type Classification, type Envelope, type RequestId } from "../messages.js";
import { parseJson } from "../json.js";
import type { CapabilityRequirement } from "../index.js";
import { ShimError } from "../shims.js";
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  handlerRevision,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type Implementation,
  type InitializeRequestParams,
  type InitializeResult,
  type ListRootsResult,
  type LoggingLevel,
  type ProgressToken,
  type Root,
} from "./handler-revision.js";
import { ClientError, ProtocolError, RequestRefusedError, RequestTimeoutError } from "./errors.js";
import { isLoggingLevel, passes, type ServerLogger } from "./logging.js";
import { handlerWire, loadWire, negotiate, servedRevisions, type Wire } from "./revisions.js";

const JSONRPC = `"jsonrpc":"2.0"`;

/** A method the server answers, in the handler revision's shapes. */
export type MethodHandler = (params: any, context: RequestContext) => unknown;

/** What a session needs from the server it belongs to. */
export interface SessionHost {
  /** Request handlers by method (handler revision). */
  readonly handlers: { readonly [method: string]: MethodHandler };
  /** Notification handlers by method (handler revision); unknown notifications are ignored. */
  readonly notificationHandlers: { readonly [method: string]: (params: any, session: Session) => void };
  /** The initialize result in the handler revision's shapes, for a session at `revision`. */
  initializeResult(revision: string): InitializeResult;
  readonly logger: ServerLogger;
  readonly requestTimeoutMs: number;
  /** Called once the client has sent notifications/initialized. */
  initialized(session: Session): void;
  closed(session: Session): void;
}

/** Options of a server-to-client request. */
export interface RequestOptions {
  /** Aborting it cancels the request (a notifications/cancelled is sent). */
  readonly signal?: AbortSignal;
  /** Default: the server's requestTimeoutMs. */
  readonly timeoutMs?: number;
  /** Where to send it: the channel of the client request being handled (RequestContext does this). */
  readonly channel?: Channel;
}

/**
 * Where the messages caused by one incoming message go: a stdio line, an HTTP
 * POST. Transports that carry every message the same way use the session's
 * default channel.
 */
export interface Channel {
  /** The reply to the message: a response, a batch's array of responses, or null for a cancelled request (no reply). */
  reply(json: string | null): void;
  /** What the server sends while handling a request of this message: progress, log messages, requests to the client. */
  send(json: string): void;
  /**
   * Closes the connection carrying this message's stream without ending the
   * stream, so that the client resumes it later (basic/transports, SEP-1699).
   * Returns false when the transport cannot.
   */
  closeConnection?(retryMs?: number): boolean;
}

type Reply = (json: string | null) => void;

/** @internal An incoming request being handled. */
export class Inflight {
  private controller: AbortController | undefined;
  cancelled = false;
  lastProgress = -Infinity;

  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly progressToken: ProgressToken | undefined,
    readonly reply: Reply,
    readonly channel: Channel,
  ) {}

  /** Created on first use: most handlers never look at it. */
  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  cancel(reason: string): void {
    this.cancelled = true;
    (this.controller ??= new AbortController()).abort(reason);
  }
}

/** A server-to-client request waiting for its response. */
interface Pending {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

/** Ids of finished requests are remembered this far back, so that a reused id is refused (basic#requests). */
const REMEMBERED_IDS = 4096;

export class Session {
  private phase: "new" | "initializing" | "ready" | "initialized" | "closed" = "new";
  private wire: Wire = handlerWire;
  /** Before negotiation the envelope is the handler revision's without batches: initialize must not be batched. */
  private envelope: Envelope = { ...handlerWire.tables.envelope, batching: false };
  /** While a revision loads, incoming messages wait here, in order. */
  private backlog: { value: unknown; channel: Channel }[] | null = null;
  private readonly inflight = new Map<RequestId, Inflight>();
  private readonly finishedIds = new Set<RequestId>();
  private readonly finishedRing: (RequestId | undefined)[] = [];
  private finishedCount = 0;
  private readonly outgoing = new Map<RequestId, Pending>();
  private idleWaiters: (() => void)[] = [];
  private nextOutgoingId = 0;
  private clientParams: InitializeRequestParams | undefined;
  /** The capabilities as sent on the wire (negotiated revision), for the table's capability checks. */
  private clientCapabilitiesOnWire: unknown = {};
  private serverCapabilitiesOnWire: unknown = {};
  /** Set by logging/setLevel; until then every level passes. */
  logLevel: LoggingLevel | undefined;
  /** URIs this client subscribed to (resources/subscribe). */
  readonly subscriptions = new Set<string>();

  /**
   * Where replies go when the transport names no channel, and the messages no
   * incoming message caused (list_changed, resource updates, server-wide logs).
   */
  private readonly defaultChannel: Channel;

  constructor(
    private readonly host: SessionHost,
    send: (json: string) => void,
  ) {
    this.defaultChannel = {
      reply: (json) => {
        if (json !== null) send(json);
      },
      send,
    };
  }

  /** The negotiated revision, or undefined before initialize. */
  get revision(): string | undefined {
    return this.phase === "new" || this.phase === "initializing" ? undefined : this.wire.info.name;
  }

  get isInitialized(): boolean {
    return this.phase === "initialized";
  }

  get isClosed(): boolean {
    return this.phase === "closed";
  }

  /** The client's name and version (handler revision's shape), after initialize. */
  get clientInfo(): Implementation | undefined {
    return this.clientParams?.clientInfo;
  }

  /** The client's capabilities (handler revision's shape), after initialize. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.clientParams?.capabilities;
  }

  // --- incoming ---------------------------------------------------------------

  /**
   * One framed message from the transport: a line on stdio, a body over HTTP.
   * Returns true when `channel.reply` will be called exactly once (the message
   * holds a request, or is invalid), false when nothing will answer it (only
   * notifications and responses), as HTTP needs to know (202 Accepted).
   */
  receive(text: string, channel: Channel = this.defaultChannel): boolean {
    if (this.phase === "closed") return false;
    const parsed = parseJson(text);
    if (!parsed.ok) {
      channel.reply(
        errorJson(
          undefined,
          PARSE_ERROR,
          `Parse error: ${parsed.message} at line ${parsed.line} column ${parsed.column}`,
        ),
      );
      return true;
    }
    return this.receiveMessage(parsed.value, channel);
  }

  /** A message the transport has parsed already; see receive(). */
  receiveMessage(value: unknown, channel: Channel = this.defaultChannel): boolean {
    if (this.phase === "closed") return false;
    const classification = classifyMessage(value, this.envelope);
    const answered = expectsReply(classification);
    if (this.backlog) this.backlog.push({ value, channel });
    else if (classification.kind === "batch") this.receiveBatch(value as unknown[], classification.messages, channel);
    else this.dispatch(value, classification, (json) => channel.reply(json), channel);
    return answered;
  }

  /** A message the transport refused to frame because it is too large; the reply has no id (it was not read). */
  receiveOversized(bytes: number, limit: number, channel: Channel = this.defaultChannel): void {
    if (this.phase === "closed") return;
    channel.reply(
      errorJson(
        undefined,
        INVALID_REQUEST,
        `Invalid Request: message of ${bytes} bytes exceeds the limit of ${limit} bytes`,
      ),
    );
  }

  private receiveBatch(items: unknown[], classifications: readonly Classification[], channel: Channel): void {
    const replies: string[] = [];
    let outstanding = 1; // released by the loop's end, so that synchronous replies cannot flush early
    const done = () => {
      if (--outstanding > 0) return;
      if (replies.length > 0) channel.reply(`[${replies.join(",")}]`);
      else if (expected) channel.reply(null); // every request in it was cancelled
    };
    let expected = false;
    items.forEach((item, i) => {
      const classification = classifications[i]!;
      if (classification.kind === "request" || classification.kind === "invalid") {
        outstanding++;
        expected = true;
      }
      this.dispatch(
        item,
        classification,
        (json) => {
          if (json !== null) replies.push(json);
          done();
        },
        channel,
      );
    });
    done();
  }

  private dispatch(message: unknown, classification: Classification, reply: Reply, channel: Channel): void {
    switch (classification.kind) {
      case "invalid":
        reply(errorJson(classification.id, INVALID_REQUEST, `Invalid Request: ${describe(classification)}`));
        return;
      case "request":
        this.receiveRequest(
          message as Record<string, unknown>,
          classification.method,
          classification.id,
          reply,
          channel,
        );
        return;
      case "notification":
        this.receiveNotification(message as Record<string, unknown>, classification.method);
        return;
      case "result":
      case "error":
        this.receiveResponse(message as Record<string, unknown>, classification);
        return;
      case "batch": // a batch inside a batch is classified invalid; nothing else nests
        reply(errorJson(undefined, INVALID_REQUEST, "Invalid Request: a batch must not contain a batch"));
    }
  }

  private receiveRequest(
    message: Record<string, unknown>,
    method: string,
    id: RequestId,
    reply: Reply,
    channel: Channel,
  ): void {
    if (typeof id === "number" && !Number.isInteger(id)) {
      // basic#requests: "Requests MUST include a string or integer ID".
      reply(errorJson(undefined, INVALID_REQUEST, `Invalid Request: id must be a string or an integer, not ${id}`));
      return;
    }
    if (this.inflight.has(id) || this.finishedIds.has(id)) {
      reply(
        errorJson(id, INVALID_REQUEST, `Invalid Request: id ${JSON.stringify(id)} was already used in this session`),
      );
      return;
    }
    if (method === "initialize") {
      this.receiveInitialize(message, id, reply);
      return;
    }
    if (this.phase === "new" && !(this.wire.info.beforeInitialized?.client ?? []).includes(method)) {
      reply(
        errorJson(
          id,
          INVALID_REQUEST,
          `Invalid Request: ${method} before initialize; the session must be initialized first (basic/lifecycle#initialization)`,
        ),
      );
      return;
    }
    const { tables, info } = this.wire;
    const entry = Object.prototype.hasOwnProperty.call(tables.methods, method) ? tables.methods[method] : undefined;
    if (!entry || entry.kind !== "request" || entry.direction === "server-to-client" || entry.inputRequest) {
      const why = entry ? "is not a request a client sends" : "does not exist";
      reply(errorJson(id, METHOD_NOT_FOUND, `Method not found: ${method} ${why} in protocol revision ${info.name}`));
      return;
    }
    if (
      entry.capability &&
      entry.capability.holder !== "client" &&
      !declared(this.serverCapabilitiesOnWire, entry.capability)
    ) {
      reply(
        errorJson(
          id,
          METHOD_NOT_FOUND,
          `Method not found: ${method} needs the server capability ${entry.capability.path.join(".")}, which this server did not declare`,
        ),
      );
      return;
    }
    const verdict = run(tables.checks[entry.type]!, message);
    if (!verdict.valid) {
      reply(invalidMessageJson(id, verdict));
      return;
    }
    const handler = Object.prototype.hasOwnProperty.call(this.host.handlers, method)
      ? this.host.handlers[method]
      : undefined;
    if (!handler) {
      reply(errorJson(id, METHOD_NOT_FOUND, `Method not found: this server does not implement ${method}`));
      return;
    }
    let params = message["params"];
    if (this.wire.shims) {
      try {
        params = this.upgrade("params", method, params);
      } catch (error) {
        reply(errorJson(id, INVALID_PARAMS, `Invalid params: ${(error as Error).message}`));
        return;
      }
    }
    const meta = isObject(params) && isObject(params["_meta"]) ? params["_meta"] : undefined;
    const token = meta?.["progressToken"];
    const inflight = new Inflight(
      id,
      method,
      typeof token === "string" || typeof token === "number" ? token : undefined,
      reply,
      channel,
    );
    this.inflight.set(id, inflight);
    let outcome: unknown;
    try {
      outcome = handler(params ?? {}, new RequestContext(this, inflight));
    } catch (error) {
      this.fail(inflight, error);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (result) => this.succeed(inflight, result),
        (error) => this.fail(inflight, error),
      );
    } else {
      this.succeed(inflight, outcome);
    }
  }

  private receiveInitialize(message: Record<string, unknown>, id: RequestId, reply: Reply): void {
    if (this.phase !== "new") {
      reply(errorJson(id, INVALID_REQUEST, "Invalid Request: initialize was already received in this session"));
      return;
    }
    const params = message["params"];
    const requested = isObject(params) ? params["protocolVersion"] : undefined;
    if (typeof requested !== "string") {
      // Let the generated check name what is wrong with the request.
      const entry = this.wire.tables.methods["initialize"]!;
      reply(invalidMessageJson(id, run(this.wire.tables.checks[entry.type]!, message)));
      return;
    }
    const info = negotiate(requested);
    if (info.name === handlerRevision.name) {
      this.completeInitialize(handlerWire, message, id, reply);
      return;
    }
    this.phase = "initializing";
    this.backlog = [];
    loadWire(info)
      .then((wire) => this.completeInitialize(wire, message, id, reply))
      .catch((error: unknown) => {
        this.phase = "new";
        this.host.logger("error", `cannot initialize at protocol revision ${info.name}`, String(error));
        reply(errorJson(id, INTERNAL_ERROR, `Internal error: cannot initialize at protocol revision ${info.name}`));
      })
      .finally(() => this.drainBacklog());
  }

  private completeInitialize(wire: Wire, message: Record<string, unknown>, id: RequestId, reply: Reply): void {
    const entry = wire.tables.methods["initialize"]!;
    const verdict = run(wire.tables.checks[entry.type]!, message);
    if (!verdict.valid) {
      this.phase = "new";
      reply(invalidMessageJson(id, verdict));
      return;
    }
    const paramsOnWire = message["params"] as Record<string, unknown>;
    this.wire = wire;
    let params: unknown = paramsOnWire;
    try {
      if (wire.shims) params = this.upgrade("params", "initialize", paramsOnWire);
    } catch (error) {
      this.wire = handlerWire;
      this.phase = "new";
      reply(errorJson(id, INVALID_PARAMS, `Invalid params: ${(error as Error).message}`));
      return;
    }
    this.clientParams = params as InitializeRequestParams;
    this.clientCapabilitiesOnWire = paramsOnWire["capabilities"];
    this.envelope = wire.tables.envelope;
    const encoded = this.encodeResult("initialize", this.host.initializeResult(wire.info.protocolVersion));
    if ("error" in encoded) {
      this.wire = handlerWire;
      this.envelope = { ...handlerWire.tables.envelope, batching: false };
      this.phase = "new";
      reply(errorJson(id, INTERNAL_ERROR, encoded.error));
      return;
    }
    this.serverCapabilitiesOnWire = (encoded.result as InitializeResult).capabilities;
    this.phase = "ready";
    this.remember(id);
    reply(resultJson(id, encoded.json));
  }

  /**
   * Treats the session as initialized at `protocolVersion` without a
   * handshake, for stateless Streamable HTTP where every request arrives on a
   * fresh session (basic/transports#session-management). The client declared
   * no capabilities, so the server sends it no requests. Returns false for a
   * version the server does not serve.
   */
  assumeInitialized(protocolVersion: string): boolean {
    const info = servedRevisions.find((r) => r.protocolVersion === protocolVersion);
    if (!info || this.phase !== "new") return false;
    const adopt = (wire: Wire) => {
      this.wire = wire;
      this.envelope = wire.tables.envelope;
      const encoded = this.encodeResult("initialize", this.host.initializeResult(wire.info.protocolVersion));
      if ("result" in encoded) this.serverCapabilitiesOnWire = (encoded.result as InitializeResult).capabilities;
      this.phase = "initialized";
    };
    if (info.name === handlerRevision.name) {
      adopt(handlerWire);
      return true;
    }
    this.phase = "initializing";
    this.backlog = [];
    loadWire(info)
      .then(adopt)
      .catch((error: unknown) => {
        this.host.logger("error", `cannot load protocol revision ${info.name}`, String(error));
        this.close();
      })
      .finally(() => this.drainBacklog());
    return true;
  }

  private drainBacklog(): void {
    const waiting = this.backlog ?? [];
    this.backlog = null;
    for (const { value, channel } of waiting) this.receiveMessage(value, channel);
    this.settleIdle();
  }

  private receiveNotification(message: Record<string, unknown>, method: string): void {
    const { tables, info } = this.wire;
    const entry = Object.prototype.hasOwnProperty.call(tables.methods, method) ? tables.methods[method] : undefined;
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
      if (this.phase === "ready") {
        this.phase = "initialized";
        this.host.initialized(this);
      }
      return;
    }
    const handler = Object.prototype.hasOwnProperty.call(this.host.notificationHandlers, method)
      ? this.host.notificationHandlers[method]
      : undefined;
    if (!handler) return;
    let params = message["params"];
    try {
      if (this.wire.shims) params = this.upgrade("params", method, params);
      handler(params ?? {}, this);
    } catch (error) {
      this.host.logger("error", `${method} handler failed`, String(error));
    }
  }

  private receiveResponse(message: Record<string, unknown>, classification: Classification): void {
    const id = classification.kind === "result" || classification.kind === "error" ? classification.id : undefined;
    const pending = id === undefined ? undefined : this.outgoing.get(id);
    if (!pending || id === undefined) {
      this.host.logger("debug", `ignored a response to unknown request id ${JSON.stringify(id)}`);
      return;
    }
    this.outgoing.delete(id);
    pending.cleanup();
    if (classification.kind === "error") {
      const error = message["error"] as { code: number; message: string; data?: unknown };
      pending.reject(new ClientError(error.code, error.message, error.data));
      return;
    }
    const verdict = checkMessage(message, this.wire.tables, pending.method);
    if (!verdict.result.valid) {
      const problem = verdict.result.errors[0]!;
      pending.reject(
        new ProtocolError(
          INVALID_PARAMS,
          `the client's ${pending.method} result is invalid at ${problem.path || "/"}: ${problem.message}`,
        ),
      );
      return;
    }
    try {
      const result = message["result"];
      pending.resolve(this.wire.shims ? this.upgrade("result", pending.method, result) : result);
    } catch (error) {
      pending.reject(error as Error);
    }
  }

  // --- replies ----------------------------------------------------------------

  private succeed(inflight: Inflight, result: unknown): void {
    if (!this.finish(inflight)) return;
    const encoded = this.encodeResult(inflight.method, result);
    if ("error" in encoded) {
      this.host.logger("error", encoded.error);
      inflight.reply(errorJson(inflight.id, INTERNAL_ERROR, encoded.error));
      return;
    }
    inflight.reply(resultJson(inflight.id, encoded.json));
  }

  private fail(inflight: Inflight, error: unknown): void {
    if (!this.finish(inflight)) return;
    if (error instanceof ProtocolError) {
      inflight.reply(this.convertError(inflight, error.code, error.message, error.data));
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.host.logger(
      "error",
      `${inflight.method} handler failed: ${message}`,
      error instanceof Error ? error.stack : undefined,
    );
    inflight.reply(this.convertError(inflight, INTERNAL_ERROR, `Internal error: ${message}`));
  }

  /** Ends a request; false when it was cancelled, in which case nothing is sent (basic/utilities/cancellation). */
  private finish(inflight: Inflight): boolean {
    if (this.inflight.get(inflight.id) !== inflight) return false;
    this.inflight.delete(inflight.id);
    this.remember(inflight.id);
    if (this.idleWaiters.length > 0) queueMicrotask(() => this.settleIdle()); // after the reply is sent
    if (inflight.cancelled) {
      inflight.reply(null);
      return false;
    }
    return this.phase !== "closed";
  }

  private remember(id: RequestId): void {
    // A ring of the last REMEMBERED_IDS ids: O(1), no iterator per request.
    const slot = this.finishedCount++ % REMEMBERED_IDS;
    const evicted = this.finishedRing[slot];
    if (evicted !== undefined) this.finishedIds.delete(evicted);
    this.finishedRing[slot] = id;
    this.finishedIds.add(id);
  }

  /**
   * A handler's result, checked against the handler revision's schema (a bad
   * result is the server's bug, reported as -32603, never sent) and converted
   * to the wire revision.
   */
  private encodeResult(method: string, result: unknown): { json: string; result: unknown } | { error: string } {
    const check = handlerWire.tables.results[method];
    if (check) {
      const verdict = run(check, result);
      if (!verdict.valid) {
        const problem = verdict.errors[0]!;
        return {
          error: `Internal error: the server's ${method} result is invalid at ${problem.path || "/"}: ${problem.message}`,
        };
      }
    }
    let onWire = result;
    if (this.wire.shims) {
      try {
        onWire = this.downgrade("result", method, result);
      } catch (error) {
        return { error: `Internal error: ${(error as Error).message}` };
      }
    }
    return { json: JSON.stringify(onWire), result: onWire };
  }

  private convertError(inflight: Inflight, code: number, message: string, data?: unknown): string {
    const json = errorJson(inflight.id, code, message, data);
    const shims = this.wire.shims;
    if (!shims) return json;
    // Error codes can change meaning between revisions (the shim overlay maps them).
    try {
      const converted = shims.convert(JSON.parse(json), {
        from: handlerRevision.name,
        to: this.wire.info.name,
        method: inflight.method,
      });
      return JSON.stringify(converted.message);
    } catch {
      return json;
    }
  }

  // --- conversions ------------------------------------------------------------

  private upgrade(what: "params" | "result", method: string, value: unknown): unknown {
    return this.convert(what, method, value, this.wire.info.name, handlerRevision.name);
  }

  private downgrade(what: "params" | "result", method: string, value: unknown): unknown {
    return this.convert(what, method, value, handlerRevision.name, this.wire.info.name);
  }

  private convert(what: "params" | "result", method: string, value: unknown, from: string, to: string): unknown {
    const shims = this.wire.shims!;
    const converted =
      what === "params"
        ? shims.convertParams(method, value, { from, to })
        : shims.convertResult(method, value, { from, to });
    if (converted.changes.length > 0)
      this.host.logger("debug", `${method} ${what} converted from ${from} to ${to}`, converted.changes);
    return converted.message;
  }

  // --- outgoing ---------------------------------------------------------------

  /**
   * Sends a notification (params in the handler revision's shape). Returns
   * false, and sends nothing, when the wire revision lacks the method, its
   * capability was not declared, or the session is not yet initialized and the
   * method may not be sent before.
   */
  notify(method: string, params?: unknown, channel?: Channel): boolean {
    const refusal = this.refusal(method, "notification");
    if (refusal) {
      this.host.logger("debug", `not sent: ${refusal}`);
      return false;
    }
    let onWire = params;
    if (this.wire.shims && params !== undefined) {
      try {
        onWire = this.downgrade("params", method, params);
      } catch (error) {
        this.host.logger("warning", `not sent: ${(error as Error).message}`);
        return false;
      }
    }
    (channel ?? this.defaultChannel).send(
      onWire === undefined
        ? `{${JSONRPC},"method":${JSON.stringify(method)}}`
        : `{${JSONRPC},"method":${JSON.stringify(method)},"params":${JSON.stringify(onWire)}}`,
    );
    return true;
  }

  /** Sends a server-to-client request and resolves with the client's result (handler revision's shape). */
  request(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    const refusal = this.refusal(method, "request");
    if (refusal) return Promise.reject(new RequestRefusedError(refusal));
    if (options.signal?.aborted)
      return Promise.reject(new RequestRefusedError(`${method} was aborted before it was sent`));
    let onWire = params;
    if (this.wire.shims) {
      try {
        onWire = this.downgrade("params", method, params);
      } catch (error) {
        return Promise.reject(error instanceof ShimError ? new RequestRefusedError(error.message) : error);
      }
    }
    const id = this.nextOutgoingId++;
    const timeoutMs = options.timeoutMs ?? this.host.requestTimeoutMs;
    return new Promise((resolve, reject) => {
      const cancel = (reason: string) => {
        if (this.outgoing.delete(id)) {
          cleanup();
          // basic/utilities/cancellation: the sender tells the receiver it stopped waiting.
          this.notify("notifications/cancelled", { requestId: id, reason }, options.channel);
        }
      };
      const timer = setTimeout(() => {
        cancel(`timed out after ${timeoutMs} ms`);
        reject(new RequestTimeoutError(method, id, timeoutMs));
      }, timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      const onAbort = () => {
        cancel(String(options.signal?.reason ?? "aborted"));
        reject(new RequestRefusedError(`${method} was aborted`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.outgoing.set(id, { method, resolve, reject, cleanup });
      const paramsJson = onWire === undefined ? "" : `,"params":${JSON.stringify(onWire)}`;
      (options.channel ?? this.defaultChannel).send(
        `{${JSONRPC},"id":${id},"method":${JSON.stringify(method)}${paramsJson}}`,
      );
    });
  }

  /** Why the server may not send `method` now, or undefined when it may. */
  private refusal(method: string, kind: "request" | "notification"): string | undefined {
    if (this.phase === "closed") return `${method}: the session is closed`;
    const { tables, info } = this.wire;
    if (this.phase !== "initialized" && !(info.beforeInitialized?.server ?? []).includes(method))
      return `${method} may not be sent before the client has sent notifications/initialized`;
    const entry = Object.prototype.hasOwnProperty.call(tables.methods, method) ? tables.methods[method] : undefined;
    if (!entry || entry.kind !== kind || entry.direction === "client-to-server" || entry.inputRequest)
      return `${method} is not a ${kind} the server sends in protocol revision ${info.name}`;
    const capability = entry.capability;
    if (capability) {
      const holder = capability.holder === "server" ? "server" : "client";
      const capabilities = holder === "server" ? this.serverCapabilitiesOnWire : this.clientCapabilitiesOnWire;
      if (!declared(capabilities, capability))
        return `${method} needs the ${holder} capability ${capability.path.join(".")}, which the ${holder} did not declare`;
    }
    return undefined;
  }

  // --- cancellation, progress, close -----------------------------------------

  /** notifications/cancelled from the client: aborts the handler's signal; no response will be sent. */
  cancelRequest(requestId: RequestId, reason: string | undefined): void {
    const inflight = this.inflight.get(requestId);
    // basic/utilities/cancellation: unknown or finished requests are ignored; initialize cannot be cancelled.
    if (!inflight || inflight.method === "initialize") return;
    inflight.cancel(reason ?? "cancelled by the client");
  }

  /** @internal Sends a progress notification for a request that carries a progress token. */
  progress(inflight: Inflight, progress: number, total?: number, message?: string): void {
    if (inflight.progressToken === undefined || inflight.cancelled || !this.inflight.has(inflight.id)) return;
    // basic/utilities/progress: "The progress value MUST increase with each notification".
    if (!(progress > inflight.lastProgress))
      throw new RangeError(`progress must increase: ${progress} after ${inflight.lastProgress}`);
    inflight.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: inflight.progressToken, progress };
    if (total !== undefined) params["total"] = total;
    if (message !== undefined) params["message"] = message;
    this.notify("notifications/progress", params, inflight.channel);
  }

  /** Sends notifications/message when `level` passes the client's threshold (logging/setLevel). */
  log(level: LoggingLevel, data: unknown, logger?: string, channel?: Channel): boolean {
    if (!isLoggingLevel(level)) throw new TypeError(`unknown logging level ${JSON.stringify(level)}`);
    if (!passes(level, this.logLevel)) return false;
    return this.notify(
      "notifications/message",
      logger === undefined ? { level, data } : { level, logger, data },
      channel,
    );
  }

  /**
   * The client will send nothing more (stdin ended): server requests still
   * waiting fail now, since no answer can come; resolves once every request in
   * flight has been answered, so that a transport can close without losing replies.
   */
  inputEnded(): Promise<void> {
    this.rejectOutgoing("the client closed its side of the connection before answering");
    if (this.inflight.size === 0 && !this.backlog) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private rejectOutgoing(why: string): void {
    for (const pending of this.outgoing.values()) {
      pending.cleanup();
      pending.reject(new RequestRefusedError(`${pending.method}: ${why}`));
    }
    this.outgoing.clear();
  }

  private settleIdle(): void {
    if (this.inflight.size > 0 || this.backlog || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The transport closed: handlers are aborted, waiting server requests fail, nothing more is sent. */
  close(): void {
    if (this.phase === "closed") return;
    this.phase = "closed";
    this.backlog = null;
    for (const inflight of this.inflight.values()) inflight.cancel("the connection closed");
    this.inflight.clear();
    this.rejectOutgoing("the connection closed before the client answered");
    this.settleIdle();
    this.host.closed(this);
  }
}

/**
 * What a handler gets besides its params: cancellation, progress, logging,
 * requests to the client, and who the client is.
 */
export class RequestContext {
  /** @internal */
  constructor(
    readonly session: Session,
    private readonly inflight: Inflight,
  ) {}

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.inflight.signal;
  }

  get requestId(): RequestId {
    return this.inflight.id;
  }

  /** The protocol revision the client negotiated (the handler always sees the handler revision's shapes). */
  get revision(): string {
    return this.session.revision ?? handlerRevision.name;
  }

  get clientInfo(): Implementation | undefined {
    return this.session.clientInfo;
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.session.clientCapabilities;
  }

  /**
   * Reports progress when the client asked for it (a progressToken in _meta);
   * otherwise does nothing. `progress` must increase from call to call.
   */
  progress(progress: number, total?: number, message?: string): void {
    this.session.progress(this.inflight, progress, total, message);
  }

  /** Sends a log message to the client (notifications/message), filtered by the level it set. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.session.log(level, data, logger, this.inflight.channel);
  }

  /** A server-to-client request tied to this request: sent with it, cancelled with it. */
  request(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    return this.session.request(method, params, { signal: this.signal, channel: this.inflight.channel, ...options });
  }

  /**
   * Over Streamable HTTP: closes the connection that carries this request's
   * SSE stream without ending the stream; the client reconnects after
   * `retryMs` with Last-Event-ID and receives the rest (basic/transports,
   * SEP-1699). Returns false where the transport has no such thing (stdio).
   */
  closeStream(retryMs?: number): boolean {
    return this.inflight.channel.closeConnection?.(retryMs) ?? false;
  }

  /** Asks the client's model for a completion (sampling/createMessage; the client must declare sampling). */
  sample(params: CreateMessageRequestParams, options?: RequestOptions): Promise<CreateMessageResult> {
    return this.request("sampling/createMessage", params, options) as Promise<CreateMessageResult>;
  }

  /** Asks the user for input through the client (elicitation/create; the client must declare elicitation). */
  elicit(params: ElicitRequestParams, options?: RequestOptions): Promise<ElicitResult> {
    return this.request("elicitation/create", params, options) as Promise<ElicitResult>;
  }

  /** The client's roots (roots/list; the client must declare roots). */
  async roots(options?: RequestOptions): Promise<Root[]> {
    return ((await this.request("roots/list", undefined, options)) as ListRootsResult).roots;
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

/** Whether a capabilities object declares the capability at `path` (a present, non-false value). */
function declared(capabilities: unknown, requirement: CapabilityRequirement): boolean {
  let value: unknown = capabilities;
  for (const key of requirement.path) {
    if (!isObject(value)) return false;
    value = value[key];
  }
  return value !== undefined && value !== null && value !== false;
}

function describe(classification: Classification & { kind: "invalid" }): string {
  return classification.path ? `${classification.reason} (at ${classification.path})` : classification.reason;
}

/** -32602 when the problem is inside params, -32600 when the envelope itself is wrong. */
function invalidMessageJson(id: RequestId, verdict: ValidationResult): string {
  if (verdict.valid) throw new Error("invalidMessageJson called with a valid verdict");
  const problem = verdict.errors[0]!;
  const inParams = problem.path === "/params" || problem.path.startsWith("/params/");
  return inParams
    ? errorJson(id, INVALID_PARAMS, `Invalid params: ${problem.path} ${problem.message}`, { errors: verdict.errors })
    : errorJson(id, INVALID_REQUEST, `Invalid Request: ${problem.path || "/"} ${problem.message}`, {
        errors: verdict.errors,
      });
}

function resultJson(id: RequestId, result: string): string {
  return `{${JSONRPC},"id":${typeof id === "number" ? id : JSON.stringify(id)},"result":${result}}`;
}

/** An error response; without an id when the request's id could not be read (basic#error-responses). */
function errorJson(id: RequestId | undefined, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return JSON.stringify(id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error });
}
