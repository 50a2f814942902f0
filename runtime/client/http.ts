// The client side of Streamable HTTP, both eras:
// - modern (2026-07-28 basic/transports/streamable-http): every message is a
//   POST carrying MCP-Protocol-Version and the headers that mirror its body;
//   the answer is JSON or an SSE stream; closing the stream cancels.
// - legacy (2025-03-26 .. 2025-11-25 basic/transports#streamable-http): the
//   same POSTs within a session (Mcp-Session-Id from the initialize answer),
//   a GET stream for what the server sends on its own, streams resumed with
//   Last-Event-ID (#resumability-and-redelivery), DELETE at the end.
// - a 2024-11-05 HTTP+SSE server, found as #backwards-compatibility describes:
//   an initialize POST refused with 400, 404 or 405 → the GET of legacy-sse.ts,
//   used for everything after.
import { HttpStatusError, ServerMessageError, SessionExpiredError } from "./errors.js";
import { LegacySseClientTransport } from "./legacy-sse.js";
import { UnreadableEventError, readSse } from "./sse-reader.js";
import type { ClientTransport, HttpClientOptions, SendContext, TransportSink } from "./transport.js";

export type { HttpClientOptions };

/** The statuses of an initialize POST that mean "try HTTP+SSE" (2025-11-25 basic/transports#backwards-compatibility). */
const FALLBACK_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

export class StreamableHttpClientTransport implements ClientTransport {
  readonly target: string;
  readonly carriesHeaders = true;
  private sink: TransportSink | undefined;
  private sessionId: string | undefined;
  private readonly controller = new AbortController();
  private readonly limit: number;
  private readonly fetch: typeof fetch;
  /** The 2024-11-05 HTTP+SSE transport, once the server turned out to speak only it. */
  private fallback: LegacySseClientTransport | undefined;
  /** Ends the GET stream of the current legacy session (one stream per session: a new session's replaces it). */
  private getStream: AbortController | undefined;

  constructor(
    url: string | URL,
    private readonly options: HttpClientOptions = {},
  ) {
    this.target = String(url);
    this.limit = options.maxMessageBytes ?? 32 * 1024 * 1024;
    this.fetch = options.fetch ?? fetch;
  }

  /** The legacy session's id, once the server gave one. */
  get session(): string | undefined {
    return this.sessionId;
  }

  /** Whether the server turned out to be a 2024-11-05 HTTP+SSE one, now used for every message. */
  get legacySse(): boolean {
    return this.fallback !== undefined;
  }

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  private async headers(context: SendContext, extra: Record<string, string>): Promise<Record<string, string>> {
    const own = typeof this.options.headers === "function" ? await this.options.headers() : this.options.headers;
    return {
      ...own,
      ...extra,
      ...(context.protocolVersion ? { "MCP-Protocol-Version": context.protocolVersion } : {}),
      ...(context.era === "legacy" && this.sessionId ? { "Mcp-Session-Id": this.sessionId } : {}),
    };
  }

