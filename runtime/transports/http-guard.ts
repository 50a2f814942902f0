// What the HTTP transports check before any MCP message is read: DNS
// rebinding (Host and Origin against allow-lists, basic/transports#security-warning),
// the size of a request body, and the bytes of all the bodies held at once.
import type { HttpRequestHead } from "./http-wire.js";

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

  constructor(bindHost: string, options: GuardOptions) {
    const local = isLoopback(bindHost);
    this.hosts = (options.allowedHosts ?? (local ? LOOPBACK_NAMES : undefined))?.map((h) => h.toLowerCase());
    this.origins = (
      options.allowedOrigins ?? (local ? LOOPBACK_NAMES.flatMap((h) => [`http://${h}`, `https://${h}`]) : [])
    ).map((o) => o.toLowerCase());
  }

  refusal(request: HttpRequestHead): string | undefined {
    const host = request.headers.host;
    if (this.hosts) {
      if (host === undefined) return "the Host header is missing";
      if (!matchesHost(host.toLowerCase(), this.hosts)) return `Host ${host} is not allowed`;
    }
    const origin = request.headers.origin;
    // Requests from non-browser clients carry no Origin; a present one must be allowed.
    if (origin !== undefined && !matchesOrigin(origin.toLowerCase(), this.origins))
      return `Origin ${origin} is not allowed`;
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

  /** Gives the share back (again: nothing). */
  release(): void {
    this.budget.release(this.bytes);
    this.bytes = 0;
  }
}
