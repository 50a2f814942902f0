// What the client's feature modules (tasks.ts, subscriptions.ts) use of a
// Client, which implements it: they and client.ts then do not import each other.
import type { ServerCapabilities, Implementation, ClientCapabilities } from "../protocol/handler-revision.js";
import type { LoadedRevision } from "../protocol/revisions.js";
import type { RevisionInfo } from "../table-types.js";
import type { RequestOptions } from "./connection.js";

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
