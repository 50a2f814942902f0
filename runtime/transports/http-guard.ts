// What the HTTP transports check before any MCP message is read: DNS
// rebinding (Host and Origin against allow-lists, basic/transports#security-warning)
// and the size of a request body.
import type { IncomingMessage } from "node:http";

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

/**
 * Reads a request body, refusing one larger than `limit` bytes without
 * buffering past it; `done` is called once, with the text or with why not
 * (BodyTooLarge, or the stream's error). A callback, not a promise: every
 * POST takes this path, and a promise and its awaiting costs microtask turns
 * and allocations per request.
 */
export function readBody(
  request: IncomingMessage,
  limit: number,
  done: (error: Error | undefined, text: string) => void,
): void {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume(); // drain what the client sends; the reply says why
    done(new BodyTooLarge(limit), "");
    return;
  }
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  request.on("data", (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > limit) {
      settled = true;
      first = chunks = undefined;
      done(new BodyTooLarge(limit), "");
      return;
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  });
  request.on("end", () => {
    if (settled) return;
    settled = true;
    done(undefined, chunks ? Buffer.concat(chunks).toString("utf8") : (first?.toString("utf8") ?? ""));
  });
  request.on("error", (error) => {
    if (settled) return;
    settled = true;
    done(error, "");
  });
}
