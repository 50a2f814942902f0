// One incoming request while it is handled (Inflight), what its handler sees
// of it (RequestContext), and the contracts both are handled under: what the
// request's path needs of its session (ServerSession, which Session
// implements) and of the server (SessionHost, which McpServer's host
// implements). Where a request's messages go is decided by its scope: the
// session's (handshake revisions) or the request's own (per-request revisions).
import type { RequestId } from "../messages.js";
import type { PendingRequests } from "../protocol/pending-requests.js";
import type { HeaderParam } from "../protocol/headers.js";
import type { LoadedRevision } from "../protocol/revisions.js";
import type { ReplyOutcome } from "./request/reply.js";
import { InputRequired, type InputRequestSpec, type InputRound } from "./input/round.js";
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
  ProgressToken,
  Root,
} from "../protocol/handler-revision.js";
import type { AuthInfo } from "./authorization.js";
import type { ServerLogger } from "./logging.js";
import type { RequestStateCodec } from "./input/request-state.js";
import type { RevisionLoads, ServedRevisions } from "./session/revisions.js";
import type { Lifecycle } from "./session/lifecycle.js";
import type { Channel, RequestOptions, RequestTask, Scope, SessionLimits } from "./types.js";

export type { Channel, RequestOptions, Scope } from "./types.js";

/** @internal An incoming request being handled. */
export class Inflight {
  private controller: AbortController | undefined;
  cancelled = false;
  /** Answered (or cancelled and ended): nothing more is sent for it. */
  done = false;
  /** Once the request turned into a task (tasks/service.ts): its outcome and input go there. */
  task: RequestTask | undefined;
  /** The params as the client sent them, when conversion for the handler changed them (what the handler revision lacks). */
  wireParams: unknown;
  lastProgress = -Infinity;
  /** Its share of the text it came in, in UTF-16 code units (SessionLimits.inflightLength); 0 when not known. */
  length = 0;

  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly progressToken: ProgressToken | undefined,
    readonly reply: (json: string | null, outcome?: ReplyOutcome) => void,
    readonly channel: Channel,
    readonly scope: Scope,
    /** The input collected for this request, when its revision and method take input requests. */
    public round: InputRound | undefined,
    /** The params as the handler gets them, for running it again with new input. */
    readonly params: unknown,
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

/** The request a context is for, and its session: what the server's features read of a RequestContext. */
export let requestOf!: (context: RequestContext) => Inflight;
export let sessionOf!: (context: RequestContext) => ServerSession;

/**
 * What a handler gets besides its params: cancellation, progress, logging,
 * the client's input, and who the client is.
 */
export class RequestContext {
  static {
    requestOf = (context) => context.inflight;
    sessionOf = (context) => context.session;
  }

  /** Made by the session for each request it runs. */
  constructor(
    private readonly session: ServerSession,
    private readonly inflight: Inflight,
  ) {}

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.inflight.signal;
  }

  get requestId(): RequestId {
    return this.inflight.id;
  }

  /** The protocol revision of this request (the handler always sees the handler revision's shapes). */
  get revision(): string {
    return this.inflight.scope.wire.info.name;
  }

  /** Whether this request's revision has no handshake: capabilities and identity come with each request. */
  get perRequest(): boolean {
    return this.inflight.scope.perRequest;
  }

  get clientInfo(): Implementation | undefined {
    return this.inflight.scope.clientInfo;
  }

  /**
   * Who the request's bearer token was issued for, verified by the transport
   * (basic/authorization); undefined where no authorization is configured (stdio).
   */
  get authInfo(): AuthInfo | undefined {
    return this.inflight.channel.authorization?.info;
  }

  /** The capabilities the client declared: in the session (handshake revisions) or in this request's `_meta`. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.inflight.scope.clientCapabilities as ClientCapabilities | undefined;
  }

  /**
   * The client's answers to input requests so far, by key (multi round-trip
   * requests): `<method>#<n>` for the awaitable style, the handler's own keys
   * for the explicit one.
   */
  get inputResponses(): { readonly [key: string]: unknown } {
    return this.inflight.round?.answers ?? {};
  }

  /** The state the handler gave inputRequired() on the previous round, verified; undefined on the first. */
  get requestState(): unknown {
    return this.inflight.round?.state;
  }

  /**
   * Asks the client for input in the explicit style: return what this returns.
   * The handler runs again with the answers in `inputResponses` under the
   * same keys, and `requestState` set to `state`.
   */
  inputRequired(inputRequests: { readonly [key: string]: InputRequestSpec }, state?: unknown): InputRequired {
    return new InputRequired(inputRequests, state);
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
    this.session.log(level, data, logger, this.inflight.channel, this.inflight.scope);
  }

