// One incoming request while it is handled (Inflight), and what its handler
// sees of it (RequestContext): cancellation, progress, logging, the client's
// input (server-to-client requests or multi round-trip input requests), and
// who the client is. Where each goes is decided by the request's scope: the
// session's (handshake revisions) or the request's own (per-request revisions).
import type { RequestId } from "../messages.js";
import type { RequestHeaders } from "../protocol/headers.js";
import type { Wire } from "../protocol/revisions.js";
import type { ReplyOutcome } from "./replies.js";
import { InputRequired, type InputRequestSpec, type InputRound } from "./input-round.js";
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
import type { RunningTask } from "./running-task.js";
import type { Session } from "./session.js";
import type { Authorization, AuthInfo } from "./authorization.js";
import { progress as sendProgress } from "./outgoing.js";
import { askInput, asksByInputRequest } from "./request-outcome.js";

/**
 * Where the messages caused by one incoming message go: a stdio line, an HTTP
 * POST. Transports that carry every message the same way use the session's
 * default channel.
 */
export interface Channel {
  /**
   * The reply to the message: a response, a batch's array of responses, or
   * null for a cancelled request (no reply). `outcome` says what an error
   * reply is, for transports that map it (Streamable HTTP status codes).
   */
  reply(json: string | null, outcome?: ReplyOutcome): void;
  /** What the server sends while handling a request of this message: progress, log messages, requests to the client. */
  send(json: string): void;
  /**
   * Closes the connection carrying this message's stream without ending the
   * stream, so that the client resumes it later (basic/transports, SEP-1699).
   * Returns false when the transport cannot.
   */
  closeConnection?(retryMs?: number): boolean;
  /**
   * The request headers the message came with, by lower-case name, where the
   * transport has headers (Streamable HTTP): the MCP ones (mcp-protocol-version,
   * mcp-method, mcp-name, mcp-param-*) are checked against the body on
   * per-request revisions (2026-07-28 basic/transports/streamable-http#server-validation).
   */
  readonly headers?: RequestHeaders;
  /**
   * The channel carries one request of its own (a per-request HTTP POST): its
   * id belongs to the exchange, not to the connection, so the session does not
   * track it by id; `onClose` tells it when the exchange ends early
   * (cancellation by disconnect, basic/patterns/cancellation).
   */
  readonly isolated?: boolean;
  onClose?(cancel: () => void): void;
  /** The verified bearer token of the request, where the transport requires one (basic/authorization). */
  readonly authorization?: Authorization;
}

/**
 * Whose protocol facts a request is handled under: on a handshake revision the
 * session's (negotiated once), on a per-request revision the request's own
 * `_meta` (2026-07-28 basic/index#statelessness).
 */
export interface Scope {
  readonly wire: Wire;
  /** The revision's lifecycle is per-request: capabilities and log level come from this request. */
  readonly perRequest: boolean;
  /** The client's capabilities as the client sent them (the wire revision's shape). */
  readonly clientCapabilities: unknown;
  readonly clientInfo: Implementation | undefined;
  /**
   * The lowest level of notifications/message to send: undefined sends every
   * level (a handshake session before logging/setLevel), null none (a
   * per-request request without logLevel, basic/index#meta).
   */
  readonly logThreshold: LoggingLevel | null | undefined;
  /** The server's capabilities in the wire revision's shape. */
  readonly serverCapabilities: unknown;
}

/** @internal An incoming request being handled. */
export class Inflight {
  private controller: AbortController | undefined;
  cancelled = false;
  /** Answered (or cancelled and ended): nothing more is sent for it. */
  done = false;
  /** Once the request turned into a task (tasks.ts): its outcome and input go there. */
  task: RunningTask | undefined;
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

/** Options of a server-to-client request. */
export interface RequestOptions {
  /** Aborting it cancels the request (a notifications/cancelled is sent). */
  readonly signal?: AbortSignal;
  /** Default: the server's requestTimeoutMs. */
  readonly timeoutMs?: number;
  /** Where to send it: the channel of the client request being handled (RequestContext does this). */
  readonly channel?: Channel;
}

const NEVER = new Promise<never>(() => {});

/**
 * What a handler gets besides its params: cancellation, progress, logging,
 * the client's input, and who the client is.
 */
export class RequestContext {
  /** @internal */
  constructor(
    readonly session: Session,
    /** @internal */
    readonly inflight: Inflight,
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
    sendProgress(this.session, this.inflight, progress, total, message);
  }

  /** Sends a log message to the client (notifications/message), filtered by the level it set. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.session.log(level, data, logger, this.inflight.channel, this.inflight.scope);
  }

  /**
   * Input from the client, tied to this request: a server-to-client request on
   * a handshake revision; on a per-request revision an input request of this
   * request's InputRequiredResult (see input-round.ts for the re-entry rules).
   */
  request(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    const { inflight } = this;
    if (inflight.task) return inflight.task.ask(method, params);
    if (asksByInputRequest(inflight, method)) {
      try {
        const answered = askInput(this.session, inflight, method, params);
        return answered ? Promise.resolve(answered.value) : NEVER;
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.session.request(method, params, { signal: this.signal, channel: inflight.channel, ...options });
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
