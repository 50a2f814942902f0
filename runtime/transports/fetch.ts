// The MCP server as a web-standard fetch handler, `(request: Request) =>
// Promise<Response>`, the shape Bun, Deno, Cloudflare Workers and route
// handlers serve: Streamable HTTP (both eras) and the 2024-11-05 HTTP+SSE
// endpoints, through the handler node:http's adapter uses too (http-handler.ts).
// Here: a Request seen as the head the handler reads, its body read off the
// web stream, and the response the handler writes turned into a Response (a
// whole body, or a ReadableStream for SSE). No node: import is reachable from
// here, so that the entry loads where node:http does not exist.
import type { McpServer } from "../server/mcp-server.js";
import { utf8TextOfBytes } from "../utf8.js";
import { BodiesHeld, BodyNotUtf8, BodyTooLarge } from "./http-guard.js";
import { McpHttpHandler } from "./http-handler.js";
import type { HttpOptions } from "./http-options.js";
import {
  BodyAlreadyRead,
  type BodyReader,
  type HttpRequestHead,
  type HttpResponseSink,
  type RequestHeaderFields,
} from "./http-wire.js";

export type { ResponseMode } from "./http-exchanges.js";

/**
 * serveHttp's options without the address to listen on: the platform listens.
 * Host and Origin are checked against `allowedHosts` and `allowedOrigins`,
 * loopback names only unless given (name the host names the server is reached at).
 */
export type FetchHandlerOptions = Omit<HttpOptions, "host" | "port">;

/**
 * What a platform may pass beside the Request. Deno's ServeHandlerInfo has
 * `completed`, which rejects when the response could not be delivered.
 */
export interface DeliveryInfo {
  readonly completed?: Promise<void>;
}

export interface FetchHandler {
  (request: Request, info?: DeliveryInfo): Promise<Response>;
  /** Live sessions (Streamable HTTP and legacy SSE). */
  readonly sessionCount: number;
  /** Ends every session and stops the idle sweep. */
  close(): void;
}

/** Serves `server` as a fetch handler: `export default { fetch: createFetchHandler(server, options) }`. */
export function createFetchHandler(server: McpServer, options: FetchHandlerOptions = {}): FetchHandler {
  const handler = new McpHttpHandler<FetchRequestHead>(server, options, readFetchBody);
  const fetch = (request: Request, info?: DeliveryInfo): Promise<Response> => {
    const response = new ResponseSink();
    // The client went away: what is in flight for it is cancelled as a closed connection's is.
    // Deno also aborts request.signal after a delivered response, and warns once where code
    // read that signal: there, an undelivered response (`completed` rejecting) is the sign.
    const completed = info?.completed;
    if (completed instanceof Promise) completed.catch(() => response.abandon());
    else request.signal.addEventListener("abort", () => response.abandon(), { once: true });
    handler.handle(headOf(request), response);
    return response.response;
  };
  return Object.defineProperties(fetch, {
    sessionCount: { get: () => handler.sessionCount },
    close: { value: () => handler.close() },
  }) as FetchHandler;
}

/** A Request as the handler reads it, with its body stream. */
interface FetchRequestHead extends HttpRequestHead {
  readonly request: Request;
}

function headOf(request: Request): FetchRequestHead {
  // An absolute URL: "scheme://authority/path?query".
  const url = request.url;
  const authorityStart = url.indexOf("//") + 2;
  let pathStart = url.indexOf("/", authorityStart);
  if (pathStart === -1) pathStart = url.length;
  const headers: Record<string, string> = {};
  // Lower-case names; a repeated field's values joined with ", " (RFC 9110 §5.3). A value
  // excludes the whitespace around it (§5.5): workerd passes it on as received, Node strips it.
  request.headers.forEach((value, name) => (headers[name] = value.trim()));
  // Platforms that keep the authority only in the URL (HTTP/2's :authority) still get a Host check.
  headers["host"] ??= url.slice(authorityStart, pathStart);
  return {
    method: request.method,
    url: url.slice(pathStart) || "/",
    headers: headers as RequestHeaderFields,
    request,
  };
}

