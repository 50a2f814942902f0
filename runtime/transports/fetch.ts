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
import { nodeBodyReader, type NodeRequest } from "./http-node-body.js";
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

/** Each fetch handler's exchanges over node:http's request and response, for toNodeListener. */
const nodeEntries = new WeakMap<FetchHandler, NodeListener>();

/** Serves `server` as a fetch handler: `export default { fetch: createFetchHandler(server, options) }`. */
export function createFetchHandler(server: McpServer, options: FetchHandlerOptions = {}): FetchHandler {
  const handler = new McpHttpHandler<FetchRequestHead | NodeRequest>(server, options, (request, ...rest) =>
    "request" in request ? readFetchBody(request, ...rest) : readNodeBody(request as NodeRequest, ...rest),
  );
  const fetch = (request: Request, info?: DeliveryInfo): Promise<Response> => {
    const response = new ResponseSink();
    const head = headOf(request);
    // The client went away: what is in flight for it is cancelled as a closed connection's is.
    // Deno also aborts request.signal after a delivered response, and warns once where code
    // read that signal: there, an undelivered response (`completed` rejecting) is the sign.
    const completed = info?.completed;
    if (completed instanceof Promise) completed.catch(() => response.abandon());
    // Elsewhere request.signal says it, watched once the body is read and only if the answer is still
    // to come: an answer given at once (a synchronous tool) needs no watch.
    else
      head.bodyRead = () => {
        if (response.writableEnded || response.destroyed) return;
        const signal = request.signal;
        if (signal.aborted) response.abandon();
        else signal.addEventListener("abort", () => response.abandon(), { once: true });
      };
    handler.handle(head, response);
    if (!head.bodyPending) head.bodyRead?.();
    return response.response;
  };
  const fetchHandler = Object.defineProperties(fetch, {
    sessionCount: { get: () => handler.sessionCount },
    close: { value: () => handler.close() },
  }) as FetchHandler;
  nodeEntries.set(fetchHandler, (request, response, parsedBody) => handler.handle(request, response, parsedBody));
  return fetchHandler;
}

/** A node:http request listener; Express passes `next` third, which is not a body. */
export type NodeListener = (request: NodeRequest, response: HttpResponseSink, parsedBody?: unknown) => void;

/**
 * Serves a fetch handler from createFetchHandler on node:http (or a framework
 * handing over node's request and response): `createServer(toNodeListener(handler))`.
 * The exchanges go to node's request and response as serveHttp's do, with no
 * web Request or Response built between; the sessions are the handler's own.
 * Behind a body parser, pass what it parsed: `listener(req, res, req.body)`.
 */
export function toNodeListener(handler: FetchHandler): NodeListener {
  const serve = nodeEntries.get(handler);
  if (!serve)
    throw new TypeError(
      "toNodeListener serves a handler made by createFetchHandler; put another fetch handler behind a bridge such as @hono/node-server's",
    );
  return (request, response, parsedBody) =>
    serve(request, response, typeof parsedBody === "function" ? undefined : parsedBody);
}

const readNodeBody = nodeBodyReader(
  "a body parser such as express.json() ran first: pass the body it parsed, listener(req, res, req.body)",
);

/** A Request as the handler reads it, with its body stream. */
interface FetchRequestHead extends HttpRequestHead {
  readonly request: Request;
  /** Set while the body is being read. */
  bodyPending?: boolean;
  /** Called once the body has been read (or refused) and handed over. */
  bodyRead?: () => void;
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

/**
 * Reads the body within `limit` bytes and the budget `held` draws on: whole when its length is
 * declared (HTTP/1.1 frames the body by it, so the platform reads no more), else off the stream,
 * counted as it comes.
 */
const readFetchBody: BodyReader<FetchRequestHead> = (head, limit, held, done) => {
  const { request, headers } = head;
  if (request.bodyUsed) return done(new BodyAlreadyRead("pass the Request before anything reads its body"), "");
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && (declared > limit || !held.growTo(declared))) {
    void request.body?.cancel().catch(() => {});
    return done(declared > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
  }
  head.bodyPending = true;
  const handOver = (error: Error | undefined, text: string): void => {
    done(error, text);
    head.bodyRead?.();
  };
  const failed = (error: unknown) => handOver(error instanceof Error ? error : new Error(String(error)), "");
  /** The body's bytes, decoded; or why not (a Request made in process may carry more than it declares). */
  const finish = (bytes: Uint8Array): void => {
    if (bytes.byteLength > limit || !held.growTo(bytes.byteLength))
      return handOver(bytes.byteLength > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
    const text = utf8TextOfBytes(bytes);
    if (typeof text === "number") handOver(new BodyNotUtf8(text), "");
    else handOver(undefined, text);
  };
  if (Number.isFinite(declared)) {
    request.arrayBuffer().then((buffer) => finish(new Uint8Array(buffer)), failed);
    return;
  }
  if (!request.body) return handOver(undefined, "");
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const next = (): void => {
    reader.read().then(({ done: ended, value }) => {
      if (ended) return finish(joined(chunks, size));
      size += value.byteLength;
      if (size > limit || !held.growTo(size)) {
        void reader.cancel().catch(() => {});
        return handOver(size > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
      }
      chunks.push(value);
      next();
    }, failed);
  };
  next();
};

/** The chunks as one array of `size` bytes. */
function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

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
