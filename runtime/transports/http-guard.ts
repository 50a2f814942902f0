// What the HTTP transports check before any MCP message is read: DNS
// rebinding (Host and Origin against allow-lists, basic/transports#security-warning),
// the size of a request body, and the bytes of all the bodies held at once.
import type { IncomingMessage } from "node:http";
import { keepHiddenClass } from "../hidden-classes.js";
import { utf8Text } from "../utf8.js";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

export function isLoopback(host: string): boolean {
  return ["localhost", "127.0.0.1", "::1", "[::1]"].includes(host.toLowerCase());
}

export interface GuardOptions {
  /** Host names (optionally with ":port") requests may address. Default: the loopback names when bound to loopback, else any. */
  allowedHosts?: readonly string[];
  /** Origins (scheme://host[:port], or scheme://host for any port) browsers may send. Default: loopback origins when bound to loopback, else none. */
  allowedOrigins?: readonly string[];
}

/** Checks Host and Origin; returns why a request is refused, or undefined. */
export class RebindingGuard {
  private readonly hosts: readonly string[] | undefined;
  private readonly origins: readonly string[];
  /** The last Host and Origin values allowed: a client sends the same ones with every request. */
  private lastHost: string | undefined;
  private lastOrigin: string | undefined;

  constructor(bindHost: string, options: GuardOptions) {
    const local = isLoopback(bindHost);
    this.hosts = (options.allowedHosts ?? (local ? LOOPBACK_NAMES : undefined))?.map((h) => h.toLowerCase());
    this.origins = (
      options.allowedOrigins ?? (local ? LOOPBACK_NAMES.flatMap((h) => [`http://${h}`, `https://${h}`]) : [])
    ).map((o) => o.toLowerCase());
  }

  refusal(request: IncomingMessage): string | undefined {
    const host = request.headers.host;
    if (this.hosts && (host === undefined || host !== this.lastHost)) {
      if (host === undefined) return "the Host header is missing";
      if (!matchesHost(host.toLowerCase(), this.hosts)) return `Host ${host} is not allowed`;
      this.lastHost = host;
    }
    const origin = request.headers.origin;
    // Requests from non-browser clients carry no Origin; a present one must be allowed.
    if (origin !== undefined && origin !== this.lastOrigin) {
      if (!matchesOrigin(origin.toLowerCase(), this.origins)) return `Origin ${origin} is not allowed`;
      this.lastOrigin = origin;
    }
    return undefined;
  }
}

/** "localhost:3000" matches "localhost" (any port) and "localhost:3000". */
function matchesHost(host: string, allowed: readonly string[]): boolean {
  return allowed.includes(host) || allowed.includes(withoutPort(host));
}

function matchesOrigin(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes(origin)) return true;
  const schemeEnd = origin.indexOf("://");
  if (schemeEnd === -1) return false;
  return allowed.includes(origin.slice(0, schemeEnd + 3) + withoutPort(origin.slice(schemeEnd + 3)));
}

function withoutPort(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1); // [::1]:3000
  const colon = host.lastIndexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the body exceeds ${limit} bytes`);
  }
}

/** The body is not UTF-8 (basic/transports: messages "MUST be UTF-8 encoded"), from its byte `offset` on. */
export class BodyNotUtf8 extends Error {
  constructor(readonly offset: number) {
    super(`not UTF-8 at byte offset ${offset}`);
  }
}

/** The transport holds its limit of body bytes already (HttpOptions.maxHeldBodyBytes). */
export class BodiesHeld extends Error {
  constructor(readonly limit: number) {
    super(`the server holds its limit of ${limit} bytes of request bodies already`);
  }
}

/**
 * The bytes of request bodies a transport holds at once: being read, or read
 * and not yet answered (the message is with a handler). Each body is bounded
 * (maxBodyBytes), but a client can send many at once, on as many connections
 * as it likes, to handlers that take their time; this bounds their sum.
 */
export class BodyBudget {
  private held = 0;

  constructor(readonly limit: number) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

  /** Holds `bytes` more, or nothing and false when that would pass the limit. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.held -= bytes;
  }
}

/**
 * One request's share of a BodyBudget: what its body took as it was read,
 * given back once, when its exchange ends (the response's `close`, which
 * comes however the exchange ends: answered, refused or abandoned).
 */
export class HeldBody {
  bytes = 0;

  constructor(private readonly budget: BodyBudget) {}

  get budgetLimit(): number {
    return this.budget.limit;
  }

  /** Holds the body's first `total` bytes (it holds fewer so far); false when the budget has no room. */
  growTo(total: number): boolean {
    if (total <= this.bytes) return true;
    if (!this.budget.take(total - this.bytes)) return false;
    this.bytes = total;
    return true;
  }

  /** Gives the share back (again: nothing); bound, to be the response's `close` listener. */
  readonly release: () => void = this.giveBack.bind(this);

  private giveBack(): void {
    this.budget.release(this.bytes);
    this.bytes = 0;
  }
}

/**
 * Reads a request body, refusing one larger than `limit` bytes without
 * buffering past it, or one that `held` has no room for (a declared length is
 * taken at once, a chunked body as it comes); `done` is called once, with the
 * text or with why not (BodyTooLarge, BodiesHeld, BodyNotUtf8, or the stream's error).
 * A callback, not a promise: every POST takes this path, and a promise and its
 * awaiting costs microtask turns and allocations per request.
 */
export function readBody(
  request: IncomingMessage,
  limit: number,
  held: HeldBody,
  done: (error: Error | undefined, text: string) => void,
): void {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && (declared > limit || !held.growTo(declared))) {
    request.resume(); // drain what the client sends; the reply says why
    done(declared > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
    return;
  }
  const reader = new BodyReader(limit, held, done);
  request.on("data", reader.data);
  request.on("end", reader.end);
  request.on("error", reader.error);
}

/**
 * One body being read: its chunks so far, and the listeners that take them.
 * Bound methods, not closures made per request (runtime/hidden-classes.ts).
 */
class BodyReader {
  private first: Buffer | undefined = undefined;
  private chunks: Buffer[] | undefined = undefined;
  private size = 0;
  private settled = false;
  readonly data: (chunk: Buffer) => void = this.onData.bind(this);
  readonly end: () => void = this.onEnd.bind(this);
  readonly error: (error: Error) => void = this.onError.bind(this);

  constructor(
    private readonly limit: number,
    private readonly held: HeldBody,
    private readonly done: (error: Error | undefined, text: string) => void,
  ) {}

  private onData(chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size > this.limit || !this.held.growTo(this.size)) {
      this.settled = true;
      this.first = this.chunks = undefined;
      this.done(this.size > this.limit ? new BodyTooLarge(this.limit) : new BodiesHeld(this.held.budgetLimit), "");
      return;
    }
    if (this.first === undefined) this.first = chunk;
    else (this.chunks ??= [this.first]).push(chunk);
  }

  private onEnd(): void {
    if (this.settled) return;
    this.settled = true;
    const text = this.first === undefined ? "" : utf8Text(this.chunks ? Buffer.concat(this.chunks) : this.first);
    if (typeof text === "number") this.done(new BodyNotUtf8(text), "");
    else this.done(undefined, text);
  }

  private onError(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.done(error, "");
  }
}

// Made per POST and dropped after (runtime/hidden-classes.ts).
keepHiddenClass(new HeldBody(undefined as never));
keepHiddenClass(new BodyReader(0, undefined as never, () => {}));
