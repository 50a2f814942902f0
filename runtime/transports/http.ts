// Streamable HTTP (basic/transports#streamable-http) and, beside it, the
// HTTP+SSE transport of 2024-11-05 (http-legacy-sse.ts), on node:http. HTTP
// and SSE framing only: sessions, streams, headers and status codes; every
// protocol decision is the session's. One endpoint (default /mcp) serves both eras
// (2026-07-28 basic/versioning#backward-compatibility-with-initialization-based-versions):
// - a request of a per-request revision (its `_meta` or MCP-Protocol-Version
//   names one) is a POST on its own: no Mcp-Session-Id, no GET stream, no
//   resumption, its MCP headers checked against the body by the runtime;
// - initialize opens a handshake session (Mcp-Session-Id), whose POST, GET (the
//   standalone SSE stream, or a resumption with Last-Event-ID) and DELETE
//   follow 2025-03-26..2025-11-25.
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseJson } from "../json.js";
import { isObject } from "../validation.js";
import type { RevisionInfo } from "../table-types.js";
import { hostOf, type McpServer } from "../server/mcp-server.js";
import type { SessionHost } from "../server/context.js";
import type { Session } from "../server/session/session.js";
import { statedVersion } from "../protocol/meta.js";
import {
  BodiesHeld,
  BodyNotUtf8,
  BodyBudget,
  BodyTooLarge,
  HeldBody,
  RebindingGuard,
  readBody,
  type GuardOptions,
} from "./http-guard.js";
import { ResourceServer, type AuthOptions } from "./auth.js";
import { InMemoryEventStore, type EventStore } from "./sse.js";
import { HttpSessionTable, principalOf, sessionOpening } from "./http-sessions.js";
import { httpError, jsonRpcError, requestIdOf, sessionNotFound, sessionsBusy } from "./http-errors.js";
import { ACCEPTS_JSON, ACCEPTS_SSE, accepted, header, pathOf } from "./http-headers.js";
import { LegacySseEndpoints } from "./http-legacy-sse.js";
import {
  HttpSession,
  endAccepted,
  endJson,
  PerRequestExchange,
  PostExchange,
  noHeaders,
  type RequestAuth,
  type ResponseMode,
} from "./http-exchanges.js";

export type { ResponseMode } from "./http-exchanges.js";

export interface HttpOptions extends GuardOptions {
  /** Default 127.0.0.1: only this machine can connect (basic/transports#security-warning). */
  host?: string;
  /** Default 0: any free port (the handle says which). */
  port?: number;
  /** The MCP endpoint. Default "/mcp". */
  path?: string;
  /** Stateful sessions with Mcp-Session-Id (default), or stateless: every POST on its own. */
  sessions?: boolean;
  /** Default "auto". */
  responseMode?: ResponseMode;
  /** Whether GET opens the standalone SSE stream (else 405). Default true. */
  standaloneStream?: boolean;
  /** The 2024-11-05 HTTP+SSE endpoints; false to turn them off. Default { ssePath: "/sse", messagesPath: "/messages" }. */
  legacySse?: false | { ssePath?: string; messagesPath?: string };
  /** Largest accepted request body (413 beyond). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Bytes of request bodies held at once, across every connection: bodies being
   * read, and bodies read whose exchange is still open (a handler runs). A POST
   * that would pass it is refused with 503 and Retry-After. At least
   * maxBodyBytes. Default 128 MiB.
   */
  maxHeldBodyBytes?: number;
  /** A session without requests or connected streams for this long ends (404 afterwards). Default 30 min. */
  sessionIdleMs?: number;
  /**
   * Sessions at once. At the cap, a new session evicts the least recently
   * active idle one (no connected stream, nothing in flight either way); only
   * when every session is busy is it refused (503 with Retry-After). Default 1000.
   */
  maxSessions?: number;
  /** Where SSE events are kept for resumption. Default: in memory, bounded. */
  eventStore?: EventStore;
  /** The SSE retry field: how long clients wait before resuming a stream. Default 1000 ms. */
  retryMs?: number;
  /** A comment line on a quiet per-request SSE stream (subscriptions/listen) this often. Default 15 000 ms; 0 for none. */
  keepAliveMs?: number;
  /**
   * Starts every session id this process mints, so that a load balancer in
   * front of several processes can route a session's requests to the process
   * that holds it (e.g. "a." routes Mcp-Session-Id a.* to this one; see
   * ARCHITECTURE.md). Visible ASCII, at most 64 characters. Default "".
   */
  sessionIdPrefix?: string;
  /**
   * Require OAuth bearer tokens (basic/authorization): Protected Resource
   * Metadata at the well-known URIs, 401/403 challenges, each request's token
   * verified, handshake sessions bound to the identity that opened them. Default: none.
   */
  auth?: AuthOptions;
}

