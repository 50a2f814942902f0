// What the HTTP transport reads of a request and writes of a response, as
// structural types: node:http's IncomingMessage and ServerResponse have these
// members, and the fetch handler (fetch.ts) implements them over a web Request
// and Response. The protocol rules (http-handler.ts and the endpoints behind
// it) see only these, so that both adapters share one implementation.

/** A request's header fields: lower-case names, a repeated field as node:http gives it. */
export interface RequestHeaderFields {
  readonly [name: string]: string | string[] | undefined;
  readonly host?: string | undefined;
  readonly origin?: string | undefined;
  readonly accept?: string | undefined;
  readonly authorization?: string | undefined;
  readonly "content-type"?: string | undefined;
  readonly "content-length"?: string | undefined;
}

/** A request's line and headers. */
export interface HttpRequestHead {
  readonly method?: string | undefined;
  /** The path and query, e.g. "/messages?sessionId=...". */
  readonly url?: string | undefined;
  readonly headers: RequestHeaderFields;
  /**
   * Each field's lines apart (node:http's): a second Authorization line is refused, where
   * `headers` keeps only the first. A fetch Request joins repeated lines with ", " instead.
   */
  readonly headersDistinct?: Readonly<Record<string, string[] | undefined>>;
}

/**
 * A response being written: a head (status and fields), then a whole body
 * (`end`) or a stream of chunks (`flushHeaders`, `write`, `end`). `close` fires
 * once the exchange is over, answered or abandoned by the client.
 */
export interface HttpResponseSink {
  /** The client is gone (or the response was cut): nothing written reaches it. */
  readonly destroyed: boolean;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  /** Bytes written that the client has not taken yet. */
  readonly writableLength: number;
  writeHead(status: number, headers?: Readonly<Record<string, string | number>>): this;
  /** Sends the head now: a stream's body follows. */
  flushHeaders(): void;
  write(chunk: string): boolean;
  end(chunk?: string): this;
  /** Cuts the response (a client that does not read). */
  destroy(): this;
  once(event: "close", listener: () => void): this;
  on(event: "close", listener: () => void): this;
}

/**
 * Reads a request's body within `limit` bytes and what `held` has room for;
 * calls `done` once, with the text or with why not (BodyTooLarge, BodiesHeld,
 * BodyNotUtf8, BodyAlreadyRead, or the stream's error).
 */
export type BodyReader<Request> = (
  request: Request,
  limit: number,
  held: { growTo(total: number): boolean; readonly budgetLimit: number },
  done: (error: Error | undefined, text: string) => void,
) => void;

/**
 * The body stream was read before the transport got the request (a body
 * parser in front of it) and no parsed body was handed over: reading it would
 * wait forever.
 */
export class BodyAlreadyRead extends Error {
  constructor(
    /** What to do instead, for the adapter at hand. */
    remedy: string,
  ) {
    super(`the request body was already read before the MCP transport got the request; ${remedy}`);
  }
}

/** Reads a POST's body as one JSON value and the length of its text (or answers the error itself). */
export type MessageReader = (
  request: HttpRequestHead,
  response: HttpResponseSink,
  then: (message: unknown, length: number) => void,
) => void;
