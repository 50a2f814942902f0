// The client side of the HTTP+SSE transport of 2024-11-05
// (2024-11-05 basic/transports#http-with-sse): a GET opens an SSE stream whose
// first event, `endpoint`, names the URI to POST every client message to; the
// server's messages (answers included) arrive as `message` events on that one
// stream. A stream that ends ends the connection: the transport has no
// resumption, and its session lives only as long as the stream.
//
// StreamableHttpClientTransport falls back to it on its own, as the later
// revisions' "Backwards Compatibility" section describes (2025-03-26 ..
// 2025-11-25 basic/transports#backwards-compatibility); it can also be used
// directly with the SSE endpoint's URL.
import { ConnectionClosedError, HttpStatusError } from "./errors.js";
import { readSse, type SseEvent } from "./sse-reader.js";
import type { ClientTransport, HttpClientOptions, SendContext, TransportSink } from "./transport.js";

export interface LegacySseClientOptions extends Pick<HttpClientOptions, "headers" | "maxMessageBytes" | "fetch"> {
  /** How long to wait for the stream and its `endpoint` event, in ms (default 10 000). */
  endpointTimeoutMs?: number;
}

export class LegacySseClientTransport implements ClientTransport {
  readonly target: string;
  private endpoint: URL | undefined;
  private closing = false;
  private readonly controller = new AbortController();
  private readonly limit: number;
  private readonly fetch: typeof fetch;

  constructor(
    url: string | URL,
    private readonly options: LegacySseClientOptions = {},
  ) {
    this.target = String(url);
    this.limit = options.maxMessageBytes ?? 32 * 1024 * 1024;
    this.fetch = options.fetch ?? fetch;
  }

  /** Where messages are POSTed, once the server named it (the `endpoint` event). */
  get messageEndpoint(): string | undefined {
    return this.endpoint?.href;
  }

  private async ownHeaders(): Promise<Record<string, string>> {
    return (typeof this.options.headers === "function" ? await this.options.headers() : this.options.headers) ?? {};
  }

  /**
   * Opens the SSE stream and resolves once its first event, `endpoint`, has
   * arrived; rejects when the GET is refused, the stream is not SSE, or its
   * first event is something else.
   */
  async start(sink: TransportSink): Promise<void> {
    const waitMs = this.options.endpointTimeoutMs ?? 10_000;
    let named: (error?: Error) => void = () => {};
    const endpointNamed = new Promise<void>((resolve, reject) => {
      named = (error) => (error ? reject(error) : resolve());
    });
    // One bound for the GET's answer and the endpoint event; past it the stream is closed.
    const timer = setTimeout(() => {
      named(new ConnectionClosedError(`${this.target} named no endpoint within ${waitMs} ms`));
      this.controller.abort();
    }, waitMs);
    try {
      let response: Response;
      try {
        response = await this.fetch(this.target, {
          method: "GET",
          headers: { ...(await this.ownHeaders()), Accept: "text/event-stream" },
          signal: this.controller.signal,
        });
      } catch (error) {
        throw new ConnectionClosedError(
          this.controller.signal.aborted
            ? `${this.target} did not answer the SSE GET within ${waitMs} ms`
            : `cannot open the SSE stream of ${this.target}: ${(error as Error).message}`,
        );
      }
      const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (!response.ok || type !== "text/event-stream" || !response.body) {
        await response.body?.cancel().catch(() => {});
        throw new HttpStatusError(
          response.status,
          "",
          response.headers,
          `${this.target} answered the SSE GET with HTTP ${response.status}${response.ok ? ` and Content-Type ${type || "(none)"}, not text/event-stream` : ""}`,
        );
      }
      // The stream lives as long as the connection: read in the background.
      void readSse(response.body, this.limit, { event: (event) => this.event(event, sink, named) })
        .then(
          () => new ConnectionClosedError(`the SSE stream of ${this.target} ended`),
          (error: Error) => new ConnectionClosedError(`the SSE stream of ${this.target} broke off: ${error.message}`),
        )
        .then((reason) => {
          named(reason);
          if (!this.closing && this.endpoint) sink.closed(reason);
        });
      await endpointNamed;
    } catch (error) {
      this.controller.abort();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private event(event: SseEvent, sink: TransportSink, named: (error?: Error) => void): void {
    if (this.endpoint) {
      // #http-with-sse: "Server messages are sent as SSE message events".
      if ((event.event === undefined || event.event === "message") && event.data.trim() !== "")
        sink.message(event.data);
      return;
    }
    // #http-with-sse: "When a client connects, the server MUST send an endpoint event".
    const data = event.data.trim();
    const endpoint = URL.canParse(data, this.target) ? new URL(data, this.target) : undefined;
    if (event.event !== "endpoint")
      named(new Error(`the first event of ${this.target} was ${event.event ?? "message"}, not endpoint`));
    // Messages (and the headers they carry, e.g. Authorization) go only to the server that opened the stream.
    else if (!endpoint || endpoint.origin !== new URL(this.target).origin)
      named(
        new Error(`${this.target} named ${JSON.stringify(event.data)} as its endpoint, which is not on its origin`),
      );
    else {
      this.endpoint = endpoint;
      named();
      return;
    }
    this.controller.abort();
  }

  /** POSTs one message to the endpoint; its answer arrives on the stream. */
  async send(text: string, context: SendContext): Promise<void> {
    if (!this.endpoint || this.controller.signal.aborted)
      throw new ConnectionClosedError(`the HTTP+SSE connection to ${this.target} is not open`);
    const signal = context.signal ? AbortSignal.any([context.signal, this.controller.signal]) : this.controller.signal;
    const response = await this.fetch(this.endpoint, {
      method: "POST",
      headers: { ...(await this.ownHeaders()), "Content-Type": "application/json" },
      body: text,
      signal,
    });
    // The server accepts with 202 (or another 2xx); the body, if any, carries nothing the client needs.
    if (response.ok) {
      await response.body?.cancel().catch(() => {});
      return;
    }
    const body = await head(response, 4096);
    throw new HttpStatusError(
      response.status,
      body,
      response.headers,
      `${this.endpoint.href} answered a message with HTTP ${response.status}${body ? `: ${body.slice(0, 300)}` : ""}`,
    );
  }

  /** Closes the stream, which ends the session on the server. */
  async close(): Promise<void> {
    this.closing = true;
    this.controller.abort();
  }
}

/** The first `limit` characters of a body (an error's explanation), the rest not read. */
async function head(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // What arrived is enough to explain the status.
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.slice(0, limit);
}
