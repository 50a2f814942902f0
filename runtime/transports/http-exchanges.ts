// The exchanges of the Streamable HTTP transport (http.ts): what one POST's
// reply and the messages its handler sends meanwhile become on the wire (a JSON
// response, or an SSE stream), for handshake sessions and for per-request
// revisions, and the stateful session they belong to.
import type { HttpResponseSink } from "./http-wire.js";
import { hostOf, type McpServer } from "../server/mcp-server.js";
import type { Channel, Session } from "../server/session/session.js";
import type { RequestHeaders } from "../protocol/headers.js";
import type { ReplyOutcome } from "../server/request/reply.js";
import type { Authorization } from "../server/authorization.js";
import type { ResourceServer } from "./auth.js";
import { ResponseStream, SseStream, type EventStore } from "./sse.js";

/**
 * How a POST carrying a request is answered. "auto": one JSON response,
 * unless the handler sends something first (progress, a log message, a
 * request to the client) or asks to close the stream; then an SSE stream.
 */
export type ResponseMode = "auto" | "json" | "sse";

/** A request's verified authorization and the resource server that checked it (for 403 challenges). */
export interface RequestAuth {
  readonly authorization: Authorization;
  readonly server: ResourceServer;
}

/** UTF-8 bytes of a text: node's Buffer where there is one (native), else a TextEncoder's count. */
const utf8Encoder = new TextEncoder();
const byteLength: (text: string) => number =
  typeof Buffer === "function" ? (text) => Buffer.byteLength(text) : (text) => utf8Encoder.encode(text).length;

const JSON_HEADERS = { "Content-Type": "application/json" };

const EMPTY_BODY = { "Content-Length": 0 };

/** 202 Accepted: its empty body's length declared too (without it, node:http sends an empty chunked body). */
export function endAccepted(response: HttpResponseSink): void {
  response.writeHead(202, EMPTY_BODY).end();
}

/**
 * Ends `response` with `json` as its whole body and the body's length declared.
 * Headers written without a Content-Length make node:http frame the body that
 * follows in chunks (RFC 9112 section 7.1): more for the server to write and
 * for the client to parse.
 */
export function endJson(
  response: HttpResponseSink,
  status: number,
  json: string,
  headers?: Record<string, string>,
): void {
  const length = byteLength(json);
  response
    .writeHead(
      status,
      headers === undefined
        ? { "Content-Type": "application/json", "Content-Length": length }
        : { ...JSON_HEADERS, ...headers, "Content-Length": length },
    )
    .end(json);
}

/** Streams kept per session for resumption; older finished ones are forgotten. */
const STREAMS_PER_SESSION = 64;

/** A stateful Streamable HTTP session: the MCP session and its SSE streams. */
export class HttpSession {
  readonly streams = new Map<string, SseStream>();
  standalone: SseStream | null = null;
  lastActive = Date.now();
  private streamCount = 0;
  /** POSTs whose reply is still to come: close() must answer them. */
  private readonly waiting = new Set<PostExchange>();
  readonly session: Session;
  /** The identity that opened the session; every request of it must come with a token of the same. */
  principal = "";

  private readonly logger: McpServer["logger"];

  constructor(
    readonly id: string,
    server: McpServer,
    private readonly store: EventStore,
    private readonly retryMs: number,
  ) {
    this.logger = hostOf(server).logger;
    // What no request caused (list_changed, resource updates) goes on the standalone stream, if any.
    this.session = server.connect((json) => this.sendStandalone(json));
  }

  /** On the standalone stream (kept for resumption even while no GET carries it); dropped when there is none. */
  sendStandalone(json: string): void {
    if (this.standalone) this.standalone.send(json);
    else this.logger("debug", "not sent: the client has no standalone SSE stream open", json);
  }

  newStream(): SseStream {
    const id = `s${++this.streamCount}`;
    const stream = new SseStream(id, `${this.id}/${id}`, this.store, this.retryMs);
    this.streams.set(id, stream);
    if (this.streams.size > STREAMS_PER_SESSION) {
      for (const [oldId, old] of this.streams) {
        if (!old.ended || this.streams.size <= STREAMS_PER_SESSION) continue;
        this.streams.delete(oldId);
        this.store.forget(old.key);
      }
    }
    return stream;
  }

  /** A stream is connected, or the session has work in flight: evicting it would lose something. */
  get busy(): boolean {
    if (this.session.busy) return true;
    for (const stream of this.streams.values()) if (stream.connected) return true;
    return false;
  }

  /** `exchange` waits for its reply (until `replied`). */
  wait(exchange: PostExchange): void {
    this.waiting.add(exchange);
  }

  replied(exchange: PostExchange): void {
    this.waiting.delete(exchange);
  }

  close(): void {
    this.session.close(); // its requests are abandoned: none of the waiting POSTs gets a reply now
    for (const exchange of this.waiting) exchange.sessionEnded(this.id);
    this.waiting.clear();
    for (const stream of this.streams.values()) {
      stream.end();
      this.store.forget(stream.key);
    }
    this.streams.clear();
  }
}

/** The exchange of one POST that carries a request: its reply, and what the handler sends meanwhile. */
export class PostExchange implements Channel {
  private stream: SseStream | null = null;
  private done = false;

  constructor(
    private readonly response: HttpResponseSink,
    private readonly mode: ResponseMode,
    /** The stateful session, or null when stateless (no resumption, no standalone stream). */
    private readonly owner: HttpSession | null,
    private readonly retryMs: number,
    /** Headers for the response, decided when it starts (the session id after initialize). */
    private readonly extraHeaders: () => Record<string, string>,
    /** A stateless POST's own session, closed once the reply is sent. */
    private readonly statelessSession: Session | null = null,
    private readonly auth?: RequestAuth,
  ) {}