  /**
   * Input from the client, tied to this request: a server-to-client request on
   * a handshake revision; on a per-request revision an input request of this
   * request's InputRequiredResult (see input/round.ts for the re-entry rules).
   */
  request(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    return this.session.askClient(this.inflight, method, params, options);
  }

  /**
   * Over Streamable HTTP with sessions: closes the connection that carries
   * this request's SSE stream without ending the stream; the client reconnects
   * after `retryMs` with Last-Event-ID and receives the rest (basic/transports,
   * SEP-1699). Returns false where the transport has no such thing.
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

/** A method the server answers, in the handler revision's shapes. */
export type MethodHandler = (params: any, context: RequestContext) => unknown;

/**
 * A core method of the protocol, answered by the session itself in the
 * wire revision's own shapes (no conversion): it exists only in some
 * revisions, and what it does is about the connection or the server, not a feature.
 */
export type CoreMethod = (
  params: Record<string, unknown>,
  inflight: Inflight,
  session: ServerSession,
  context: RequestContext,
) => unknown;

/**
 * @internal What the request's path, the messages the server sends and the
 * features need of the session a request came on (Session implements it).
 */
export interface ServerSession {
  readonly host: SessionHost;
  /** Where the connection is in the handshake, and what it negotiated. */
  readonly lifecycle: Lifecycle;
  /** Where initialize waits for its revision's tables, and the session's messages for a revision being loaded. */
  readonly loads: RevisionLoads;
  /** A request id the session must not see again (basic#requests). */
  rememberFinished(id: RequestId): void;
  readonly isClosed: boolean;
  readonly isInitialized: boolean;
  /** An unguessable id, the owner of its 2025-11-25 tasks. */
  readonly sessionId: string;
  /** The sessionId, if anything asked for it. */
  readonly sessionIdIfAny: string | undefined;
  /** The session was assumed for one stateless POST (no handshake, no session id): it ends with it. */
  readonly isStateless: boolean;
  /** The handshake session's scope: undefined before initialize, and on a connection without a handshake. */
  readonly handshakeScope: Scope | undefined;
  /** Where messages go when the caller names no channel. */
  readonly defaultChannel: Channel;
  /** The level set by logging/setLevel. */
  logLevel: LoggingLevel | undefined;
  /** URIs this client subscribed to (resources/subscribe). */
  readonly subscriptions: Set<string>;
  /** The session's requests to the client waiting for answers (made on first use). */
  readonly serverRequests: PendingRequests;
  /** The same, undefined when none was ever sent. */
  readonly serverRequestsIfAny: PendingRequests | undefined;
  /** Ends a request; false when it was cancelled or the session closed, in which case nothing is sent. */
  finish(inflight: Inflight): boolean;
  /** Runs a request's handler (again, after a round of input). */
  invoke(inflight: Inflight, handler: MethodHandler, core: boolean): void;
  /** A server-to-client request in the handshake session, answered in the handler revision's shapes. */
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Input for a request from the client: its task's, an input request of its round, or a server-to-client request. */
  askClient(inflight: Inflight, method: string, params: unknown, options: RequestOptions): Promise<unknown>;
  /** A notification at a scope (the handshake session's unless one is given); false when it may not be sent. */
  notify(method: string, params?: unknown, channel?: Channel, scope?: Scope): boolean;
  log(level: LoggingLevel, data: unknown, logger?: string, channel?: Channel, scope?: Scope): boolean;
  /** A progress notification for a request that carries a progress token. */
  progress(inflight: Inflight, value: number, total: number | undefined, message: string | undefined): void;
  /** notifications/cancelled from the client. */
  cancelRequest(requestId: RequestId, reason: string | undefined): void;
}

/** What a session needs from the server it belongs to. */
export interface SessionHost {
  /** Request handlers by method (handler revision). */
  readonly handlers: { readonly [method: string]: MethodHandler };
  /** Core methods of the protocol, answered in the wire revision's shapes. */
  readonly coreMethods: { readonly [method: string]: CoreMethod };
  /** Notification handlers by method (handler revision); unknown notifications are ignored. */
  readonly notificationHandlers: { readonly [method: string]: (params: any, session: ServerSession) => void };
  /** The revisions served, and each one loaded with the extensions the server serves merged in. */
  readonly served: ServedRevisions;
  readonly info: Implementation;
  readonly instructions: string | undefined;
  /** The server's capabilities in a revision's shape. */
  capabilitiesFor(wire: Pick<LoadedRevision, "tables">): unknown;
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
  initialized(session: ServerSession): void;
  closed(session: ServerSession): void;
  /** Whether a task the session with this sessionId owns still runs in this process. */
  runsTasksOf(sessionId: string): boolean;
}