  async send(text: string, context: SendContext): Promise<void> {
    if (this.fallback) return this.fallback.send(text, context);
    const signal = context.signal ? AbortSignal.any([context.signal, this.controller.signal]) : this.controller.signal;
    const headers = await this.headers(context, {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...context.headers,
    });
    /** The session this POST was sent in, to tell its 404 from a later session's. */
    const sentSession = context.era === "legacy" ? headers["Mcp-Session-Id"] : undefined;
    const response = await this.fetch(this.target, { method: "POST", headers, body: text, signal });
    // basic/transports#session-management: the id comes with the answer to initialize, and only it sets
    // one (an answer in the session that expired may still carry that session's id).
    const session = response.headers.get("mcp-session-id");
    if (context.era === "legacy" && session && !this.sessionId && isInitialize(text)) this.sessionId = session;
    if (response.status === 202) {
      await response.body?.cancel();
      return;
    }
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (response.ok && type === "text/event-stream" && response.body) {
      await this.stream(response.body, context, signal);
      return;
    }
    const body = await this.boundedText(response);
    if (response.ok && type === "application/json") {
      // #sending-messages-to-the-server: JSON is "one JSON object", the answer to this POST. Anything
      // else (a notification, another request's response) would wait for this request's timeout, and
      // could settle another request: this one fails now, naming what came.
      if (context.requestId === undefined || isResponseTo(body, context.requestId)) {
        this.sink?.message(body);
        return;
      }
      throw new ServerMessageError(
        `${this.target} answered request ${JSON.stringify(context.requestId)} with JSON that is not its response: ${describeJson(body)}`,
        "",
      );
    }
    // #session-management: 404 for a session's id means the session ended and this message was not taken.
    // The session is forgotten by the client (resetSession), once for all the requests that meet it;
    // first, as the 404 may carry a JSON-RPC error for this request's id, which would hide the expiry.
    if (response.status === 404 && sentSession !== undefined)
      throw new SessionExpiredError(
        sentSession,
        body,
        response.headers,
        `${this.target} answered HTTP 404 for session ${JSON.stringify(sentSession)}: the session ended${body ? `: ${body.slice(0, 300)}` : ""}`,
      );
    // An error status whose body answers this very request is the server's JSON-RPC error: pass it on.
    if (!response.ok && context.requestId !== undefined && answers(body, context.requestId)) {
      this.sink?.message(body);
      return;
    }
    // #backwards-compatibility: "If it fails with ... 400 Bad Request, 404 Not Found or 405 Method Not Allowed":
    // the GET of the old transport; its endpoint event says the server speaks it.
    if (
      FALLBACK_STATUSES.has(response.status) &&
      this.options.legacySseFallback !== false &&
      !this.sessionId &&
      isInitialize(text)
    )
      return this.fallBack(text, context, response, body);
    throw new HttpStatusError(
      response.status,
      body,
      response.headers,
      `${this.target} answered HTTP ${response.status}${response.ok ? ` with Content-Type ${type || "(none)"}` : ""}${body ? `: ${body.slice(0, 300)}` : ""}`,
    );
  }

  /**
   * Delivers an SSE answer's events. A legacy stream that ends or breaks before the
   * request's answer is resumed with GET and Last-Event-ID; when it cannot be, only
   * this request fails (2025-11-25 basic/transports#sending-messages-to-the-server:
   * "Disconnection SHOULD NOT be interpreted as the client cancelling its request",
   * and the other requests are on streams of their own).
   */
  private async stream(body: ReadableStream<Uint8Array>, context: SendContext, signal: AbortSignal): Promise<void> {
    let lastId: string | undefined;
    let answered = context.requestId === undefined;
    let delivered = false;
    const reconnection = new Reconnection(this.options.maxReconnects ?? 5);
    const handlers = {
      event: (event: { data: string; id?: string }) => {
        if (event.id !== undefined && event.id !== lastId) {
          lastId = event.id;
          delivered = true;
        }
        if (event.data.trim() === "") return; // a priming event (2025-11-25: an id and empty data)
        delivered = true;
        if (!answered && answers(event.data, context.requestId!)) answered = true;
        this.sink?.message(event.data);
      },
      retry: (ms: number) => reconnection.retry(ms),
    };
    /** Reads one stream to its end; what broke it, if anything. */
    const read = async (stream: ReadableStream<Uint8Array>): Promise<Error | undefined> => {
      delivered = false;
      try {
        await readSse(stream, this.limit, handlers);
        return undefined;
      } catch (error) {
        return error as Error;
      }
    };
    const request = JSON.stringify(context.requestId);
    let broke = await read(body);
    for (;;) {
      if (signal.aborted) return;
      const brokeOff = broke && new Error(`the SSE answer from ${this.target} broke off: ${broke.message}`);
      if (answered) {
        // Nothing is owed on it any more; what broke it is still worth knowing.
        if (brokeOff) this.sink?.problem(brokeOff);
        return;
      }
      // An event over the limit (or not UTF-8) is lost, not disconnected: resuming would replay it.
      if (broke instanceof UnreadableEventError) throw brokeOff;
      // Nothing more will come for it (modern streams are not resumed; this one gave no id to resume from):
      // the request fails now rather than at its timeout (a subscriptions/listen stream may be open for days).
      if (context.era !== "legacy" || lastId === undefined)
        throw (
          brokeOff ?? new Error(`the SSE answer from ${this.target} ended without the response to request ${request}`)
        );
      if (!reconnection.ended(delivered))
        throw new Error(
          `the SSE answer from ${this.target} ended without the response to request ${request}: ${reconnection.quiet} streams in a row delivered no event (maxReconnects ${reconnection.max})${broke ? `; the last broke off: ${broke.message}` : ""}`,
        );
      await pause(reconnection.delay, signal);
      if (signal.aborted) return;
      let resumed: Response;
      try {
        resumed = await this.fetch(this.target, {
          method: "GET",
          headers: await this.headers(context, { Accept: "text/event-stream", "Last-Event-ID": lastId }),
          signal,
        });
      } catch (error) {
        // The server not reached (the network, as in the disconnection itself): a resumption that delivered nothing.
        broke = error as Error;
        delivered = false;
        continue;
      }
      if (!resumed.ok || !resumed.body) {
        const text = await this.boundedText(resumed);
        throw new HttpStatusError(
          resumed.status,
          text,
          resumed.headers,
          `${this.target} refused to resume the stream after event ${lastId}: HTTP ${resumed.status}`,
        );
      }
      broke = await read(resumed.body);
    }
  }

