// An HTTP MCP server as an OAuth 2.1 resource server (basic/authorization,
// 2025-11-25 and 2026-07-28 alike): it publishes Protected Resource Metadata
// (RFC 9728) at the well-known URIs, answers a request without a valid bearer
// token with 401 and a challenge naming that metadata, checks every request's
// token with a verifier (a JWT verifier over a JWKS in ../auth/jwt.ts, or the
// user's own: introspection, a database), and answers an operation whose
// scope the token lacks with 403 insufficient_scope. The token never leaves
// this module: handlers get the verified identity (AuthInfo), logs get neither.
import type { HttpRequestHead } from "./http-wire.js";
import type { AuthInfo, Authorization } from "../server/authorization.js";

/**
 * Why a token was refused, said without the token (RFC 6750 §3.1 error_description): the
 * request is answered 401 `invalid_token`, which sends an OAuth client to get a new token.
 * An error of a class of your own counts too when its `name` is "InvalidTokenError" (as the
 * official SDK's is) or its `code` is "invalid_token".
 */
export class InvalidTokenError extends Error {
  override name = "InvalidTokenError";
  readonly code = "invalid_token";
}

/**
 * The verifier cannot check tokens now (its key set or introspection endpoint is down): 503
 * with `Retry-After`, so clients retry instead of re-authorizing. Any error that is not an
 * invalid-token error means the same; this one also says when to retry.
 */
export class VerifierUnavailableError extends Error {
  override name = "VerifierUnavailableError";
  constructor(
    message: string,
    /** The `Retry-After` of the 503, in seconds. */
    readonly retryAfterSeconds = 5,
  ) {
    super(message);
  }
}

/**
 * What the transport gives a verifier besides the token: the server's logger, for what is worth
 * one line (an outage), never a line per request. A verifier called without it logs to stderr.
 */
export interface TokenVerifierContext {
  log(level: "warning" | "error", message: string): void;
}

/**
 * Checks a bearer token: resolves with who it stands for, or rejects: an InvalidTokenError
 * (or an error named so, or with `code: "invalid_token"`) says what is wrong with the token
 * (401); any other error is the verifier failing (503).
 */
export type TokenVerifier = (token: string, context?: TokenVerifierContext) => Promise<AuthInfo>;

