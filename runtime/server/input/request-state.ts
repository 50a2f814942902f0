// requestState of multi round-trip requests (2026-07-28 basic/patterns/mrtr):
// the state a server hands the client with an InputRequiredResult and gets
// back on the retry. The client is not trusted with it ("servers MUST treat
// requestState as an attacker-controlled input ... MUST protect its integrity
// ... MUST reject state that fails verification"), so it is signed with
// HMAC-SHA256 and carries what the prose says to verify on receipt: a short
// expiry and the originating request (method and a digest of its parameters).
// It is signed, not encrypted: the client can read it, so it must never hold
// secrets.
import { nodeCrypto } from "../../node-crypto.js";

/** A requestState key: a string (its UTF-8 bytes) or bytes; at least 16 bytes. */
export type RequestStateKey = string | Uint8Array;

/**
 * Keys that may change while the server runs, e.g. shared by several
 * processes (mcpgen/redis `requestStateKeys()`). Read on every seal and open,
 * so `current()` answers from memory.
 */
export interface RequestStateKeySource {
  /** The keys now: the first signs, every one verifies. Return the same array while they do not change. */
  current(): readonly RequestStateKey[];
  /** A requestState matched none of the keys: perhaps signed with one this process has not seen yet. */
  missed?(): void;
  /** Told how long this server accepts a requestState (ttlMs), so that a retired key is kept at least that long. */
  accepting?(ttlMs: number): void;
}

export interface RequestStateOptions {
  /**
   * HMAC keys: the first signs, every one verifies (so keys can rotate); or a
   * source whose keys change over time (mcpgen/redis `requestStateKeys()`).
   * Default: 32 random bytes made at start, which only this process knows;
   * several server processes serving the same clients must share a key.
   */
  keys?: readonly RequestStateKey[] | RequestStateKeySource;
  /** How long a requestState is accepted after it was issued. Default 10 minutes. */
  ttlMs?: number;
  /** Largest requestState accepted, in bytes. Default 256 KiB. */
  maxBytes?: number;
  /** Rounds one request may take before it is refused. Default 16. */
  maxRounds?: number;
}

/** What a requestState holds. */
export interface StatePayload {
  /** The method of the request it belongs to. */
  readonly m: string;
  /** A digest of the request's parameters (requestDigest). */
  readonly d: string;
  /** Expiry, ms since the epoch. */
  readonly x: number;
  /** The answers collected in earlier rounds, by input request key. */
  readonly a: { readonly [key: string]: unknown };
  /** The handler's own state, if it set one. */
  readonly s?: unknown;
  /** The round this state leads into (1 after the first InputRequiredResult). */
  readonly n: number;
  /** A digest of the caller's principal (principalOf), when the request was authorized. */
  readonly p?: string;
}

const VERSION = "v1";

export class RequestStateCodec {
  readonly ttlMs: number;
  readonly maxBytes: number;
  readonly maxRounds: number;
  private givenKeys: readonly Buffer[] | undefined;
  private readonly source: RequestStateKeySource | undefined;
  /** The source's keys as last read, and their bytes. */
  private sourced: { from: readonly RequestStateKey[]; keys: readonly Buffer[] } | undefined;

