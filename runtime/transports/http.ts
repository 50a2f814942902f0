// Streamable HTTP (basic/transports#streamable-http; its endpoint, serving
// both eras: http-streamable.ts) and, beside it, the HTTP+SSE transport of
// 2024-11-05 (http-legacy-sse.ts), on node:http. HTTP and SSE framing only:
// sessions, streams, headers and status codes; every protocol decision is the
// session's. Here: what every request passes before an endpoint sees it (the
// DNS-rebinding guard, the bearer token, the path and method), Protected
// Resource Metadata, and a POST's body read within its bounds.
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
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
  readBody,
  type GuardOptions,
  type MessageReader,
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

export type { ResponseMode } from "./http-exchanges.js";
export type { HttpOptions } from "./http-options.js";
export { InvalidTokenError, VerifierUnavailableError } from "./auth.js";
export type { AuthOptions, TokenVerifier, TokenVerifierContext } from "./auth.js";
export type { AuthInfo } from "../server/authorization.js";

export class StreamableHttpTransport {
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

  /** What this transport reads of its server: its logger, the revisions it serves. */
  private readonly host: SessionHost;

  constructor(server: McpServer, options: HttpOptions = {}) {
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
    const readMessage: MessageReader = (request, response, then) => this.readMessage(request, response, then);
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
    this.streamable.close();
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
      const outcome = await resourceServer.authenticate(request, (level, message) => this.host.logger(level, message));
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
  private metadata(request: IncomingMessage, response: ServerResponse): void {
    if (request.method !== "GET" && request.method !== "HEAD")
      return httpError(response, 405, `Method Not Allowed: ${request.method}`, { Allow: "GET" });
    endJson(response, 200, this.resourceServer!.metadata, { "Cache-Control": "max-age=3600" });
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

/** Ends a stream's response when the token that opened it expires. */
function endAtExpiry(response: ServerResponse, auth: RequestAuth | undefined): void {
  if (!auth) return;
  const stop = atExpiry(auth.authorization, () => response.end());
  response.once("close", stop);
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
