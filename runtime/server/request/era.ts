// The era gate (2026-07-28 basic/versioning#backward-compatibility-with-initialization-based-versions):
// which protocol facts an incoming request is handled under. "A request
// carrying modern per-request _meta is served statelessly according to this
// revision. An initialize request selects legacy semantics, scoped to the
// stdio process (stdio) or the session (HTTP)." The lifecycle of the revision
// a version names is a fact of that revision (RevisionInfo.lifecycle).
import type { RevisionInfo } from "../../table-types.js";
import { hasPerRequestMeta, META_PROTOCOL_VERSION, statedVersion } from "../../protocol/meta.js";
import type { ServedRevisions } from "../session/revisions.js";
import {
  HEADER_MISMATCH,
  INVALID_PARAMS,
  UNSUPPORTED_PROTOCOL_VERSION,
  handlerTables,
} from "../../protocol/handler-revision.js";
import { isObject, run } from "../../validation.js";

export type Era =
  /** The connection's handshake session: its negotiated revision, or the rules before initialize. */
  | { readonly kind: "session" }
  /** Served on its own, at the revision its `_meta` names. */
  | { readonly kind: "per-request"; readonly info: RevisionInfo }
  | {
      readonly kind: "refused";
      readonly code: number;
      readonly message: string;
      readonly data?: unknown;
      readonly malformed: boolean;
    };

/** The verdict of most requests. */
const SESSION: Era = Object.freeze({ kind: "session" });

/**
 * The era of a request (not initialize) on a connection; `negotiated` when the
 * connection's handshake completed, in which case the session serves it.
 */
export function eraOf(
  message: Record<string, unknown>,
  negotiated: boolean,
  served: ServedRevisions,
  /** The version a transport header states (Streamable HTTP's MCP-Protocol-Version), if any. */
  headerVersion?: string,
): Era {
  if (negotiated) return SESSION;
  const version = statedVersion(message);
  if (version === undefined) {
    // No version: a handshake client before initialize, unless the request carries other
    // per-request fields, its transport header names no handshake revision, or the server
    // has no handshake revision to offer.
    const hinted = headerVersion === undefined ? undefined : served.forVersion(headerVersion);
    const modern =
      hasPerRequestMeta(message) ||
      served.handshake.length === 0 ||
      (headerVersion !== undefined && hinted?.lifecycle !== "initialize");
    if (!modern) return SESSION;
    // basic/index#meta: "A request missing any required field is malformed; the server MUST reject it
    // with JSON-RPC error code -32602 (Invalid params)".
    return {
      kind: "refused",
      code: INVALID_PARAMS,
      message: `Invalid params: /params/_meta must have property '${META_PROTOCOL_VERSION}' (supported: ${served.supportedVersions.join(", ")})`,
      data: { supported: served.supportedVersions },
      malformed: true,
    };
  }
  if (version === null)
    return {
      kind: "refused",
      code: INVALID_PARAMS,
      message: `Invalid params: /params/_meta/${META_PROTOCOL_VERSION.replace("/", "~1")} must be a string`,
      malformed: true,
    };
  const info = served.forVersion(version);
  if (!info || info.lifecycle === "per-request") {
    // Streamable HTTP: a malformed _meta (-32602) comes before a header that disagrees with it
    // (-32020, #server-validation), which comes before whether the version is served (-32022).
    if (headerVersion !== undefined && headerVersion !== version) {
      const malformed = metaProblem(message);
      if (malformed) return malformed;
      return {
        kind: "refused",
        code: HEADER_MISMATCH,
        message: `Header mismatch: MCP-Protocol-Version header value '${headerVersion}' does not match body value '${version}'`,
        malformed: false,
      };
    }
    if (!info) return metaProblem(message) ?? unsupportedVersion(version, served);
    return { kind: "per-request", info };
  }
  return SESSION;
}

/**
 * Whether a request stating a per-request version asks for that era: it is
 * not initialize, or its transport header names a per-request revision.
 */
export function statesPerRequest(
  message: Record<string, unknown>,
  served: ServedRevisions,
  headerVersion: string | undefined,
): boolean {
  const stated = statedVersion(message);
  const version = typeof stated === "string" ? stated : headerVersion;
  return version !== undefined && served.forVersion(version)?.lifecycle !== "initialize";
}

/** basic/versioning#protocol-version-negotiation: UnsupportedProtocolVersionError lists what is supported. */
export function unsupportedVersion(requested: string, served: ServedRevisions): Era & { kind: "refused" } {
  return {
    kind: "refused",
    code: UNSUPPORTED_PROTOCOL_VERSION,
    message: `Unsupported protocol version: ${requested} (supported: ${served.supportedVersions.join(", ")})`,
    data: { supported: [...served.supportedVersions], requested },
    malformed: false,
  };
}

/**
 * What is wrong with a request's per-request `_meta` fields, checked before the
 * header and version rules: its `_meta` checked with the handler revision's
 * RequestMetaObject (the newest per-request shape), since the revision is not known yet.
 */
function metaProblem(message: Record<string, unknown>): (Era & { kind: "refused" }) | undefined {
  const check = handlerTables.checks["RequestMetaObject"];
  const params = message["params"];
  const meta = isObject(params) ? params["_meta"] : undefined;
  if (!check) return undefined;
  const verdict = run(check, meta, ["params", "_meta"]);
  if (verdict.valid) return undefined;
  const problem = verdict.errors[0]!;
  return {
    kind: "refused",
    code: INVALID_PARAMS,
    message: `Invalid params: ${problem.path} ${problem.message}`,
    data: { errors: verdict.errors },
    malformed: true,
  };
}