/** Whether a verifier's error blames the token: the exported class, or a user's own by its documented marks. */
export function isInvalidTokenError(error: unknown): error is { message?: unknown } {
  if (error instanceof InvalidTokenError) return true;
  if (typeof error !== "object" || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === "InvalidTokenError" || code === "invalid_token";
}

export interface AuthOptions {
  /**
   * The server's canonical URI (basic/authorization#canonical-server-uri), e.g.
   * "https://mcp.example.com/mcp": the metadata's `resource`, and the audience
   * the verifier must require (RFC 8707).
   */
  resource: string;
  /** Issuer URLs of the authorization servers that issue tokens for this server (at least one). */
  authorizationServers: readonly string[];
  /** Checks each request's token; `jwtVerifier` from "mcpgen/jwt" checks JWTs against a JWKS. */
  verifier: TokenVerifier;
  /** Scopes every request needs (403 insufficient_scope without them). Default none. */
  requiredScopes?: readonly string[];
  /**
   * Metadata `scopes_supported`: the scopes basic use needs (clients without a
   * challenge's scope request these; basic/authorization#scope-selection-strategy).
   * Default `requiredScopes`.
   */
  scopesSupported?: readonly string[];
  /**
   * Whether `granted` implies `needed` besides being equal, for scope
   * hierarchies (2026-07-28 basic/authorization#step-up-authorization-flow:
   * "Servers MUST account for scope hierarchies"). Default: equality only.
   */
  scopeImplies?: (granted: string, needed: string) => boolean;
  /** More metadata fields (RFC 9728 §2), e.g. resource_name, resource_documentation. */
  metadata?: Readonly<Record<string, unknown>>;
}

/** An HTTP refusal: status, headers and a message for the body. */
export interface AuthRefusal {
  readonly status: 401 | 403 | 400 | 503;
  readonly headers: Readonly<Record<string, string>>;
  readonly message: string;
}

export type AuthOutcome =
  { readonly ok: true; readonly authorization: Authorization } | ({ readonly ok: false } & AuthRefusal);

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

export class ResourceServer {
  readonly resource: string;
  /** Where the metadata is served: the path-inserted URI first, then the root one (#protected-resource-metadata-discovery-requirements). */
  readonly metadataPaths: readonly string[];
  /** The metadata URL the challenges name (resource_metadata). */
  readonly metadataUrl: string;
  private readonly metadataJson: string;
  private readonly requiredScopes: readonly string[];
  private readonly implies: (granted: string, needed: string) => boolean;
  private readonly outage = new VerifierOutage();

  constructor(private readonly options: AuthOptions) {
    this.resource = canonicalResource(options.resource);
    if (options.authorizationServers.length === 0)
      throw new TypeError(
        "auth.authorizationServers must name at least one authorization server (basic/authorization#authorization-server-location)",
      );
    const url = new URL(this.resource);
    const path = url.pathname === "/" ? "" : url.pathname;
    // RFC 9728 §3.1: the well-known segment goes between the host and the resource's path.
    this.metadataPaths = path ? [WELL_KNOWN + path, WELL_KNOWN] : [WELL_KNOWN];
    this.metadataUrl = `${url.origin}${this.metadataPaths[0]}`;
    this.requiredScopes = [...(options.requiredScopes ?? [])];
    const implies = options.scopeImplies;
    this.implies = implies ? (granted, needed) => granted === needed || implies(granted, needed) : (g, n) => g === n;
    this.metadataJson = JSON.stringify({
      ...options.metadata,
      resource: this.resource,
      authorization_servers: options.authorizationServers,
      scopes_supported: options.scopesSupported ?? this.requiredScopes,
      // basic/authorization#token-requirements: only the Authorization header, never the query string.
      bearer_methods_supported: ["header"],
    });
  }

  /** The Protected Resource Metadata document (RFC 9728 §3.2). */
  get metadata(): string {
    return this.metadataJson;
  }

  /**
   * Checks the request's bearer token: 401 with a challenge when it is
   * missing or invalid, 400 when the request is malformed, 403 when it lacks a
   * scope every request needs, 503 when the verifier cannot check it now.
   */
  async authenticate(
    request: HttpRequestHead,
    log: (level: "warning" | "error", message: string) => void,
  ): Promise<AuthOutcome> {
    // node:http keeps the first of two Authorization headers (headers.authorization); RFC 9110 §5.3 makes
    // it one field and RFC 6750 §3.1 such a request invalid_request, so a proxy and this server never act on different ones.
    const headers = request.headersDistinct?.["authorization"];
    if (headers !== undefined && headers.length > 1)
      return this.unauthorized(
        "invalid_request",
        "Bad Request: the request has more than one Authorization header",
        400,
      );
    const header = headers === undefined ? request.headers.authorization : headers[0];
    if (header === undefined)
      // RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
      return this.unauthorized(
        undefined,
        "Unauthorized: this server requires a bearer token (Authorization: Bearer ...)",
      );
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match)
      return this.unauthorized(
        "invalid_request",
        header.includes(",")
          ? "Bad Request: the Authorization header carries more than one credential"
          : "Bad Request: the Authorization header is not a bearer token",
        400,
      );
    const token = match[1]!;
    let info: AuthInfo;
    try {
      info = await this.options.verifier(token, { log: (level, message) => log(level, redact(message, token)) });
    } catch (error) {
      // The reason, never the token: a verifier's message might quote it.
      if (isInvalidTokenError(error)) {
        this.outage.checked(log);
        const why = typeof error.message === "string" && error.message ? error.message : "the token is invalid";
        return this.unauthorized("invalid_token", `Unauthorized: ${redact(why, token)}`);
      }
      // Not the token's fault (the key set cannot be fetched, a database is down): not a 401,
      // which would send the client to re-authorize for nothing.
      this.outage.failed(redact(String(error), token), log);
      const retryAfter = error instanceof VerifierUnavailableError ? error.retryAfterSeconds : 5;
      return {
        ok: false,
        status: 503,
        headers: { "Retry-After": String(Math.max(1, Math.ceil(retryAfter))) },
        message: "Service Unavailable: the token cannot be verified now",
      };
    }
    this.outage.checked(log);
    // What a caller makes is bound to its issuer, subject and client (principalOf): a token naming neither
    // a subject nor a client cannot be told apart from another such token, and would share their sessions.
    if (!info.subject && !info.clientId)
      return this.unauthorized("invalid_token", "Unauthorized: the token names neither a subject (sub) nor a client");
    const authorization: Authorization = {
      info,
      missing: (needed) => needed.filter((scope) => !info.scopes.some((granted) => this.implies(granted, scope))),
    };
    const missing = authorization.missing(this.requiredScopes);
    if (missing.length > 0)
      return { ok: false, ...this.forbidden(this.requiredScopes, `every request needs scope ${missing.join(" ")}`) };
    return { ok: true, authorization };
  }

  /** 403 insufficient_scope naming every scope the operation needs (#runtime-insufficient-scope-errors). */
  forbidden(scopes: readonly string[], description: string): AuthRefusal {
    return {
      status: 403,
      headers: {
        "WWW-Authenticate": challenge({
          error: "insufficient_scope",
          scope: scopes.join(" "),
          resource_metadata: this.metadataUrl,
          error_description: description,
        }),
      },
      message: `Forbidden: ${description}`,
    };
  }

  private unauthorized(error: string | undefined, message: string, status: 401 | 400 = 401): AuthOutcome {
    const scope = (this.options.scopesSupported ?? this.requiredScopes).join(" ");
    return {
      ok: false,
      status,
      headers: {
        "WWW-Authenticate": challenge({
          ...(error ? { error, error_description: message.replace(/^(Unauthorized|Bad Request): /, "") } : {}),
          resource_metadata: this.metadataUrl,
          ...(scope ? { scope } : {}),
        }),
      },
      message,
    };
  }
}

