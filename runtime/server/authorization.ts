// What a request's authorization means to the server (basic/authorization):
// the verified identity a transport attaches to a request, and the scopes a
// tool, resource or prompt needs. The checks of the token itself (signature,
// audience, expiry) are the transport's (transports/auth.ts); stdio has none
// ("retrieve credentials from the environment", basic/authorization#protocol-requirements).
import { ProtocolError } from "./errors.js";

/** The verified identity of a request's bearer token. Never holds the token. */
export interface AuthInfo {
  /** The token's subject (`sub`): the user or service it was issued for. */
  readonly subject?: string;
  /** The OAuth client it was issued to (`client_id`, else `azp`). */
  readonly clientId?: string;
  /** Its issuer (`iss`): one of the authorization servers the metadata names. */
  readonly issuer?: string;
  /** The scopes it grants. */
  readonly scopes: readonly string[];
  /** Expiry, seconds since the epoch. */
  readonly expiresAt?: number;
  /** Every claim, for what the fields above do not cover. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** A request's authorization as a transport attaches it to the request's channel. */
export interface Authorization {
  readonly info: AuthInfo;
  /**
   * The scopes of `needed` this authorization lacks, none when it has them all;
   * a broader scope may imply narrower ones (2026-07-28 basic/authorization#step-up-authorization-flow).
   */
  missing(needed: readonly string[]): readonly string[];
}

/**
 * Who a request's authorization says is calling: its issuer, subject and
 * client, as one string ("" without authorization). What a caller made (a
 * session, a task, a requestState) is bound to it, and refused to another.
 */
export function principalOf(authorization: Authorization | undefined): string {
  if (!authorization) return "";
  const { issuer = "", subject = "", clientId = "" } = authorization.info;
  return JSON.stringify([issuer, subject, clientId]);
}

/**
 * Whom the per-caller bounds (sessions, streams, tasks) count a principal
 * (principalOf) against: its subject at its issuer, whatever client it comes
 * through, since one user can register clients at will (RFC 7591 dynamic
 * registration); a principal without a subject, its client.
 */
export function boundedCallerOf(principal: string): string {
  if (principal === "") return "";
  const [issuer, subject] = JSON.parse(principal) as [string, string, string];
  return subject ? JSON.stringify([issuer, subject]) : principal;
}

/**
 * JSON-RPC code of a refused scope: implementation-defined (-32000..-32019,
 * 2026-07-28 basic/index#error-codes). Over HTTP the status (403) and the
 * WWW-Authenticate challenge carry the meaning.
 */
export const INSUFFICIENT_SCOPE = -32010;

/**
 * The token lacks a scope the operation needs. Over HTTP: 403 with
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="..."`
 * naming every scope the operation needs (basic/authorization#runtime-insufficient-scope-errors).
 */
export class InsufficientScopeError extends ProtocolError {
  override name = "InsufficientScopeError";
  constructor(
    /** Every scope the operation needs. */
    readonly scopes: readonly string[],
    what: string,
    missing: readonly string[],
  ) {
    super(INSUFFICIENT_SCOPE, `Forbidden: ${what} needs scope ${missing.join(" ")}, which the token lacks`, {
      requiredScopes: scopes,
    });
  }
}

/**
 * Throws InsufficientScopeError when `authorization` lacks one of `needed`;
 * without authorization (no auth configured) nothing is checked. Every path
 * that reveals a protected thing (a call, a read, a prompt, a completion, a
 * subscription) checks through here.
 */
export function requireScopes(
  authorization: Authorization | undefined,
  needed: readonly string[] | undefined,
  what: string,
): void {
  if (!authorization || !needed || needed.length === 0) return;
  const missing = authorization.missing(needed);
  if (missing.length > 0) throw new InsufficientScopeError(needed, what, missing);
}

/**
 * Whether a list shows an entry that needs `needed` to the caller: only when it
 * may use it (2026-07-28 basic/authorization/security-considerations#access-token-privilege-restriction:
 * no data to unauthorized parties). Without authorization everything is shown.
 */
export function allows(authorization: Authorization | undefined, needed: readonly string[] | undefined): boolean {
  return !authorization || !needed || needed.length === 0 || authorization.missing(needed).length === 0;
}

/** Whether a registration declares scopes (a list that shows it then depends on the caller). */
export function declaresScopes(scopes: readonly string[] | undefined): scopes is readonly string[] {
  return scopes !== undefined && scopes.length > 0;
}

/**
 * The caching hints of a list result: a list that some entries' scopes filter
 * per caller is "private" whatever the server's default, so that no cache shared
 * across tokens serves one caller's list to another
 * (server/utilities/caching#choosing-a-cache-scope).
 */
export function listCacheHint<H extends { readonly cacheScope: "public" | "private" }>(
  hint: H,
  authorization: Authorization | undefined,
  filtered: boolean,
): H {
  return authorization && filtered && hint.cacheScope !== "private" ? { ...hint, cacheScope: "private" } : hint;
}

// setTimeout's longest delay (2^31 - 1 ms, about 24.8 days); a later expiry is waited for in steps.
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * Calls `expired` once the request's token expires (`AuthInfo.expiresAt`), so
 * that what a long-lived stream delivers stops with the token that authorized
 * it; returns what cancels the wait. Nothing happens without an expiry.
 */
export function atExpiry(authorization: Authorization | undefined, expired: () => void): () => void {
  const expiresAt = authorization?.info.expiresAt;
  if (expiresAt === undefined || !Number.isFinite(expiresAt)) return () => {};
  let timer: ReturnType<typeof setTimeout>;
  const wait = (): void => {
    const left = expiresAt * 1000 - Date.now();
    // Never synchronously: the caller arms this before what `expired` ends is in place.
    timer = left <= 0 ? setTimeout(expired, 0) : setTimeout(wait, Math.min(left, LONGEST_TIMER_MS));
    (timer as { unref?: () => void }).unref?.();
  };
  wait();
  return () => clearTimeout(timer);
}

/** Checks the `scopes` option of a registration: non-empty strings without spaces (RFC 6749 §3.3 scope tokens). */
export function checkedScopes(scopes: readonly string[] | undefined, what: string): readonly string[] | undefined {
  if (scopes === undefined) return undefined;
  for (const scope of scopes)
    if (typeof scope !== "string" || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope))
      throw new TypeError(
        `${what}: invalid scope ${JSON.stringify(scope)} (RFC 6749 §3.3: printable ASCII, no space, " or \\)`,
      );
  return [...scopes];
}
