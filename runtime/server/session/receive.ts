// A connection's way in, the first stages of a request's path (request/index.ts):
// a framed message decoded (runtime/json.ts) and classified (runtime/messages.ts),
// held while a revision loads (revisions.ts), a batch taken apart
// (request/batch.ts), and each part dispatched by kind. A request passes the
// gate (request/gate.ts) and goes to the scope it is served at: initialize opens
// a handshake session (handshake.ts), whose negotiated revision then serves every
// request; without it, a request is served on its own at the revision its
// `_meta` names (request/era.ts; 2026-07-28 basic/versioning); then it is
// admitted (request/admit.ts) and its handler invoked (connection.ts). A
// notification is checked against its revision and handed to its handler; an
// answer goes to the request it answers (outgoing/send.ts).
import { run } from "../../validation.js";
import { classifyMessage, type Classification } from "../../messages.js";
import { parseJson } from "../../json.js";
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, type Implementation } from "../../protocol/handler-revision.js";
import { loadedHandlerRevision, type LoadedRevision } from "../../protocol/revisions.js";
import { headerValue } from "../../protocol/headers.js";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, metaOf } from "../../protocol/meta.js";
import { isLoggingLevel } from "../logging.js";
import type { Inflight, ServerSession } from "../context.js";
import type { Channel, IncomingRequest, Scope } from "../types.js";
import { receiveAnswer } from "../outgoing/send.js";
import { admit, eraOf, errorJson, receiveBatch, refusal, statesPerRequest } from "../request/index.js";
import { receiveInitialize } from "./handshake.js";
import { sessionScope } from "./lifecycle.js";
import type { InflightRequests } from "./requests-in-flight.js";

/** What the way in needs of its connection (connection.ts). */
export interface ReceivingSession extends ServerSession {
  /** The client's requests being handled, and the ids it must not use again. */
  readonly requests: InflightRequests;
}

/** One connection's incoming messages, from framed text to a handler (connection.ts holds one). */
export class Receiver {
  /** The length of the message being received (its share, in a batch), for the request it holds; 0 after. */
  private receivedLength = 0;

  constructor(private readonly session: ReceivingSession) {}