export class StreamableHttpTransport {
  private readonly table: HttpSessionTable;
  private readonly guard: RebindingGuard;
  private readonly bodies: BodyBudget;
  /** Set when tokens are required (HttpOptions.auth). */
  private readonly resourceServer: ResourceServer | undefined;
  private readonly options: Required<
    Omit<
      HttpOptions,
      keyof GuardOptions | "legacySse" | "host" | "port" | "auth" | "sessionIdPrefix" | "maxHeldBodyBytes"
    >
  > & {
    legacy: { ssePath: string; messagesPath: string } | null;
  };
  /** The 2024-11-05 HTTP+SSE endpoints, unless turned off (HttpOptions.legacySse). */
  private readonly legacySse: LegacySseEndpoints | null;

  /** What this transport reads of its server: its logger, the revisions it serves. */
  private readonly host: SessionHost;

  constructor(
    private readonly server: McpServer,
    options: HttpOptions = {},
  ) {
    this.host = hostOf(server);
    this.guard = new RebindingGuard(options.host ?? "127.0.0.1", options);
    this.resourceServer = options.auth ? new ResourceServer(options.auth) : undefined;
    const legacy = options.legacySse === false ? null : (options.legacySse ?? {});
    this.options = {
      path: options.path ?? "/mcp",
      sessions: options.sessions ?? true,
      responseMode: options.responseMode ?? "auto",
      standaloneStream: options.standaloneStream ?? true,
      maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
      sessionIdleMs: options.sessionIdleMs ?? 30 * 60_000,
      maxSessions: options.maxSessions ?? 1000,
      eventStore: options.eventStore ?? new InMemoryEventStore(),
      retryMs: options.retryMs ?? 1000,
      keepAliveMs: options.keepAliveMs ?? 15_000,
      legacy: legacy ? { ssePath: legacy.ssePath ?? "/sse", messagesPath: legacy.messagesPath ?? "/messages" } : null,
    };
    const maxHeld = options.maxHeldBodyBytes ?? 128 * 1024 * 1024;
    if (!(maxHeld >= this.options.maxBodyBytes))
      throw new RangeError(
        `maxHeldBodyBytes (${maxHeld}) must be at least maxBodyBytes (${this.options.maxBodyBytes})`,
      );
    this.bodies = new BodyBudget(maxHeld);
    this.table = new HttpSessionTable(this.options, this.host.logger, options.sessionIdPrefix ?? "");
    this.legacySse = this.options.legacy
      ? new LegacySseEndpoints(
          server,
          this.table,
          (request, response, then) => this.readMessage(request, response, then),
          this.options.legacy.messagesPath,
        )
      : null;
  }

  /** Bytes of request bodies held now (HttpOptions.maxHeldBodyBytes). */
  get heldBodyBytes(): number {
    return this.bodies.bytes;
  }

  /** Live sessions (Streamable HTTP and legacy SSE). */
  get sessionCount(): number {
    return this.table.count;
  }

  /**
   * The request handler, for node:http or any framework that hands over
   * IncomingMessage and ServerResponse. A POST's path is callbacks, not
   * promises (no microtask turns between the body's end and the session);
   * whatever throws on it, now or in a callback, ends as a 500 (failed).
   */
  readonly handle = (request: IncomingMessage, response: ServerResponse): void => {
    try {
      this.route(request, response);
    } catch (error) {
      this.failed(request, response, error);
    }
  };

  /** A request whose handling threw: logged, and a 500 if nothing was sent yet. */
  private failed(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    this.host.logger("error", `HTTP ${request.method} ${pathOf(request)} failed`, String(error));
    if (!response.headersSent) httpError(response, 500, "Internal Server Error");
    else response.end();
  }