/**
 * The canonical form of the server's URI (basic/authorization#canonical-server-uri), the form
 * audiences are compared in: absolute, lower-case scheme and host, no default port, no fragment,
 * no trailing slash. Userinfo, path and query are kept (RFC 3986 §6.2.2 normalizes, never drops,
 * them): `http://attacker@host/mcp` is another URI than `http://host/mcp`.
 */
export function canonicalResource(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new TypeError(
      `auth.resource ${JSON.stringify(uri)} is not an absolute URI (basic/authorization#canonical-server-uri)`,
    );
  }
  if (url.hash || uri.includes("#")) throw new TypeError(`auth.resource ${uri} must not have a fragment (RFC 8707 §2)`);
  const path = url.pathname.replace(/\/+$/, "");
  // URL drops an empty userinfo ("http://@host"); RFC 3986 keeps it, so the "@" is looked for in the text.
  const userinfo =
    url.username || url.password || HAS_USERINFO.test(uri)
      ? `${url.username}${url.password ? `:${url.password}` : ""}@`
      : "";
  return `${url.protocol}//${userinfo}${url.host}${path}${url.search}`; // URL lower-cases scheme and host
}

/** A scheme, then an authority with an "@" before its end ("\\" ends it as "/" does, as URL reads special schemes). */
const HAS_USERINFO = /^[a-z][a-z0-9+.-]*:[\\/]*[^\\/?#]*@/i;

/** A challenge's parameters as RFC 6750 §3 quotes them. */
function challenge(params: Record<string, string>): string {
  const parts = Object.entries(params).map(([name, value]) => `${name}="${value.replace(/["\\]/g, "\\$&")}"`);
  return `Bearer ${parts.join(", ")}`;
}

/** A run of verifier failures, logged once when it starts and once when the verifier checks tokens again: never a line per request. */
class VerifierOutage {
  private since: number | undefined;
  private refused = 0;

  failed(reason: string, log: (level: "warning", message: string) => void): void {
    this.refused++;
    if (this.since !== undefined) return;
    this.since = Date.now();
    log("warning", `token verifier cannot check tokens: ${reason}; answering 503 until it can`);
  }

  /** The verifier answered (a token accepted or refused): an outage, if any, is over. */
  checked(log: (level: "warning", message: string) => void): void {
    if (this.since === undefined) return;
    const seconds = ((Date.now() - this.since) / 1000).toFixed(1);
    log("warning", `token verifier checks tokens again after ${seconds} s; ${this.refused} requests were answered 503`);
    this.since = undefined;
    this.refused = 0;
  }
}

function redact(text: string, token: string): string {
  return token.length >= 8 ? text.split(token).join("[token]") : text;
}
