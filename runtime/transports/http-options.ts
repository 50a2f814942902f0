// The options of the HTTP transport (mcpgen/http), in a module of their own so
// that the transport (http.ts) and its Streamable HTTP endpoint
// (http-streamable.ts) both read them without importing each other.
import type { GuardOptions } from "./http-guard.js";
import type { AuthOptions } from "./auth.js";
import type { EventStore } from "./sse.js";
import type { ResponseMode } from "./http-exchanges.js";

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
   * Sessions at once (Streamable HTTP and 2024-11-05 HTTP+SSE). At the cap, a
   * new session evicts an idle one (no connected stream, no request or task
   * running): the caller's own idlest if it holds its share of the cap
   * (maxSessions / principals holding sessions) or more, else the idlest of a
   * principal above its share, else the idlest of all. With none to take it is
   * refused (503 with Retry-After). Default 1000.
   */
  maxSessions?: number;
  /**
   * Sessions one principal (the identity a verified token names) may hold, with
   * `auth`. Past it, its own idlest idle session makes room; when all of them
   * are busy the new one is refused (429 with Retry-After). Without `auth`
   * every caller is the same anonymous principal and this does not apply.
   * Default: a tenth of maxSessions (100).
   */
  maxSessionsPerPrincipal?: number;
  /**
   * GET SSE streams (standalone, or a stream resumed with Last-Event-ID) one
   * principal may have open at once, with `auth` (429 with Retry-After past
   * it). Default: twice maxSessionsPerPrincipal (200).
   */
  maxStreamsPerPrincipal?: number;
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
