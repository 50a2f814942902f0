// Streamable HTTP's endpoint (basic/transports#streamable-http), behind the
// transport's routing, authorization and body reading (http.ts). It serves both
// eras (2026-07-28 basic/versioning#backward-compatibility-with-initialization-based-versions):
// - a request of a per-request revision (its `_meta` or MCP-Protocol-Version
//   names one) is a POST on its own: no Mcp-Session-Id, no GET stream, no
//   resumption, its MCP headers checked against the body by the runtime;
// - initialize opens a handshake session (Mcp-Session-Id), whose POST, GET (the
//   standalone SSE stream, or a resumption with Last-Event-ID) and DELETE
//   follow 2025-03-26..2025-11-25.
import type { HttpRequestHead, HttpResponseSink } from "./http-wire.js";
import { isObject } from "../validation.js";
import type { RevisionInfo } from "../table-types.js";
import type { McpServer } from "../server/mcp-server.js";
import type { SessionHost } from "../server/context.js";
import type { Session } from "../server/session/session.js";
import { statedVersion } from "../protocol/meta.js";
import type { MessageReader } from "./http-wire.js";
import type { HttpOptions } from "./http-options.js";
import { principalOf, sessionOpening, type HttpSessionTable } from "./http-sessions.js";
import { httpError, jsonRpcError, refused, requestIdOf, sessionNotFound } from "./http-errors.js";
import { ACCEPTS_JSON, ACCEPTS_SSE, accepted, header } from "./http-headers.js";
import {
  HttpSession,
  endAccepted,
  PerRequestExchange,
  PostExchange,
  noHeaders,
  type RequestAuth,
} from "./http-exchanges.js";

/** What the endpoint reads of the transport's options, with their defaults applied. */
export type EndpointOptions = Readonly<
  Required<
    Pick<HttpOptions, "sessions" | "responseMode" | "standaloneStream" | "eventStore" | "retryMs" | "keepAliveMs">
  >
>;

export class StreamableHttpEndpoint {
  /** The one session every per-request POST is received on (made on first use). */
  private sharedSession: Session | undefined;

  constructor(
    private readonly server: McpServer,
    /** What the endpoint reads of its server: the revisions it serves, its logger. */
    private readonly host: SessionHost,
    /** Where its handshake sessions are kept, and counted against maxSessions with the legacy SSE ones. */
    private readonly table: HttpSessionTable,
    private readonly readMessage: MessageReader,
    private readonly options: EndpointOptions,
  ) {}

  /** Ends the session per-request POSTs share. */
  close(): void {
    this.sharedSession?.close();
  }

  /** POST: a message of a per-request revision, of a handshake session, or initialize opening one. */
  post(request: HttpRequestHead, response: HttpResponseSink, auth: RequestAuth | undefined): void {
    // basic/transports#sending-messages-to-the-server: the client MUST accept both.
    if (accepted(request) !== (ACCEPTS_JSON | ACCEPTS_SSE))
      return httpError(
        response,
        406,
        "Not Acceptable: the Accept header must list application/json and text/event-stream",
      );
    this.readMessage(request, response, (message, length) =>
      this.postMessage(request, response, auth, message, length),
    );
  }

