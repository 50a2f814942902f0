// What the client's parts share: its options (client.ts, session.ts), and what
// its feature modules (tasks.ts, subscriptions.ts) use of a Client, which
// implements it: they and client.ts then do not import each other.
import type { ServerCapabilities, Implementation, ClientCapabilities } from "../protocol/handler-revision.js";
import type { LoadedRevision } from "../protocol/revisions.js";
import type { RevisionInfo } from "../table-types.js";
import type { RequestOptions } from "./connection.js";
import type { ClientHandlers } from "./answers.js";

export interface ClientOptions {
  clientInfo?: Implementation;
  /** A generated revision to speak (e.g. "2025-06-18"); default: the server's era is detected and the newest shared revision used. */
  revision?: string;
  handlers?: ClientHandlers;
  /** Capabilities beyond those the handlers imply (e.g. extensions), in 2026-07-28's shape. */
  capabilities?: ClientCapabilities;
  /**
   * Generated extensions (by name, e.g. "skills") whose methods this client
   * sends with requestExtension(), on revisions that negotiate extensions.
   */
  extensions?: readonly string[];
  /**
   * Whether an accepted form-mode elicitation gets requestedSchema's defaults
   * for the fields the handler's answer leaves out (default true; elicitation.ts).
   */
  elicitationDefaults?: boolean;
  /** Default timeout of a request, in ms (default 60 000). */
  timeoutMs?: number;
  /** How long the stdio era probe (server/discover) waits before assuming a legacy server (default 3000 ms). */
  probeTimeoutMs?: number;
  /** Multi round-trip rounds one call may take before it fails (default 8). */
  maxInputRounds?: number;
  /** Requests in flight at most (default 1000). */
  maxPending?: number;
  /** Something the server sent that could not be used: an invalid notification, an answer to no request. Default: stderr. */
  onProblem?: (error: Error) => void;
  /**
   * Whether callTool checks a result's structuredContent against the tool's
   * outputSchema, as tools/list gave it (default true; output-schemas.ts).
   */
  validateToolOutput?: boolean;
}

/** A notification's listener (Client.on). */
export type Listener = (params: Record<string, unknown>) => void;

/** How the feature modules send a request: see Client.wireRequest. */
export interface WireRequestOptions extends RequestOptions {
  /** The result as the wire revision shapes it, not converted (a 2025-11-25 task's creation result has no 2026-07-28 form). */
  rawResult?: boolean;
  /** Capabilities this request declares besides the client's (modern: per request, e.g. the tasks extension). */
  capabilities?: ClientCapabilities;
}

export interface ClientCore {
  /** The wire revision's tables and shims. */
  readonly wire: LoadedRevision;
  readonly revision: RevisionInfo;
  readonly serverInfo: Implementation | undefined;
  readonly serverCapabilities: ServerCapabilities | undefined;
  readonly closed: boolean;
  readonly whenClosed: Promise<Error>;
  /** Aborted once the client is closed: ends the waits that are no request (task polls). */
  readonly lifetime: AbortSignal;
  /** A request in the handler revision's shapes (Client.request). */
  request(method: string, params: Record<string, unknown>, options?: RequestOptions): Promise<unknown>;
  /** A request of any method the wire revision has (Client.wireRequest). */
  wireRequest(
    method: string,
    params: Record<string, unknown>,
    options?: WireRequestOptions,
  ): Promise<Record<string, unknown>>;
  on(method: string, listener: Listener): () => void;
  /** The client's handler for sampling, elicitation or roots. */
  answerServer(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  close(): Promise<void>;
}