  /**
   * One framed message from the transport: a line on stdio, a body over HTTP.
   * Returns true when `channel.reply` will be called exactly once (the message
   * holds a request, or is invalid), false when nothing will answer it (only
   * notifications and responses), as HTTP needs to know (202 Accepted).
   */
  receive(text: string, channel: Channel = this.session.defaultChannel): boolean {
    if (this.session.lifecycle.phase === "closed") return false;
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
  receiveMessage(value: unknown, channel: Channel = this.session.defaultChannel, length = 0): boolean {
    const { lifecycle, loads, host } = this.session;
    if (lifecycle.phase === "closed") return false;
    const classification = classifyMessage(value, lifecycle.envelope);
    const answered = expectsReply(classification);
    try {
      this.receivedLength = length;
      if (loads.holding) loads.hold(value, channel, classification, length);
      else if (classification.kind === "batch") this.receiveBatch(value as unknown[], classification.messages, channel);
      else this.dispatch(value, classification, (json, outcome) => channel.reply(json, outcome), channel);
    } catch (error) {
      // A defect of ours, not the peer's: it must not end the process (a stdio server would exit)
      // nor leave a request unanswered. The peer gets -32603 with the id when there is one.
      host.logger("error", `failed on a ${classification.kind} message`, String((error as Error)?.stack ?? error));
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
  receiveNotUtf8(offset: number, channel: Channel = this.session.defaultChannel): void {
    if (this.session.lifecycle.phase === "closed") return;
    channel.reply(errorJson(undefined, PARSE_ERROR, `Parse error: not UTF-8 at byte offset ${offset}`), {
      code: PARSE_ERROR,
      malformed: true,
    });
  }

  /** A message the transport refused to frame because it is too large; the reply has no id (it was not read). */
  receiveOversized(bytes: number, limit: number, channel: Channel = this.session.defaultChannel): void {
    if (this.session.lifecycle.phase === "closed") return;
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
        receiveAnswer(this.session, message as Record<string, unknown>, classification);
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
    const { host, lifecycle, loads } = this.session;
    const refused = refusal(request, host.sessionLimits, lifecycle, this.session.requests);
    if (refused) {
      reply(errorJson(id, refused.code, refused.message), { code: refused.code, malformed: refused.malformed });
      return;
    }
    const headerVersion = channel.headers && headerValue(channel.headers, "mcp-protocol-version");
    // initialize opens a handshake session, unless it states a per-request version: there it is
    // a method the revision does not have (-32601; Streamable HTTP 404).
    if (method === "initialize" && !channel.singleRequest && !statesPerRequest(message, host.served, headerVersion)) {
      receiveInitialize(this.session, request);
      return;
    }
    const { scope } = lifecycle;
    const era = eraOf(message, scope !== undefined, host.served, headerVersion);
    switch (era.kind) {
      case "refused":
        reply(errorJson(id, era.code, era.message, era.data), { code: era.code, malformed: era.malformed });
        return;
      case "per-request":
        loads.withRevision(era.info, request, (wire) => this.handle(request, this.requestScope(wire, message)));
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
    const { host } = this.session;
    const newest = host.served.handshake.at(-1);
    if (!newest || !(newest.beforeInitialized?.client ?? []).includes(method)) {
      reply(
        errorJson(
          id,
          INVALID_REQUEST,
          `Invalid Request: ${method} before initialize; the session must be initialized first (basic/lifecycle#initialization), or the request must carry the per-request _meta of protocol version ${host.served.supportedVersions[0]}`,
        ),
        { code: INVALID_REQUEST },
      );
      return;
    }
    this.session.loads.withRevision(newest, request, (wire) =>
      this.handle(request, sessionScope(wire, {}, undefined, host.capabilitiesFor(wire))),
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
      serverCapabilities: this.session.host.capabilitiesFor(wire),
    };
  }

  /** A request at a known scope: the checks before its handler (request/admit.ts), then the handler. */
  private handle(request: IncomingRequest, scope: Scope): void {
    const { session } = this;
    const admitted = admit(session.host, request, scope);
    if (!admitted) return;
    const { inflight, core, handler } = admitted;
    const { channel } = request;
    session.requests.add(inflight);
    if (core)
      session.invoke(inflight, (p, context) => core(p as Record<string, unknown>, inflight, session, context), true);
    else session.invoke(inflight, handler!, false);
    // Closing the exchange cancels what is still running (a request answered at once needs no watch).
    // A request that turned into a task outlives its response (tasks.md, basic/utilities/tasks).
    if (channel.singleRequest && !inflight.done)
      channel.onClose?.(() => {
        if (!inflight.task) inflight.cancel("the client closed the request's response");
      });
  }

  private receiveNotification(message: Record<string, unknown>, method: string): void {
    const { session } = this;
    const { host, lifecycle } = session;
    const { tables, info } = lifecycle.scope?.wire ?? loadedHandlerRevision;
    const entry = Object.hasOwn(tables.methods, method) ? tables.methods[method] : undefined;
    // Notifications are never answered (basic#notifications): what cannot be used is logged and dropped.
    if (!entry || entry.kind !== "notification" || entry.direction === "server-to-client") {
      host.logger("debug", `ignored notification ${method}: not a client notification in revision ${info.name}`);
      return;
    }
    const verdict = run(tables.checks[entry.type]!, message);
    if (!verdict.valid) {
      host.logger("warning", `ignored invalid ${method}`, verdict.errors);
      return;
    }
    if (method === "notifications/initialized") {
      if (lifecycle.phase === "ready") {
        lifecycle.phase = "initialized";
        host.initialized(session);
      }
      return;
    }
    const handler = Object.hasOwn(host.notificationHandlers, method) ? host.notificationHandlers[method] : undefined;
    if (!handler) return;
    try {
      handler(message["params"] ?? {}, session);
    } catch (error) {
      host.logger("error", `${method} handler failed`, String(error));
    }
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