  /** A POST's message, read and parsed. */
  private postMessage(
    request: HttpRequestHead,
    response: HttpResponseSink,
    auth: RequestAuth | undefined,
    message: unknown,
    length: number,
  ): void {
    // Read once: it decides the era, then whether a session's request names a version the server serves.
    const version = header(request.headers["mcp-protocol-version"]);
    const named = version === undefined ? undefined : this.host.served.forVersion(version);
    if (this.perRequest(named, message)) return this.postPerRequest(request, response, message, auth);
    if (!this.options.sessions) return this.postStateless(response, message, auth, version);

    const sessionId = header(request.headers["mcp-session-id"]);
    if (sessionId === undefined) {
      if (!isInitialize(message))
        return httpError(
          response,
          400,
          "Bad Request: the Mcp-Session-Id header is required (initialize to get one)",
          {},
          requestIdOf(message),
        );
      return this.initialize(response, message, auth);
    }
    const state = this.table.owned(sessionId, principalOf(auth));
    if (!state) return sessionNotFound(response, sessionId);
    if (version !== undefined && !named)
      return httpError(response, 400, this.unsupportedVersion(version), {}, requestIdOf(message));
    this.table.touch(state);
    const exchange = new PostExchange(
      response,
      this.options.responseMode,
      state,
      this.options.retryMs,
      noHeaders,
      null,
      auth,
    );
    if (!state.session.receiveMessage(message, exchange, length)) endAccepted(response);
    else exchange.awaitReply();
  }

  private initialize(
    response: HttpResponseSink,
    message: Record<string, unknown>,
    auth: RequestAuth | undefined,
  ): void {
    // basic/lifecycle#initialization: initialize is a request. Sent as a notification nothing
    // would answer it, and the session opened for it would wait forever; refused before one is
    // made (basic/transports#sending-messages-to-the-server: input not accepted is an HTTP error).
    if (message["id"] === undefined)
      return jsonRpcError(response, 400, -32600, "Invalid Request: initialize must be a request with an id");
    const principal = principalOf(auth);
    const refusal = this.table.roomFor(principal);
    if (refusal) return refused(response, refusal);
    const state = new HttpSession(this.table.newId(), this.server, this.options.eventStore, this.options.retryMs);
    state.principal = principal;
    this.table.startOpening(principal);
    const opening = sessionOpening(this.table, state);
    const exchange = new PostExchange(response, "json", state, this.options.retryMs, opening, null, auth);
    state.session.receiveMessage(message, exchange);
  }

  /**
   * Whether a POST is a per-request revision's: its MCP-Protocol-Version
   * header names one (`named`, the revision the server serves at that version), or the body (not initialize) states a version in `_meta`,
   * whether the server serves it or not (then the runtime says which it does).
   */
  private perRequest(named: RevisionInfo | undefined, message: unknown): boolean {
    if (named?.lifecycle === "per-request") return true;
    return isObject(message) && message["method"] !== "initialize" && statedVersion(message) !== undefined;
  }

  private postPerRequest(
    request: HttpRequestHead,
    response: HttpResponseSink,
    message: unknown,
    auth: RequestAuth | undefined,
  ): void {
    // basic/transports/streamable-http#sending-messages: "The client MUST NOT send JSON-RPC responses."
    // (Neither a request nor a response, a message is the session's to call invalid, with its id.)
    if (isObject(message) && message["method"] === undefined && ("result" in message || "error" in message))
      return httpError(response, 400, "Bad Request: a client does not send JSON-RPC responses on this revision");
    // #session-management is gone: per-request POSTs share one connection of the runtime's, each
    // request alone on its exchange (its id is its own; closing the response cancels it).
    const exchange = new PerRequestExchange(
      response,
      this.options.responseMode,
      request.headers,
      this.options.keepAliveMs,
      this.host.logger,
      auth,
    );
    if (!this.perRequestSession().receiveMessage(message, exchange)) endAccepted(response);
  }

  /** The one session every per-request POST is received on (it never holds a handshake). */
  private perRequestSession(): Session {
    if (!this.sharedSession || this.sharedSession.isClosed) this.sharedSession = this.server.connect(() => {});
    return this.sharedSession;
  }

  private postStateless(
    response: HttpResponseSink,
    message: unknown,
    auth: RequestAuth | undefined,
    headerVersion: string | undefined,
  ): void {
    const session = this.server.connect(discard); // no standalone stream to carry anything
    if (!isInitialize(message)) {
      // basic/transports#protocol-version-header: without the header, assume 2025-03-26.
      const version = headerVersion ?? "2025-03-26";
      if (!session.assumeInitialized(version)) {
        session.close();
        return httpError(response, 400, this.unsupportedVersion(version), {}, requestIdOf(message));
      }
    }
    const exchange = new PostExchange(
      response,
      this.options.responseMode,
      null,
      this.options.retryMs,
      noHeaders,
      session,
      auth,
    );
    if (!session.receiveMessage(message, exchange)) {
      session.close();
      endAccepted(response);
    }
  }