  get authorization(): Authorization | undefined {
    return this.auth?.authorization;
  }

  /** The session took the message and will reply: until then, ending the session answers this POST. */
  awaitReply(): void {
    if (!this.done && this.owner) this.owner.wait(this);
  }

  /**
   * The session ended (DELETE, the transport's close) before the reply: the request was abandoned and no
   * reply will come. basic/transports#session-management: after terminating a session the server
   * "MUST respond to requests containing that session ID with HTTP 404 Not Found", and this POST
   * carries it. An SSE stream already begun is ended by the session's close instead.
   */
  sessionEnded(sessionId: string): void {
    if (this.done) return;
    this.done = true;
    if (this.stream) return;
    const error = { code: -32001, message: `Not Found: session ${sessionId} ended before this request was answered` };
    endJson(this.response, 404, JSON.stringify({ jsonrpc: "2.0", error }));
  }

  reply(json: string | null, outcome?: ReplyOutcome): void {
    if (this.done) return;
    this.done = true;
    this.owner?.replied(this);
    if (!this.stream && json !== null && outcome?.requiredScopes && this.auth) {
      const refusal = this.auth.server.forbidden(outcome.requiredScopes, "the operation needs more scope");
      endJson(this.response, 403, json, { ...refusal.headers, ...this.extraHeaders() });
    } else if (!this.stream && json !== null && outcome?.malformed) {
      // Input the server cannot accept, a malformed notification's included (2025-03-26..2025-11-25
      // basic/transports#sending-messages-to-the-server): "it MUST return an HTTP error status code
      // (e.g., 400 Bad Request)", not 200, nor an SSE stream.
      endJson(this.response, 400, json, this.extraHeaders());
    } else if (this.stream || (this.mode === "sse" && json !== null)) {
      this.upgrade();
      if (json !== null) this.stream!.send(json);
      this.stream!.end(); // basic/transports: after the response, the server terminates the stream
    } else if (json === null) {
      this.response.writeHead(204, this.extraHeaders()).end(); // every request in it was cancelled
    } else {
      const headers = this.extraHeaders();
      // Most exchanges add no header: no copy of theirs to merge.
      endJson(this.response, 200, json, headers === NO_HEADERS ? undefined : headers);
    }
    this.statelessSession?.close();
  }

  send(json: string): void {
    if (this.done || this.mode === "json") {
      // Not deliverable on this exchange: the standalone stream, if the client keeps one.
      this.owner?.sendStandalone(json);
      return;
    }
    this.upgrade();
    this.stream!.send(json);
  }

  closeConnection(retryMs?: number): boolean {
    if (this.done || this.mode === "json" || !this.owner) return false;
    this.upgrade();
    return this.stream!.disconnect(retryMs);
  }

  private upgrade(): void {
    if (this.stream) return;
    this.stream = this.owner ? this.owner.newStream() : new SseStream("s1", "", discardingStore, this.retryMs); // stateless: nothing to resume
    void this.stream.attach(this.response, undefined, this.extraHeaders());
  }
}

const discardingStore: EventStore = { append: () => {}, replayAfter: () => [], forget: () => {} };

/**
 * The exchange of one POST of a per-request revision. Its reply's status
 * follows the error (2026-07-28 basic/transports/streamable-http): 400 for
 * HeaderMismatch, MissingRequiredClientCapability, UnsupportedProtocolVersion
 * and malformed requests, 404 for an unknown method. The client closing the
 * response before the reply is the request's cancellation (#cancellation).
 */
export class PerRequestExchange implements Channel {
  readonly singleRequest = true;
  private stream: ResponseStream | null = null;
  private done = false;

  constructor(
    private readonly response: HttpResponseSink,
    private readonly mode: ResponseMode,
    readonly headers: RequestHeaders,
    private readonly keepAliveMs: number,
    private readonly logger: McpServer["logger"],
    private readonly auth?: RequestAuth,
  ) {}

  get authorization(): Authorization | undefined {
    return this.auth?.authorization;
  }

  onClose(cancel: () => void): void {
    this.response.on("close", () => {
      if (this.done) return;
      this.done = true;
      cancel();
    });
  }

  reply(json: string | null, outcome?: ReplyOutcome): void {
    if (this.done) return;
    this.done = true;
    if (this.stream) {
      if (json !== null) this.stream.send(json);
      this.stream.end(); // the final response terminates the stream
    } else if (json === null) {
      this.response.writeHead(204).end();
    } else if (outcome?.requiredScopes && this.auth) {
      const refusal = this.auth.server.forbidden(outcome.requiredScopes, "the operation needs more scope");
      endJson(this.response, 403, json, refusal.headers);
    } else {
      endJson(this.response, statusOf(outcome), json);
    }
  }

  send(json: string): void {
    if (this.done) return;
    if (this.mode === "json") {
      this.logger("debug", "not sent: the response mode is json and the request's reply has not gone yet", json);
      return;
    }
    this.stream ??= new ResponseStream(this.response, this.keepAliveMs);
    this.stream.send(json);
  }
}

/** The HTTP status of a per-request reply (2026-07-28 streamable-http#protocol-version-header, basic/index#meta). */
export function statusOf(outcome: ReplyOutcome | undefined): number {
  if (!outcome) return 200;
  if (outcome.code === -32601) return 404;
  if (outcome.malformed || outcome.code === -32020 || outcome.code === -32021 || outcome.code === -32022) return 400;
  return 200;
}

/** The headers of an exchange that adds none to its response. */
export const NO_HEADERS: Record<string, string> = Object.freeze({});
export const noHeaders = (): Record<string, string> => NO_HEADERS;
