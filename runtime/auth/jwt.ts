// mcpgen/jwt: a TokenVerifier for JWT access tokens (RFC 9068) signed by an
// authorization server whose keys are published as a JWKS. It uses jose
// (signature algorithms, JWKS fetching with caching and key rotation, JOSE's
// many pitfalls such as `alg: none`), kept out of the runtime's own
// dependencies: only a server that imports "mcpgen/jwt" needs it installed.
import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import type { AuthInfo } from "../server/authorization.js";
import {
  InvalidTokenError,
  canonicalResource,
  type TokenVerifier,
  type TokenVerifierContext,
} from "../transports/auth.js";
import { RemoteKeySet } from "./key-set.js";

export interface JwtVerifierOptions {
  /** Accepted `iss` values: the authorization servers' issuer identifiers. */
  issuer: string | readonly string[];
  /**
   * The server's canonical URI: `aud` must name it (RFC 8707; basic/authorization#token-handling:
   * "MCP servers MUST only accept tokens that are valid for use with their own resources").
   */
  audience: string;
  /** Where the authorization server publishes its keys (its metadata's jwks_uri). */
  jwksUrl?: string | URL;
  /** The keys themselves, instead of a URL. */
  jwks?: JSONWebKeySet;
  /** Accepted signature algorithms. Default: the asymmetric ones jose supports (never "none"). */
  algorithms?: readonly string[];
  /** Clock skew allowed for exp and nbf, in seconds. Default 30. */
  clockToleranceSec?: number;
  /** Required `typ` header, e.g. "at+jwt" (RFC 9068 §2.1). Default: not checked, as many servers omit it. */
  typ?: string;
  /** The key set fetched from jwksUrl is fetched again once it is this old. Default 10 min. */
  jwksMaxAgeMs?: number;
  /** A token naming a key the set lacks (a key rotated in) fetches the set again at most this often. Default 30 s. */
  jwksCooldownMs?: number;
  /** A fetch of the key set taking longer fails. Default 5 s. */
  jwksTimeoutMs?: number;
  /** While fetches of the key set fail, at most one fetch this often; requests in between get 503 with Retry-After. Default 5 s. */
  jwksRetryMs?: number;
  /**
   * While fetches of the key set fail, the last set fetched is still used this long past
   * jwksMaxAgeMs, so that an outage of the authorization server does not refuse valid tokens;
   * past it, requests get 503. Default 10 min.
   */
  jwksGraceMs?: number;
}

const ASYMMETRIC = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

/** jose's errors that say what is wrong with the token itself; any other is the verifier's (503). */
const TOKEN_ERRORS = [
  errors.JWTExpired,
  errors.JWTClaimValidationFailed,
  errors.JWTInvalid,
  errors.JWSInvalid,
  errors.JWSSignatureVerificationFailed,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
];

/** Where the key set's outages are told when the verifier is called outside a transport. */
const STDERR: TokenVerifierContext = {
  log: (level, message) => void process.stderr.write(`mcpgen/jwt ${level}: ${message}\n`),
};

/** A verifier of JWT access tokens: signature by a key of the set, issuer, audience, expiry. */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  if ((options.jwksUrl === undefined) === (options.jwks === undefined))
    throw new TypeError("jwtVerifier needs exactly one of jwksUrl and jwks");
  const local = options.jwks !== undefined ? createLocalJWKSet(options.jwks) : undefined;
  const remote =
    options.jwksUrl !== undefined
      ? new RemoteKeySet(new URL(String(options.jwksUrl)), {
          maxAgeMs: options.jwksMaxAgeMs ?? 10 * 60_000,
          cooldownMs: options.jwksCooldownMs ?? 30_000,
          timeoutMs: options.jwksTimeoutMs ?? 5_000,
          retryMs: options.jwksRetryMs ?? 5_000,
          graceMs: options.jwksGraceMs ?? 10 * 60_000,
        })
      : undefined;
  const audience = canonicalResource(options.audience);
  const issuers = typeof options.issuer === "string" ? [options.issuer] : [...options.issuer];
  return async (token, context) => {
    let payload: JWTPayload;
    try {
      const keys = local ?? ((header, input) => remote!.key(header, input, context ?? STDERR));
      ({ payload } = await jwtVerify(token, keys, {
        issuer: issuers,
        algorithms: [...(options.algorithms ?? ASYMMETRIC)],
        clockTolerance: options.clockToleranceSec ?? 30,
        requiredClaims: ["exp"],
        ...(options.typ ? { typ: options.typ } : {}),
      }));
    } catch (error) {
      // What is wrong with the token is the client's problem (401); anything else (a key set that
      // cannot be fetched: VerifierUnavailableError) is the server's (the transport answers 503).
      if (TOKEN_ERRORS.some((kind) => error instanceof kind)) throw new InvalidTokenError(reason(error));
      throw error;
    }
    // The audience is compared in canonical form: scheme and host case-insensitively, no trailing slash
    // (basic/authorization#canonical-server-uri); userinfo, path and query as they are.
    const audiences = payload.aud === undefined ? [] : typeof payload.aud === "string" ? [payload.aud] : payload.aud;
    if (!audiences.some((aud) => sameResource(aud, audience)))
      throw new InvalidTokenError(`the token was not issued for this server (aud must name ${audience})`);
    return authInfoOf(payload);
  };
}

/** AuthInfo from an access token's claims (RFC 9068 §2.2: sub, client_id, scope). */
export function authInfoOf(payload: JWTPayload): AuthInfo {
  const scope = payload["scope"] ?? payload["scp"];
  const scopes =
    typeof scope === "string" ? scope.split(" ").filter(Boolean) : Array.isArray(scope) ? scope.map(String) : [];
  const clientId = payload["client_id"] ?? payload["azp"];
  return {
    ...(payload.sub !== undefined ? { subject: payload.sub } : {}),
    ...(typeof clientId === "string" ? { clientId } : {}),
    ...(payload.iss !== undefined ? { issuer: payload.iss } : {}),
    ...(payload.exp !== undefined ? { expiresAt: payload.exp } : {}),
    scopes,
    claims: payload,
  };
}

function sameResource(aud: string, resource: string): boolean {
  try {
    return canonicalResource(aud) === resource;
  } catch {
    return false;
  }
}

/** Why jose refused a token, in words a client may see (never the token). */
function reason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "the token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "the token's issuer is not an authorization server of this server";
    if (error.claim === "nbf") return "the token is not valid yet";
    return `the token's ${error.claim} claim is invalid: ${error.reason}`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's signature algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature is invalid";
  if (error instanceof errors.JWKSNoMatchingKey) return "no key of the authorization server matches the token";
  if (error instanceof errors.JWKSMultipleMatchingKeys) return "the token does not say which key signed it (kid)";
  if (error instanceof errors.JOSENotSupported) return "the token uses a feature this server does not support";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "the token is malformed";
  return "the token could not be verified";
}
