// What a client transport does: carry JSON-RPC text both ways. It knows no
// methods; the era and the headers a message needs are given by the client
// (SendContext), so one transport serves both eras.

/** Where a transport delivers what it receives. */
export interface TransportSink {
  /** One JSON-RPC message (or batch) as text, exactly as received. */
  message(text: string): void;
  /**
   * Something the peer sent that could not be used (a stream that broke off after its answer, a bad
   * event on the GET stream): reported; no request fails for it. A request whose own exchange
   * failed fails through its send() instead.
   */
  problem(error: Error): void;
  /**
   * A message was dropped unread (stdio: an oversized line), so which request it answered is
   * unknown: reported, and every request in flight fails rather than wait for its timeout.
   * A sink without it is told through problem().
   */
  lost?(error: Error): void;
  /** The connection is gone for good. */
  closed(reason: Error): void;
}

/** How the client wants one message carried. */
export interface SendContext {
  /** "modern": per-request (_meta in every request); "legacy": the initialize handshake's session. */
  readonly era: "modern" | "legacy";
  /** The protocol version in use (the MCP-Protocol-Version header on HTTP); undefined before the handshake. */
  readonly protocolVersion?: string;
  /** Headers that mirror the body (Mcp-Method, Mcp-Name, Mcp-Param-*), for HTTP. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The id of the request this message is, so that HTTP knows which answer a stream owes (resumption). */
  readonly requestId?: string | number;
  /** Aborts the exchange (HTTP: the request's connection is closed, which cancels it on a modern server). */
  readonly signal?: AbortSignal;
}

export interface ClientTransport {
  /** Where the server is, for messages and for caching the era verdict per server. */
  readonly target: string;
  /**
   * Whether the transport sends SendContext.headers (HTTP). A client on such a
   * transport mirrors tool parameters into headers, and so rejects tools whose
   * x-mcp-header annotations are invalid (2026-07-28 streamable-http#schema-extension).
   */
  readonly carriesHeaders?: boolean;
  start(sink: TransportSink): Promise<void>;
  /**
   * Sends one message. Answers arrive through the sink. Rejects when the
   * message could not be delivered (HTTP: a status that carries no MCP message).
   */
  send(text: string, context: SendContext): Promise<void>;
  /** The legacy session's id (HTTP), once the server gave one. */
  readonly session?: string | undefined;
  /**
   * The legacy session ended on the server's side (HTTP 404): forget it, and close its GET stream.
   * With `expired`, only if that is still the session (a later one is kept).
   */
  resetSession?(expired?: string): void;
  /** Starts the server-to-client stream of a legacy session, where the transport has one (HTTP GET). */
  openStream?(context: SendContext): void;
  close(): Promise<void>;
}

/** The options of the HTTP transports (Streamable HTTP, and the 2024-11-05 HTTP+SSE it falls back to). */
export interface HttpClientOptions {
  /** Extra headers on every request (e.g. Authorization). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The largest message or SSE event accepted, in characters (default 32 Mi). */
  maxMessageBytes?: number;
  /**
   * How many reopened streams in a row may deliver no event before the client gives up on
   * a legacy stream (default 5): a stream that delivers an event starts the count again.
   */
  maxReconnects?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /**
   * Whether an initialize POST refused with 400, 404 or 405 is followed by the
   * GET of the 2024-11-05 HTTP+SSE transport (basic/transports#backwards-compatibility). Default true.
   */
  legacySseFallback?: boolean;
}