  /** Switches to the 2024-11-05 HTTP+SSE transport and sends the initialize through it. */
  private async fallBack(text: string, context: SendContext, refused: Response, body: string): Promise<void> {
    const legacy = new LegacySseClientTransport(this.target, this.options);
    try {
      await legacy.start(this.sink!);
    } catch (error) {
      throw new HttpStatusError(
        refused.status,
        body,
        refused.headers,
        `${this.target} refused the initialize POST with HTTP ${refused.status}${body ? ` (${body.slice(0, 200)})` : ""}, and it is no 2024-11-05 HTTP+SSE server either: ${(error as Error).message}`,
      );
    }
    this.fallback = legacy;
    await legacy.send(text, context);
  }

  /**
   * basic/transports#listening-for-messages-from-the-server: the GET stream of a legacy session, reopened
   * when it ends, until maxReconnects streams in a row have delivered no event.
   */
  openStream(context: SendContext): void {
    if (this.fallback) return; // HTTP+SSE: the one stream is open already
    // #listening-for-messages-from-the-server: the stream belongs to the session; a stream of an earlier
    // session (ended by resetSession) would otherwise reopen itself with the new session's id.
    this.getStream?.abort();
    const own = new AbortController();
    this.getStream = own;
    const signal = AbortSignal.any([this.controller.signal, own.signal]);
    void (async () => {
      let lastId: string | undefined;
      const reconnection = new Reconnection(this.options.maxReconnects ?? 5);
      while (!signal.aborted) {
        let response: Response;
        try {
          response = await this.fetch(this.target, {
            method: "GET",
            headers: await this.headers(context, {
              Accept: "text/event-stream",
              ...(lastId !== undefined ? { "Last-Event-ID": lastId } : {}),
            }),
            signal,
          });
        } catch {
          return;
        }
        // 405: the server offers no such stream.
        if (!response.ok || !response.body) {
          await response.body?.cancel();
          return;
        }
        let delivered = false;
        await readSse(response.body, this.limit, {
          event: (event) => {
            if (event.id !== undefined && event.id !== lastId) {
              lastId = event.id;
              delivered = true;
            }
            if (event.data.trim() === "") return;
            delivered = true;
            this.sink?.message(event.data);
          },
          retry: (ms) => reconnection.retry(ms),
        }).catch((error: Error) => {
          if (!signal.aborted)
            this.sink?.problem(new Error(`the GET stream from ${this.target} broke off: ${error.message}`));
        });
        if (signal.aborted) return;
        if (!reconnection.ended(delivered)) {
          this.sink?.problem(
            new Error(
              `the GET stream from ${this.target} ended ${reconnection.quiet} times in a row without an event; it is not reopened (maxReconnects ${reconnection.max})`,
            ),
          );
          return;
        }
        await pause(reconnection.delay, signal);
      }
    })();
  }

  resetSession(expired?: string): void {
    if (expired !== undefined && expired !== this.sessionId) return;
    this.sessionId = undefined;
    this.getStream?.abort();
    this.getStream = undefined;
  }

  /** Ends a legacy session with DELETE (#session-management), and every exchange still open. */
  async close(): Promise<void> {
    await this.fallback?.close();
    const session = this.sessionId;
    this.sessionId = undefined;
    this.controller.abort();
    if (session) {
      const own = typeof this.options.headers === "function" ? await this.options.headers() : this.options.headers;
      await this.fetch(this.target, {
        method: "DELETE",
        headers: { ...own, "Mcp-Session-Id": session },
        signal: AbortSignal.timeout(2000),
      })
        .then((response) => response.body?.cancel())
        .catch(() => {});
    }
  }

