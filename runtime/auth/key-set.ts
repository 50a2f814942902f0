// The authorization server's key set (JWKS) as jwtVerifier fetches and keeps
// it: jose's createLocalJWKSet over the last set fetched, refetched when it
// is older than its lifetime or a token names a key it lacks. What jose's own
// remote set does not do, and a resource server needs when the authorization
// server is down: tell "cannot check now" (503) from "bad token" (401), fetch
// at most once per retry interval while fetches fail, keep using the last good
// set for a grace period, and log an outage once when it starts and once when it ends.
import { createLocalJWKSet, errors, type FlattenedJWSInput, type JWSHeaderParameters } from "jose";
import { VerifierUnavailableError, type TokenVerifierContext } from "../transports/auth.js";

export interface KeySetTiming {
  /** A set older than this is fetched again. */
  readonly maxAgeMs: number;
  /** A token naming a key the set lacks fetches it again, at most this often (a key rotated in). */
  readonly cooldownMs: number;
  /** A fetch that takes longer fails. */
  readonly timeoutMs: number;
  /** While fetches fail, at most one fetch this often. */
  readonly retryMs: number;
  /** While fetches fail, the last good set is used this long past its lifetime (maxAgeMs). */
  readonly graceMs: number;
}

type LocalKeySet = ReturnType<typeof createLocalJWKSet>;

/** A run of failed fetches. */
interface Outage {
  readonly since: number;
  reason: string;
  fetches: number;
}

export class RemoteKeySet {
  private keys: LocalKeySet | undefined;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private pending: Promise<void> | undefined;
  private outage: Outage | undefined;

  constructor(
    private readonly url: URL,
    private readonly timing: KeySetTiming,
  ) {}

  /** The key that verifies a token with this header: a jose key resolver, given the request's context for logging. */
  async key(
    header: JWSHeaderParameters | undefined,
    token: FlattenedJWSInput | undefined,
    context: TokenVerifierContext,
  ) {
    if (this.keys === undefined || Date.now() >= this.fetchedAt + this.timing.maxAgeMs) {
      await this.refresh(context);
      if (this.keys === undefined || Date.now() >= this.fetchedAt + this.timing.maxAgeMs + this.timing.graceMs)
        throw this.unavailable();
    }
    try {
      return await this.keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      // A key the set lacks: one rotated in since the last fetch, or none at all (401). Fetched just now: none.
      if (this.outage === undefined && Date.now() < this.fetchedAt + this.timing.cooldownMs) throw error;
      await this.refresh(context);
      // The set cannot be fetched: whether the key is the authorization server's is unknown, not false.
      if (this.outage !== undefined) throw this.unavailable();
      return await this.keys(header, token);
    }
  }

  /** Fetches the set, one fetch for all callers at once, and none while the last failed less than retryMs ago. Never rejects. */
  private refresh(context: TokenVerifierContext): Promise<void> {
    if (this.pending) return this.pending;
    if (this.outage !== undefined && Date.now() < this.lastAttempt + this.timing.retryMs) return Promise.resolve();
    this.lastAttempt = Date.now();
    this.pending = this.fetchSet().then(
      (keys) => this.fetched(keys, context),
      (error: unknown) => this.failed(error, context),
    );
    return this.pending;
  }

  private async fetchSet(): Promise<LocalKeySet> {
    const response = await fetch(this.url, {
      headers: { Accept: "application/json, application/jwk-set+json" },
      // A redirect is answered as any status but 200 is: the set is where the metadata says.
      redirect: "manual",
      signal: AbortSignal.timeout(this.timing.timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      throw new Error(`the response (${response.headers.get("content-type") ?? "no content type"}) is not JSON`);
    }
    return createLocalJWKSet(json as Parameters<typeof createLocalJWKSet>[0]); // throws JWKSInvalid for anything but a key set
  }

  private fetched(keys: LocalKeySet, context: TokenVerifierContext): void {
    this.pending = undefined;
    this.keys = keys;
    this.fetchedAt = Date.now();
    if (this.outage === undefined) return;
    const { since, fetches } = this.outage;
    this.outage = undefined;
    const seconds = ((Date.now() - since) / 1000).toFixed(1);
    context.log(
      "warning",
      `the key set at ${this.url.href} was fetched again after ${seconds} s (${fetches} failed fetches)`,
    );
  }

  private failed(error: unknown, context: TokenVerifierContext): void {
    this.pending = undefined;
    const reason = describe(error);
    if (this.outage !== undefined) {
      this.outage.reason = reason;
      this.outage.fetches++;
      return;
    }
    this.outage = { since: Date.now(), reason, fetches: 1 };
    const until = this.keys
      ? `tokens are checked against the set fetched ${((Date.now() - this.fetchedAt) / 1000).toFixed(0)} s ago for up to ${Math.max(0, Math.round((this.fetchedAt + this.timing.maxAgeMs + this.timing.graceMs - Date.now()) / 1000))} s more, then answered 503`
      : "requests are answered 503";
    context.log("warning", `the key set at ${this.url.href} cannot be fetched (${reason}); ${until}`);
  }

  private unavailable(): VerifierUnavailableError {
    const wait = this.lastAttempt + this.timing.retryMs - Date.now();
    return new VerifierUnavailableError(
      `the key set at ${this.url.href} cannot be fetched (${this.outage?.reason ?? "not fetched yet"})`,
      Math.max(1, Math.ceil(wait / 1000)),
    );
  }
}

/** Why a fetch failed, in a few words (fetch's own errors put the reason in `cause`). */
function describe(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return "timed out";
  if (error instanceof errors.JWKSInvalid) return "the response is not a JSON Web Key Set";
  if (error instanceof Error && error.cause instanceof Error) {
    const code = (error.cause as { code?: unknown }).code;
    return typeof code === "string" ? code : error.cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
