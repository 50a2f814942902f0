// What every HTTP request to an MCP server passes, whichever adapter hands it
// over (node:http in http.ts, a web Request in fetch.ts): the DNS-rebinding
// guard, the bearer token, the path and method, Protected Resource Metadata,
// and a POST's body read within its bounds; then Streamable HTTP's endpoint
// (http-streamable.ts) or the 2024-11-05 HTTP+SSE ones (http-legacy-sse.ts).
// Every protocol decision is the session's; here are HTTP and SSE framing only.
import { parseJson } from "../json.js";
import { hostOf, type McpServer } from "../server/mcp-server.js";
import type { SessionHost } from "../server/context.js";
import {
  BodiesHeld,
  BodyNotUtf8,
  BodyBudget,
  BodyTooLarge,
  HeldBody,
  RebindingGuard,
  type GuardOptions,
} from "./http-guard.js";
import { ResourceServer } from "./auth.js";
import { atExpiry } from "../server/authorization.js";
import { InMemoryEventStore } from "./sse.js";
import { HttpSessionTable } from "./http-sessions.js";
import { httpError, jsonRpcError } from "./http-errors.js";
import { pathOf } from "./http-headers.js";
import { LegacySseEndpoints } from "./http-legacy-sse.js";
import { StreamableHttpEndpoint } from "./http-streamable.js";
import { endJson, type RequestAuth } from "./http-exchanges.js";
import type { HttpOptions } from "./http-options.js";
import {
  BodyAlreadyRead,
  type BodyReader,
  type HttpRequestHead,
  type HttpResponseSink,
  type MessageReader,
} from "./http-wire.js";

export class McpHttpHandler<Request extends HttpRequestHead> {
  private readonly table: HttpSessionTable;
  private readonly guard: RebindingGuard;
  private readonly bodies: BodyBudget;
  /** Set when tokens are required (HttpOptions.auth). */
  private readonly resourceServer: ResourceServer | undefined;
  private readonly options: Required<
    Omit<
      HttpOptions,
      | keyof GuardOptions
      | "legacySse"
      | "host"
      | "port"
      | "auth"
      | "sessionIdPrefix"
      | "maxHeldBodyBytes"
      | "maxSessionsPerPrincipal"
      | "maxStreamsPerPrincipal"
    >
  > & {
    legacy: { ssePath: string; messagesPath: string } | null;
  };
  /** Streamable HTTP's POST, GET and DELETE on the MCP endpoint (HttpOptions.path). */
  private readonly streamable: StreamableHttpEndpoint;
  /** The 2024-11-05 HTTP+SSE endpoints, unless turned off (HttpOptions.legacySse). */
  private readonly legacySse: LegacySseEndpoints | null;
  /** Bodies a framework parsed before the request got here (handle's `parsedBody`). */
  private readonly parsedBodies = new WeakMap<Request, unknown>();

  /** What this handler reads of its server: its logger, the revisions it serves. */
  private readonly host: SessionHost;