/** Reads the body off the Request's stream within `limit` bytes and the budget `held` draws on. */
const readFetchBody: BodyReader<FetchRequestHead> = ({ request, headers }, limit, held, done) => {
  if (request.bodyUsed) return done(new BodyAlreadyRead("pass the Request before anything reads its body"), "");
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && (declared > limit || !held.growTo(declared))) {
    void request.body?.cancel().catch(() => {});
    return done(declared > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
  }
  if (!request.body) return done(undefined, "");
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const next = (): void => {
    reader.read().then(
      ({ done: ended, value }) => {
        if (ended) return finish();
        size += value.byteLength;
        if (size > limit || !held.growTo(size)) {
          void reader.cancel().catch(() => {});
          return done(size > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
        }
        chunks.push(value);
        next();
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error)), ""),
    );
  };
  const finish = (): void => {
    const bytes = chunks.length === 1 ? chunks[0]! : new Uint8Array(size);
    if (chunks.length !== 1) {
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
    }
    const text = utf8TextOfBytes(bytes);
    if (typeof text === "number") done(new BodyNotUtf8(text), "");
    else done(undefined, text);
  };
  next();
};

const encoder = new TextEncoder();

/** Response fields that the platform sets itself, or that HTTP/2 forbids. */
const PLATFORM_FIELDS = new Set(["content-length", "connection"]);

/**
 * What the handler writes, as a Response: a whole body when `end` comes first,
 * a ReadableStream when the head is flushed or a chunk written before it. The
 * stream's queue is what the client has not taken (writableLength), so a client
 * that does not read is cut as node's is.
 */
class ResponseSink implements HttpResponseSink {
  readonly response: Promise<Response>;
  destroyed = false;
  headersSent = false;
  writableEnded = false;
  private resolve!: (response: Response) => void;
  private status = 200;
  private readonly fields: Record<string, string> = {};
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** Listeners of `close`; undefined once it has fired. */
  private listeners: (() => void)[] | undefined = [];

  constructor() {
    this.response = new Promise((resolve) => (this.resolve = resolve));
  }

  get writableLength(): number {
    return this.controller ? Math.max(0, -(this.controller.desiredSize ?? 0)) : 0;
  }

  writeHead(status: number, headers?: Readonly<Record<string, string | number>>): this {
    this.status = status;
    if (headers)
      for (const name in headers)
        if (!PLATFORM_FIELDS.has(name.toLowerCase())) this.fields[name] = String(headers[name]);
    return this;
  }

  flushHeaders(): void {
    this.startStream();
  }

  write(chunk: string): boolean {
    if (this.writableEnded || this.destroyed) return false;
    this.startStream();
    this.controller!.enqueue(encoder.encode(chunk));
    return true;
  }

  end(chunk?: string): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    if (this.controller) {
      if (chunk && !this.destroyed) this.controller.enqueue(encoder.encode(chunk));
      if (!this.destroyed) this.controller.close();
    } else {
      this.headersSent = true;
      this.resolve(new Response(chunk || null, { status: this.status, headers: this.fields }));
    }
    this.closed();
    return this;
  }

  destroy(): this {
    if (this.destroyed) return this;
    if (this.controller && !this.writableEnded) this.controller.error(new Error("the response was cut"));
    this.abandon();
    return this;
  }

  /** The client is gone. */
  abandon(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (!this.headersSent) {
      this.headersSent = true;
      this.resolve(new Response(null, { status: 499 }));
    }
    this.closed();
  }

  once(_event: "close", listener: () => void): this {
    this.listeners?.push(listener);
    return this;
  }

  on(event: "close", listener: () => void): this {
    return this.once(event, listener);
  }

  private startStream(): void {
    if (this.controller) return;
    this.headersSent = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => (this.controller = controller),
        cancel: () => this.abandon(),
      },
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    this.resolve(new Response(body, { status: this.status, headers: this.fields }));
  }

  /** `close` fires once, after what triggered it (as node's does, on a later turn). */
  private closed(): void {
    const listeners = this.listeners;
    if (!listeners) return;
    this.listeners = undefined;
    queueMicrotask(() => {
      for (const listener of listeners) listener();
    });
  }
}