  /** Runs a step of a request's handling from a callback or a promise, as handle runs the first. */
  private guarded(request: IncomingMessage, response: ServerResponse, step: () => void | Promise<void>): void {
    try {
      const pending = step();
      if (pending) pending.catch((error: unknown) => this.failed(request, response, error));
    } catch (error) {
      this.failed(request, response, error);
    }
  }

  /** Ends every session and stops the idle sweep. */
  close(): void {
    this.table.close();
    this.sharedSession?.close();
  }

  private route(request: IncomingMessage, response: ServerResponse): void {
    const refusal = this.guard.refusal(request);
    if (refusal) return httpError(response, 403, `Forbidden: ${refusal}`);
    const path = pathOf(request);
    const { legacy } = this.options;
    const endpoint =
      path === this.options.path || (legacy !== null && (path === legacy.ssePath || path === legacy.messagesPath));
    if (!endpoint) {
      if (this.resourceServer?.metadataPaths.includes(path)) return this.metadata(request, response);
      return httpError(response, 404, `Not Found: ${path}`);
    }
    if (!this.resourceServer) return this.routeEndpoint(request, response, path, undefined);
    // basic/authorization#token-requirements: every HTTP request carries the token, checked before anything else.
    const resourceServer = this.resourceServer;
    this.guarded(request, response, async () => {
      const outcome = await resourceServer.authenticate(request, (message) => this.host.logger("warning", message));
      // The client left while its token was checked: its response's `close` has fired already, so
      // a session or stream opened for it now would wait for that event forever. Nothing to answer.
      if (response.destroyed) return;
      if (!outcome.ok) return httpError(response, outcome.status, outcome.message, outcome.headers);
      this.routeEndpoint(request, response, path, { authorization: outcome.authorization, server: resourceServer });
    });
  }

  private routeEndpoint(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    auth: RequestAuth | undefined,
  ): void {
    const { legacy } = this.options;
    if (path === this.options.path) {
      if (request.method === "POST") return this.post(request, response, auth);
      if (request.method === "GET") return this.guarded(request, response, () => this.get(request, response, auth));
      if (request.method === "DELETE") return this.delete(request, response, auth);
      return httpError(response, 405, `Method Not Allowed: ${request.method}`, { Allow: "GET, POST, DELETE" });
    }
    if (path === legacy!.ssePath) {
      if (request.method === "GET") return this.legacySse!.open(request, response, auth);
      return httpError(response, 405, `Method Not Allowed: ${request.method}`, { Allow: "GET" });
    }
    if (request.method === "POST") return this.legacySse!.post(request, response, auth);
    return httpError(response, 405, `Method Not Allowed: ${request.method}`, { Allow: "POST" });
  }

  /** Protected Resource Metadata (RFC 9728 §3.2; basic/authorization#authorization-server-location). */
  private metadata(request: IncomingMessage, response: ServerResponse): void {
    if (request.method !== "GET" && request.method !== "HEAD")
      return httpError(response, 405, `Method Not Allowed: ${request.method}`, { Allow: "GET" });
    endJson(response, 200, this.resourceServer!.metadata, { "Cache-Control": "max-age=3600" });
  }

  // --- Streamable HTTP ------------------------------------------------------------

