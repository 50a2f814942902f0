// What a session needs from the server it belongs to (McpServer implements it):
// the handlers, the served revisions and their wires, the server's identity and
// capabilities, and the bounds of what one session may hold.
import type { Implementation } from "../protocol/handler-revision.js";
import type { ServerLogger } from "./logging.js";
import type { Wire } from "../protocol/revisions.js";
import type { ServedRevisions } from "./served-revisions.js";
import type { WireSource } from "./wires.js";
import type { Inflight, RequestContext, RequestOptions } from "./context.js";
import type { RequestStateCodec } from "./request-state.js";
import type { HeaderParam } from "../protocol/headers.js";
import type { Session } from "./session.js";

/** A method the server answers, in the handler revision's shapes. */
export type MethodHandler = (params: any, context: RequestContext) => unknown;

/**
 * A method of the protocol machinery, answered by the session itself in the
 * wire revision's own shapes (no conversion): it exists only in some
 * revisions, and what it does is about the connection or the server, not a feature.
 */
export type CoreMethod = (
  params: Record<string, unknown>,
  inflight: Inflight,
  session: Session,
  context: RequestContext,
) => unknown;

/**
 * What the code that ends a request (request-outcome.ts) needs of its session
 * (Session implements it): the host, ending the request, running its handler
 * again after a round of input, and sending the client a request.
 */
export interface SessionCore {
  readonly host: SessionHost;
  /** Ends a request; false when it was cancelled or the session closed, in which case nothing is sent. */
  finish(inflight: Inflight): boolean;
  /** Runs a request's handler (again, after a round of input). */
  invoke(inflight: Inflight, handler: MethodHandler, core: boolean): void;
  /** A server-to-client request in the handshake session, answered in the handler revision's shapes. */
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
}

/** What a session needs from the server it belongs to. */
export interface SessionHost {
  /** Request handlers by method (handler revision). */
  readonly handlers: { readonly [method: string]: MethodHandler };
  /** Methods of the protocol machinery (wire revision's shapes). */
  readonly coreMethods: { readonly [method: string]: CoreMethod };
  /** Notification handlers by method (handler revision); unknown notifications are ignored. */
  readonly notificationHandlers: { readonly [method: string]: (params: any, session: Session) => void };
  readonly served: ServedRevisions;
  /** Each revision's wire, with the extensions the server serves merged in where they can be negotiated. */
  readonly wires: WireSource;
  readonly info: Implementation;
  readonly instructions: string | undefined;
  /** The server's capabilities in a revision's shape. */
  capabilitiesFor(wire: Pick<Wire, "tables">): unknown;
  readonly logger: ServerLogger;
  readonly requestTimeoutMs: number;
  /** What one session may hold at once. */
  readonly sessionLimits: Required<SessionLimits>;
  readonly requestState: RequestStateCodec;
  /** Whether per-request results carry `_meta["io.modelcontextprotocol/serverInfo"]` (basic/index#meta: SHOULD). */
  readonly serverInfoInResults: boolean;
  /** The x-mcp-header parameters of a tool, for the header check (none when undefined). */
  toolHeaders(name: string): readonly HeaderParam[] | undefined;
  /** Called once the client has sent notifications/initialized. */
  initialized(session: Session): void;
  closed(session: Session): void;
}

/**
 * What one session may hold at once, so that a client cannot grow the server's
 * memory without bound; beyond each, the new item is refused with an error
 * that names the limit.
 */
export interface SessionLimits {
  /** URIs one handshake session may subscribe to (resources/subscribe). Default 1000. */
  subscriptions?: number;
  /** The client's requests being handled at once (per-request POSTs are each their own). Default 1000. */
  inflightRequests?: number;
  /**
   * The length of the messages the client's requests being handled came in,
   * summed, in UTF-16 code units (a batch's shared among its requests), where
   * the transport hands the session a message's text or its length (stdio, and
   * HTTP sessions; Streamable HTTP also bounds its bodies' bytes). Beyond it a
   * new request is refused with -32603, unless none is in flight. The messages
   * waiting while a revision loads are bounded by it the same way.
   * Default 64 Mi (67,108,864).
   */
  inflightLength?: number;
  /** Server-to-client requests (sampling, elicitation, roots) waiting for the client's answer. Default 100. */
  pendingClientRequests?: number;
  /** Messages waiting while a revision's tables load. Default 1000. */
  queuedMessages?: number;
  /**
   * The longest string request id taken, in UTF-16 code units. Default 256.
   * A session remembers its last ids (basic#requests: ids must not be
   * reused), so without it the count bounds them but not their bytes.
   */
  idLength?: number;
  /** The longest URI resources/subscribe takes, in UTF-16 code units. Default 8192: a session keeps what it subscribed to. */
  uriLength?: number;
}

export const DEFAULT_SESSION_LIMITS: Required<SessionLimits> = Object.freeze({
  subscriptions: 1000,
  inflightRequests: 1000,
  inflightLength: 64 * 1024 * 1024,
  pendingClientRequests: 100,
  queuedMessages: 1000,
  idLength: 256,
  uriLength: 8192,
});
