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

/** Why a token was refused, said without the token (RFC 6750 §3.1 error_description). */
export class InvalidTokenError extends Error {
  override name = "InvalidTokenError";
}

/** Checks a bearer token: resolves with who it stands for, or rejects: InvalidTokenError says what is wrong with the token (401); any other error is the verifier failing (503). */
export type TokenVerifier = (token: string) => Promise<AuthInfo>;

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
   * missing or invalid, 403 when it lacks a scope every request needs.
   */
  async authenticate(request: HttpRequestHead, log: (message: string) => void): Promise<AuthOutcome> {
    const header = request.headers.authorization;
    if (header === undefined)
      // RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
      return this.unauthorized(
        undefined,
        "Unauthorized: this server requires a bearer token (Authorization: Bearer ...)",
      );
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match)
      return this.unauthorized("invalid_request", "Unauthorized: the Authorization header is not a bearer token", 400);
    const token = match[1]!;
    let info: AuthInfo;
    try {
      info = await this.options.verifier(token);
    } catch (error) {
      // The reason, never the token: a verifier's message might quote it.
      if (error instanceof InvalidTokenError)
        return this.unauthorized("invalid_token", `Unauthorized: ${redact(error.message, token)}`);
      // Not the token's fault (the key set cannot be fetched, a database is down): not a 401,
      // which would send the client to re-authorize for nothing.
      log(`token verifier failed: ${redact(String(error), token)}`);
      return {
        ok: false,
        status: 503,
        headers: { "Retry-After": "5" },
        message: "Service Unavailable: the token cannot be verified now",
      };
    }
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
          ...(error ? { error, error_description: message.replace(/^Unauthorized: /, "") } : {}),
          resource_metadata: this.metadataUrl,
          ...(scope ? { scope } : {}),
        }),
      },
      message,
    };
  }
}

/**
 * The canonical form of the server's URI (basic/authorization#canonical-server-uri):
 * absolute, lower-case scheme and host, no fragment, no trailing slash.
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
  return `${url.protocol}//${url.host}${path}${url.search}`; // URL lower-cases scheme and host
}

/** A challenge's parameters as RFC 6750 §3 quotes them. */
function challenge(params: Record<string, string>): string {
  const parts = Object.entries(params).map(([name, value]) => `${name}="${value.replace(/["\\]/g, "\\$&")}"`);
  return `Bearer ${parts.join(", ")}`;
}

function redact(text: string, token: string): string {
  return token.length >= 8 ? text.split(token).join("[token]") : text;
}