  private post(request: IncomingMessage, response: ServerResponse, auth: RequestAuth | undefined): void {
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
    request: IncomingMessage,
    response: ServerResponse,
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

  private initialize(response: ServerResponse, message: Record<string, unknown>, auth: RequestAuth | undefined): void {
    // basic/lifecycle#initialization: initialize is a request. Sent as a notification nothing
    // would answer it, and the session opened for it would wait forever; refused before one is
    // made (basic/transports#sending-messages-to-the-server: input not accepted is an HTTP error).
    if (message["id"] === undefined)
      return jsonRpcError(response, 400, -32600, "Invalid Request: initialize must be a request with an id");
    if (!this.table.roomForOne()) return sessionsBusy(response);
    const state = new HttpSession(this.table.newId(), this.server, this.options.eventStore, this.options.retryMs);
    state.principal = principalOf(auth);
    this.table.startOpening();
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
    request: IncomingMessage,
    response: ServerResponse,
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

  private sharedSession: Session | undefined;

  /** The one session every per-request POST is received on (it never holds a handshake). */
  private perRequestSession(): Session {
    if (!this.sharedSession || this.sharedSession.isClosed) this.sharedSession = this.server.connect(() => {});
    return this.sharedSession;
  }

  private postStateless(
    response: ServerResponse,
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

  private async get(request: IncomingMessage, response: ServerResponse, auth: RequestAuth | undefined): Promise<void> {
    if ((accepted(request) & ACCEPTS_SSE) === 0)
      return httpError(response, 406, "Not Acceptable: the Accept header must list text/event-stream");
    if (!this.options.sessions || !this.options.standaloneStream)
      return httpError(response, 405, "Method Not Allowed: this server offers no standalone SSE stream", {
        Allow: "POST",
      });
    const sessionId = header(request.headers["mcp-session-id"]);
    if (sessionId === undefined) return httpError(response, 400, "Bad Request: the Mcp-Session-Id header is required");
    const state = this.table.owned(sessionId, principalOf(auth));
    if (!state) return sessionNotFound(response, sessionId);
    const versionProblem = this.checkVersion(request);
    if (versionProblem) return httpError(response, 400, versionProblem);
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

  private delete(request: IncomingMessage, response: ServerResponse, auth: RequestAuth | undefined): void {
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
  private checkVersion(request: IncomingMessage): string | undefined {
    const version = header(request.headers["mcp-protocol-version"]);
    if (version === undefined || this.host.served.forVersion(version)) return undefined;
    return this.unsupportedVersion(version);
  }

  private unsupportedVersion(version: string): string {
    return `Bad Request: MCP-Protocol-Version ${version} is not supported (supported: ${this.host.served.supportedVersions.join(", ")})`;
  }

  /** The body as one JSON value and the length of its text, to `then`; or an error response (413, 415, 400, 503) and no call. */
  private readMessage(
    request: IncomingMessage,
    response: ServerResponse,
    then: (message: unknown, length: number) => void,
  ): void {
    const type = request.headers["content-type"] ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type))
      return httpError(response, 415, "Unsupported Media Type: Content-Type must be application/json");
    if (response.destroyed) return; // the client is gone (its `close` has fired: nothing would give the body's share back)
    // What the body holds of the transport's budget is given back when the exchange ends, however it ends.
    const held = new HeldBody(this.bodies);
    response.once("close", () => held.release());
    readBody(request, this.options.maxBodyBytes, held, (error, text) =>
      this.bodyRead(request, response, then, error, text),
    );
  }

  /** A POST's body read (or why not): parsed, to `then`; or an error response. */
  private bodyRead(
    request: IncomingMessage,
    response: ServerResponse,
    then: (message: unknown, length: number) => void,
    error: Error | undefined,
    text: string,
  ): void {
    try {
      if (error instanceof BodyTooLarge)
        return httpError(response, 413, `Payload Too Large: the body exceeds ${error.limit} bytes`);
      if (error instanceof BodiesHeld)
        return httpError(response, 503, `Service Unavailable: ${error.message}; try again later`, {
          "Retry-After": "1",
        });
      if (error instanceof BodyNotUtf8) return jsonRpcError(response, 400, -32700, `Parse error: ${error.message}`);
      if (error) return httpError(response, 400, `Bad Request: ${error.message}`);
      const parsed = parseJson(text);
      if (!parsed.ok)
        return jsonRpcError(
          response,
          400,
          -32700,
          `Parse error: ${parsed.message} at line ${parsed.line} column ${parsed.column}`,
        );
      then(parsed.value, text.length);
    } catch (thrown) {
      this.failed(request, response, thrown);
    }
  }
}

export interface HttpServerHandle {
  /** The MCP endpoint, e.g. http://127.0.0.1:43117/mcp. */
  readonly url: string;
  readonly port: number;
  readonly transport: StreamableHttpTransport;
  readonly httpServer: NodeServer;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

/** Serves `server` over Streamable HTTP (and HTTP+SSE) on a new node:http server. */
export async function serveHttp(server: McpServer, options: HttpOptions = {}): Promise<HttpServerHandle> {
  const transport = new StreamableHttpTransport(server, options);
  const httpServer = createServer(transport.handle);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}${options.path ?? "/mcp"}`,
    port: address.port,
    transport,
    httpServer,
    close: async () => {
      transport.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

// --- helpers -------------------------------------------------------------------------

/** What a stateless POST's session sends outside a request's exchange: nowhere to go. */
function discard(): void {}

function isInitialize(message: unknown): message is Record<string, unknown> {
  return isObject(message) && message["method"] === "initialize";
}