  constructor(options: RequestStateOptions = {}) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.maxBytes = options.maxBytes ?? 256 * 1024;
    this.maxRounds = options.maxRounds ?? 16;
    const keys = options.keys;
    if (keys !== undefined && !isKeyList(keys)) {
      this.source = keys;
      keys.accepting?.(this.ttlMs);
    } else if (keys !== undefined) this.givenKeys = keyBytes(keys);
  }

  /** The keys; the default one is made when first needed, so a server that never signs loads no crypto. */
  private get keys(): readonly Buffer[] {
    if (this.source === undefined) return (this.givenKeys ??= [nodeCrypto().randomBytes(32)]);
    const now = this.source.current();
    if (this.sourced?.from !== now) this.sourced = { from: now, keys: keyBytes(now) };
    return this.sourced.keys;
  }

  /** Signs a payload: `v1.<base64url JSON>.<base64url HMAC>`. */
  seal(payload: StatePayload): string {
    const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
    return `${VERSION}.${body}.${mac(this.keys[0]!, body)}`;
  }

  /**
   * Verifies a requestState against the request it came back with; the reason
   * names what failed (never which key or what the digest should have been).
   */
  open(
    token: string,
    method: string,
    digest: string,
    principal = "",
    now = Date.now(),
  ): { ok: true; payload: StatePayload } | { ok: false; reason: string } {
    if (token.length > this.maxBytes)
      return { ok: false, reason: `requestState is longer than ${this.maxBytes} bytes` };
    const [version, body, signature, extra] = token.split(".");
    if (version !== VERSION || body === undefined || signature === undefined || extra !== undefined)
      return { ok: false, reason: "requestState is not one this server issued" };
    const given = Buffer.from(signature, "base64url");
    const valid = this.keys.some((key) => {
      const expected = Buffer.from(mac(key, body), "base64url");
      return expected.length === given.length && nodeCrypto().timingSafeEqual(expected, given);
    });
    if (!valid) {
      this.source?.missed?.();
      return { ok: false, reason: "requestState failed verification (tampered, or signed with another key)" };
    }
    let payload: StatePayload;
    try {
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as StatePayload;
    } catch {
      return { ok: false, reason: "requestState is not one this server issued" };
    }
    if (typeof payload.x !== "number" || now > payload.x) return { ok: false, reason: "requestState has expired" };
    if (payload.m !== method || payload.d !== digest)
      return { ok: false, reason: "requestState belongs to another request" };
    // mrtr#security: bound to the authenticated principal, "rejecting state presented by a different principal".
    if ((payload.p ?? "") !== principal) return { ok: false, reason: "requestState belongs to another caller" };
    if (typeof payload.n !== "number" || payload.n >= this.maxRounds)
      return { ok: false, reason: `the request took more than ${this.maxRounds} rounds` };
    return { ok: true, payload };
  }
}

function isKeyList(keys: readonly RequestStateKey[] | RequestStateKeySource): keys is readonly RequestStateKey[] {
  return Array.isArray(keys);
}

/** The bytes of each key; throws TypeError for an empty list or a key under 16 bytes. */
function keyBytes(keys: readonly RequestStateKey[]): Buffer[] {
  if (keys.length === 0) throw new TypeError("requestState needs at least one key");
  const bytes = keys.map((k) => (typeof k === "string" ? Buffer.from(k, "utf8") : Buffer.from(k)));
  for (const key of bytes) if (key.length < 16) throw new TypeError("a requestState key must have at least 16 bytes");
  return bytes;
}

function mac(key: Buffer, body: string): string {
  return nodeCrypto().createHmac("sha256", key).update(body).digest("base64url");
}

/**
 * A digest of a request's salient parameters: everything but `_meta`,
 * `inputResponses` and `requestState`, which differ between the first attempt
 * and its retries. Keys are sorted, so a client that re-serializes the same
 * parameters in another order still matches.
 */
export function requestDigest(params: unknown): string {
  const hash = nodeCrypto().createHash("sha256");
  if (params !== null && typeof params === "object" && !Array.isArray(params)) {
    const rest = { ...(params as Record<string, unknown>) };
    delete rest["_meta"];
    delete rest["inputResponses"];
    delete rest["requestState"];
    hash.update(canonical(rest));
  } else hash.update(canonical(params));
  return hash.digest("base64url");
}

/** Text written as it is by canonical(), between the values it walks. */
class Literal {
  constructor(readonly text: string) {}
}
const COMMA = new Literal(",");
const CLOSE_ARRAY = new Literal("]");
const CLOSE_OBJECT = new Literal("}");

/**
 * JSON with object keys sorted. Iterative: params nest as deep as the client
 * wrote them (JSON.parse takes any depth), and recursing would end the
 * process with a RangeError on a line of a few tens of kilobytes.
 */
function canonical(root: unknown): string {
  let out = "";
  const work: unknown[] = [root];
  while (work.length > 0) {
    const value = work.pop();
    if (value instanceof Literal) {
      out += value.text;
    } else if (Array.isArray(value)) {
      out += "[";
      work.push(CLOSE_ARRAY);
      for (let i = value.length - 1; i >= 0; i--) {
        work.push(value[i]);
        if (i > 0) work.push(COMMA);
      }
    } else if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      out += "{";
      work.push(CLOSE_OBJECT);
      for (let i = keys.length - 1; i >= 0; i--) {
        work.push(record[keys[i]!]);
        work.push(new Literal(`${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:`));
      }
    } else out += JSON.stringify(value) ?? "null";
  }
  return out;
}

/** What a requestState keeps of a principal (principalOf): a digest, so the client's token does not spell it out. */
export function principalDigest(principal: string): string {
  return principal === "" ? "" : nodeCrypto().createHash("sha256").update(principal).digest("base64url").slice(0, 22);
}