  /** GET: the session's standalone SSE stream, or a stream resumed after Last-Event-ID. */
  async get(request: HttpRequestHead, response: HttpResponseSink, auth: RequestAuth | undefined): Promise<void> {
    if ((accepted(request) & ACCEPTS_SSE) === 0)
      return httpError(response, 406, "Not Acceptable: the Accept header must list text/event-stream");
    if (!this.options.sessions || !this.options.standaloneStream)
      return httpError(response, 405, "Method Not Allowed: this server offers no standalone SSE stream", {
        Allow: "POST",
      });
    const sessionId = header(request.headers["mcp-session-id"]);
    if (sessionId === undefined) return httpError(response, 400, "Bad Request: the Mcp-Session-Id header is required");
    const principal = principalOf(auth);
    const state = this.table.owned(sessionId, principal);
    if (!state) return sessionNotFound(response, sessionId);
    const versionProblem = this.checkVersion(request);
    if (versionProblem) return httpError(response, 400, versionProblem);
    const refusal = this.table.openStream(principal, response);
    if (refusal) return refused(response, refusal);
    this.table.touch(state);

    const lastEventId = header(request.headers["last-event-id"]);
    if (lastEventId !== undefined) {
      // basic/transports#resumability-and-redelivery: resume the stream the id belongs to.
      const [streamId, sequence] = lastEventId.split("_");
      const stream = streamId === undefined ? undefined : state.streams.get(streamId);
      if (!stream || !/^\d+$/.test(sequence ?? ""))
        return httpError(response, 400, `Bad Request: Last-Event-ID ${lastEventId} names no stream of this session`);
      if (!(await stream.attach(response, Number(sequence))))
        return httpError(response, 400, `Bad Request: the events after ${lastEventId} are no longer available`);
      return;
    }
    if (state.standalone?.connected)
      return httpError(response, 409, "Conflict: this session's standalone SSE stream is already open");
    state.standalone ??= state.newStream();
    await state.standalone.attach(response);
  }

  /** DELETE: ends the session. */
  delete(request: HttpRequestHead, response: HttpResponseSink, auth: RequestAuth | undefined): void {
    if (!this.options.sessions)
      return httpError(response, 405, "Method Not Allowed: this server has no sessions", { Allow: "POST" });
    const sessionId = header(request.headers["mcp-session-id"]);
    if (sessionId === undefined) return httpError(response, 400, "Bad Request: the Mcp-Session-Id header is required");
    const state = this.table.owned(sessionId, principalOf(auth));
    if (!state) return sessionNotFound(response, sessionId);
    this.table.end(state);
    response.writeHead(204).end();
  }

  /**
   * basic/transports#protocol-version-header: an invalid or unsupported version
   * is 400. The client SHOULD send the negotiated one; the session goes on in the
   * negotiated revision either way (absent, it is known from initialization).
   */
  private checkVersion(request: HttpRequestHead): string | undefined {
    const version = header(request.headers["mcp-protocol-version"]);
    if (version === undefined || this.host.served.forVersion(version)) return undefined;
    return this.unsupportedVersion(version);
  }

  private unsupportedVersion(version: string): string {
    return `Bad Request: MCP-Protocol-Version ${version} is not supported (supported: ${this.host.served.supportedVersions.join(", ")})`;
  }
}

/** What a stateless POST's session sends outside a request's exchange: nowhere to go. */
function discard(): void {}

function isInitialize(message: unknown): message is Record<string, unknown> {
  return isObject(message) && message["method"] === "initialize";
}
