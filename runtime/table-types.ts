// The types of a revision's generated tables: its method routing table
// (generated/<rev>/methods.ts) and its facts (generated/<rev>/revision.ts).
/** Who sends a method: the client, the server, or either side. */
export type Direction = "client-to-server" | "server-to-client" | "both";

/**
 * The capability a method needs. `holder` declared it: the server, the client,
 * or, for methods either side may send, the side that receives the request.
 * `path` leads into ServerCapabilities / ClientCapabilities.
 */
export interface CapabilityRequirement {
  readonly holder: "server" | "client" | "receiver";
  readonly path: readonly string[];
}

/** One row of a revision's method routing table (generated/<rev>/methods.ts). */
export interface MethodEntry {
  readonly kind: "request" | "notification";
  readonly direction: Direction;
  /** The schema type of the whole message, e.g. "CallToolRequest". */
  readonly type: string;
  /** The named type of `params`, or null when the schema writes it inline or has none. */
  readonly params: string | null;
  readonly paramsRequired: boolean;
  /** The method's result type (requests only), e.g. "CallToolResult". */
  readonly result: string | null;
  /** The JSONRPCResultResponse subtype the schema declares for the method, if any. */
  readonly resultResponse: string | null;
  readonly capability: CapabilityRequirement | null;
  /** True when the request travels inside InputRequiredResult instead of as a message of its own. */
  readonly inputRequest: boolean;
}

export type MethodTable = { readonly [method: string]: MethodEntry };

/** Facts about one generated revision (generated/<rev>/revision.ts). */
export interface RevisionInfo {
  /** The revision's name, e.g. "2025-06-18" or "draft". */
  readonly name: string;
  /** LATEST_PROTOCOL_VERSION of its schema. */
  readonly protocolVersion: string;
  readonly jsonrpcVersion: string;
  /** "initialize": stateful session opened by initialize; "per-request": version and capabilities ride in each request's _meta. */
  readonly lifecycle: "initialize" | "per-request";
  /** Whether JSON-RPC batches (arrays) are allowed on the wire. */
  readonly batching: boolean;
  /**
   * Whether capabilities have an `extensions` map (basic/index#extensions):
   * extensions are negotiated, and so served, only on revisions that have it.
   */
  readonly extensions: boolean;
  /** The schema union listing the requests carried by InputRequiredResult, or null. */
  readonly inputRequests: string | null;
  /**
   * For the "initialize" lifecycle: the methods each side may send before the
   * handshake completes, besides initialize and notifications/initialized
   * (basic/lifecycle#initialization); null for other lifecycles.
   */
  readonly beforeInitialized: {
    readonly client: readonly string[];
    readonly server: readonly string[];
  } | null;
  /**
   * JSON-RPC error codes of conditions the prose names without a schema
   * constant, by condition: `resourceNotFound` is -32002 up to 2025-11-25 and
   * -32602 from 2026-07-28 (server/resources#error-handling).
   */
  readonly errorCodes: { readonly [condition: string]: number };
  readonly schemaSha256: string;
  /** The upstream commit, or null for a schema given to `generate --schema`. */
  readonly commit: string | null;
}