  private async boundedText(response: Response): Promise<string> {
    if (!response.body) return "";
    const reader = response.body.getReader();
    // basic/transports: messages "MUST be UTF-8 encoded"; fatal: what is not is refused, not given U+FFFD.
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      try {
        if (done) return text + decoder.decode();
        text += decoder.decode(value, { stream: true });
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        await reader.cancel().catch(() => {});
        throw new Error(`${this.target} sent a body that is not UTF-8`);
      }
      if (text.length > this.limit) {
        await reader.cancel();
        throw new Error(`${this.target} sent a body of more than ${this.limit} characters`);
      }
    }
  }
}

/** The wait before reopening a stream when the server names none (the SSE standard leaves it to the client). */
const DEFAULT_RETRY_MS = 1000;
/** The shortest wait before reopening a stream, whatever retry says: "retry: 0" must not make a busy loop. */
const MIN_RECONNECT_MS = 100;
/**
 * The longest: 2025-11-25 basic/transports#sending-messages-to-the-server says "The client MUST respect
 * the retry field", so a server's retry is waited in full up to here; past it, a hostile value
 * (retry: 999999999, eleven days) would hold a stream shut for as long as it liked.
 */
const MAX_RETRY_MS = 60_000;

/**
 * When and how often a stream that ended is opened again (basic/transports#resumability-and-redelivery).
 * Only the streams in a row that delivered no event count against max: a server that polls (ends each
 * stream after an event, as #sending-messages-to-the-server allows) is followed for as long as it sends.
 */
class Reconnection {
  private retryMs = DEFAULT_RETRY_MS;
  /** Streams in a row that ended without an event. */
  quiet = 0;

  constructor(readonly max: number) {}

  retry(ms: number): void {
    this.retryMs = ms;
  }

  /** A stream ended, having delivered an event or not: whether another may be opened. */
  ended(delivered: boolean): boolean {
    this.quiet = delivered ? 0 : this.quiet + 1;
    return this.quiet <= this.max;
  }

  /** How long to wait before opening it: the server's retry, within [MIN_RECONNECT_MS, MAX_RETRY_MS]. */
  get delay(): number {
    return Math.min(Math.max(this.retryMs, MIN_RECONNECT_MS), MAX_RETRY_MS);
  }
}

/** Resolves after ms, or at once when the signal aborts (close(), or the request given up). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    // Unref'd: a wait to reconnect must not keep the process alive.
    const timer = setTimeout(done, ms).unref();
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Whether a JSON text is an initialize request (the message #backwards-compatibility falls back on). */
function isInitialize(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && (value as { method?: unknown }).method === "initialize";
  } catch {
    return false;
  }
}

/** Whether a JSON text is exactly one response, to the request with this id. */
function isResponseTo(text: string, id: string | number): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return !Array.isArray(value) && answers(text, id);
  } catch {
    return false;
  }
}

/** What a JSON text that is not the awaited response is, for an error. */
function describeJson(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `not JSON (${JSON.stringify(text.slice(0, 100))})`;
  }
  if (Array.isArray(value)) return `a batch of ${value.length}`;
  if (typeof value !== "object" || value === null) return `${JSON.stringify(value)?.slice(0, 100)}`;
  const m = value as { id?: unknown; method?: unknown };
  if (typeof m.method === "string")
    return "id" in m
      ? `a request (${JSON.stringify(m.method.slice(0, 100))}, id ${JSON.stringify(m.id)})`
      : `a notification (${JSON.stringify(m.method.slice(0, 100))})`;
  if ("id" in m) return `the response to request ${JSON.stringify(m.id)}`;
  return `an object that is no JSON-RPC message (${text.slice(0, 100)})`;
}

/** Whether a JSON text is a response to the request with this id. */
function answers(text: string, id: string | number): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    const one = (m: unknown) =>
      typeof m === "object" && m !== null && (m as { id?: unknown }).id === id && !("method" in m);
    return Array.isArray(value) ? value.some(one) : one(value);
  } catch {
    return false;
  }
}
