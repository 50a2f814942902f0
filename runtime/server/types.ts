// The plain types the server's parts share, with no behaviour: where a
// message's replies go (Channel), whose protocol facts a request is handled
// under (Scope), what one session may hold (SessionLimits), and what a request
// that became a task offers the request path (RequestTask).
import type { Implementation, LoggingLevel } from "../protocol/handler-revision.js";
import type { RequestHeaders } from "../protocol/headers.js";
import type { LoadedRevision } from "../protocol/revisions.js";
import type { TaskFlavour } from "../protocol/task-flavours.js";
import type { RequestId } from "../messages.js";
import type { Authorization } from "./authorization.js";
import type { ReplyOutcome } from "./request/reply.js";

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
  readonly singleRequest?: boolean;
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
  readonly wire: LoadedRevision;
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

/** Options of a server-to-client request. */
export interface RequestOptions {
  /** Aborting it cancels the request (a notifications/cancelled is sent). */
  readonly signal?: AbortSignal;
  /** Default: the server's requestTimeoutMs. */
  readonly timeoutMs?: number;
  /** Where to send it: the channel of the client request being handled (RequestContext does this). */
  readonly channel?: Channel;
}

/** A feature whose list can change (notifications/<feature>/list_changed). */
export type Feature = "tools" | "resources" | "prompts";

/** The outcome of a request that became a task, as the wire would have carried it. */
export type TaskOutcome =
  | { readonly result: string; readonly isError: boolean }
  | { readonly error: { code: number; message: string; data?: unknown } };

/** What a request that turned into a task (tasks/service.ts) offers the request's path: its outcome and input go there. */
export interface RequestTask {
  readonly flavour: Pick<TaskFlavour, "keepsProgress">;
  /** Input the handler asks for once its request is a task. */
  ask(method: string, params: unknown): Promise<unknown>;
  /** The handler ended: the task takes its outcome. */
  settle(outcome: TaskOutcome): void;
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

/**
 * How one request is answered: its response's text, or null for a cancelled
 * request (no reply); `outcome` says what an error reply is (Channel.reply).
 */
export type Reply = (json: string | null, outcome?: ReplyOutcome) => void;

/**
 * One client request as it arrives, before it is admitted: what each stage of
 * its path (request/index.ts) reads of it.
 */
export interface IncomingRequest {
  /** The parsed message. */
  readonly message: Record<string, unknown>;
  readonly method: string;
  readonly id: RequestId;
  /** Answers it, once. */
  readonly reply: Reply;
  /** Where it came from, and where what its handling sends goes. */
  readonly channel: Channel;
  /** Its share of the text it came in, in UTF-16 code units (SessionLimits.inflightLength); 0 when not known. */
  readonly length: number;
}