  constructor(
    server: McpServer,
    options: HttpOptions,
    /** How the adapter reads a body off its kind of request. */
    private readonly readBody: BodyReader<Request>,
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
    const maxSessionsPerPrincipal = options.maxSessionsPerPrincipal ?? Math.ceil(this.options.maxSessions / 10);
    const limits = {
      maxSessions: this.options.maxSessions,
      sessionIdleMs: this.options.sessionIdleMs,
      maxSessionsPerPrincipal,
      maxStreamsPerPrincipal: options.maxStreamsPerPrincipal ?? 2 * maxSessionsPerPrincipal,
      perPrincipal: options.auth !== undefined,
    };
    this.table = new HttpSessionTable(limits, this.host.logger, options.sessionIdPrefix ?? "");
    const readMessage: MessageReader = (request, response, then) =>
      this.readMessage(request as Request, response, then);
    this.streamable = new StreamableHttpEndpoint(server, this.host, this.table, readMessage, this.options);
    this.legacySse = this.options.legacy
      ? new LegacySseEndpoints(server, this.table, readMessage, this.options.legacy.messagesPath)
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
   * Handles one request. A POST's path is callbacks, not promises (no
   * microtask turns between the body's end and the session); whatever throws
   * on it, now or in a callback, ends as a 500 (failed). `parsedBody`: the
   * body as a framework's JSON parser left it, read in place of the stream.
   */
  handle(request: Request, response: HttpResponseSink, parsedBody?: unknown): void {
    try {
      if (parsedBody !== undefined) this.parsedBodies.set(request, parsedBody);
      this.route(request, response);
    } catch (error) {
      this.failed(request, response, error);
    }
  }

  /** A request whose handling threw: logged, and a 500 if nothing was sent yet. */
  private failed(request: Request, response: HttpResponseSink, error: unknown): void {
    this.host.logger("error", `HTTP ${request.method} ${pathOf(request)} failed`, String(error));
    if (!response.headersSent) httpError(response, 500, "Internal Server Error");
    else response.end();
  }

  /** Runs a step of a request's handling from a callback or a promise, as handle runs the first. */
  private guarded(request: Request, response: HttpResponseSink, step: () => void | Promise<void>): void {
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
    this.streamable.close();
  }

  private route(request: Request, response: HttpResponseSink): void {
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
      const outcome = await resourceServer.authenticate(request, (level, message) => this.host.logger(level, message));
      // The client left while its token was checked: its response's `close` has fired already, so
      // a session or stream opened for it now would wait for that event forever. Nothing to answer.
      if (response.destroyed) return;
      if (!outcome.ok) return httpError(response, outcome.status, outcome.message, outcome.headers);
      this.routeEndpoint(request, response, path, { authorization: outcome.authorization, server: resourceServer });
    });
  }

  private routeEndpoint(
    request: Request,
    response: HttpResponseSink,
    path: string,
    auth: RequestAuth | undefined,
  ): void {
    const { legacy } = this.options;
    // A GET is a long-lived stream (the standalone one, a resumption, or a 2024-11-05 session's): it ends
    // when its token expires, and the client comes back with a fresh one (basic/authorization#token-handling).
    if (request.method === "GET") endAtExpiry(response, auth);
    if (path === this.options.path) {
      if (request.method === "POST") return this.streamable.post(request, response, auth);
      if (request.method === "GET")
        return this.guarded(request, response, () => this.streamable.get(request, response, auth));
      if (request.method === "DELETE") return this.streamable.delete(request, response, auth);
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
  private metadata(request: Request, response: HttpResponseSink): void {
    if (request.method !== "GET" && request.method !== "HEAD")
      return httpError(response, 405, `Method Not Allowed: ${request.method}`, { Allow: "GET" });
    endJson(response, 200, this.resourceServer!.metadata, { "Cache-Control": "max-age=3600" });
  }

  /** The body as one JSON value and the length of its text, to `then`; or an error response (413, 415, 400, 500, 503) and no call. */
  private readMessage(
    request: Request,
    response: HttpResponseSink,
    then: (message: unknown, length: number) => void,
  ): void {
    const type = request.headers["content-type"] ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type))
      return httpError(response, 415, "Unsupported Media Type: Content-Type must be application/json");
    if (response.destroyed) return; // the client is gone (its `close` has fired: nothing would give the body's share back)
    // What the body holds of the transport's budget is given back when the exchange ends, however it ends.
    const held = new HeldBody(this.bodies);
    response.once("close", () => held.release());
    if (this.parsedBodies.has(request)) return this.parsedBodyRead(request, response, then, held);
    this.readBody(request, this.options.maxBodyBytes, held, (error, text) =>
      this.bodyRead(request, response, then, error, text),
    );
  }

  /** A body a framework parsed: held and bounded by the length of its JSON text, as a read one is. */
  private parsedBodyRead(
    request: Request,
    response: HttpResponseSink,
    then: (message: unknown, length: number) => void,
    held: HeldBody,
  ): void {
    const message = this.parsedBodies.get(request);
    const length = JSON.stringify(message)?.length ?? 0;
    if (length > this.options.maxBodyBytes)
      return this.bodyRead(request, response, then, new BodyTooLarge(this.options.maxBodyBytes), "");
    if (!held.growTo(length)) return this.bodyRead(request, response, then, new BodiesHeld(held.budgetLimit), "");
    try {
      then(message, length);
    } catch (thrown) {
      this.failed(request, response, thrown);
    }
  }

  /** A POST's body read (or why not): parsed, to `then`; or an error response. */
  private bodyRead(
    request: Request,
    response: HttpResponseSink,
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
      if (error instanceof BodyAlreadyRead) {
        this.host.logger("error", `HTTP ${request.method} ${pathOf(request)}: ${error.message}`);
        return httpError(response, 500, `Internal Server Error: ${error.message}`);
      }
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

/** Ends a stream's response when the token that opened it expires. */
function endAtExpiry(response: HttpResponseSink, auth: RequestAuth | undefined): void {
  if (!auth) return;
  const stop = atExpiry(auth.authorization, () => response.end());
  response.once("close", stop);
}
