// Which era a server speaks, and which revision to use with it
// (2026-07-28 basic/versioning#backward-compatibility-with-initialization-based-versions):
// a server/discover probe at the newest modern version. A DiscoverResult, or a
// recognized modern error, means modern (the version from the server's list);
// any other error, an HTTP status without a modern error, or silence until the
// probe's timeout means legacy: the initialize handshake at the newest legacy
// revision. The verdict is a property of the server: cached per target
// (#backward-compatibility: SHOULD cache for the server process or origin).
import type { RevisionInfo } from "../table-types.js";
import { generatedRevisions, loadedHandlerRevision } from "../protocol/revisions.js";
import {
  HEADER_MISMATCH,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "../protocol/handler-revision.js";
import { isObject } from "../validation.js";
import type { Connection } from "./connection.js";
import { McpError } from "./errors.js";

export interface EraVerdict {
  readonly era: "modern" | "legacy";
  readonly revision: RevisionInfo;
  /** The DiscoverResult, when the probe got one. */
  readonly discover?: Record<string, unknown>;
}

/** Errors only a modern server sends (versioning#backward-compatibility: "a recognized modern JSON-RPC error"). */
const MODERN_ERRORS: ReadonlySet<number> = new Set([
  UNSUPPORTED_PROTOCOL_VERSION,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  HEADER_MISMATCH,
]);

const CACHE_LIMIT = 256;
const cache = new Map<string, { era: "modern" | "legacy"; name: string }>();

export function rememberEra(target: string, verdict: EraVerdict): void {
  cache.delete(target);
  cache.set(target, { era: verdict.era, name: verdict.revision.name });
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
}

/** Forgets a server's verdict (the cached assumption failed: probe again next time). */
export function forgetEra(target: string): void {
  cache.delete(target);
}

const eraOf = (revision: RevisionInfo) => (revision.lifecycle === "initialize" ? "legacy" : "modern");

/** The revision for a protocol version: the released one named after it before a draft stating it. */
function forVersion(version: string): RevisionInfo | undefined {
  const all = generatedRevisions.filter((r) => r.protocolVersion === version);
  return all.find((r) => r.name === version) ?? all.at(-1);
}

/** The newest revision this client has among the versions a server lists, modern before legacy. */
function newestShared(versions: readonly unknown[]): RevisionInfo | undefined {
  const shared = versions.flatMap((v) => (typeof v === "string" && forVersion(v) ? [forVersion(v)!] : []));
  const order = (r: RevisionInfo) => generatedRevisions.indexOf(r);
  const modern = shared.filter((r) => eraOf(r) === "modern").sort((a, b) => order(b) - order(a));
  const legacy = shared.filter((r) => eraOf(r) === "legacy").sort((a, b) => order(b) - order(a));
  return modern[0] ?? legacy[0];
}

/** The newest released handshake revision: what a legacy server is asked for first (lifecycle#version-negotiation). */
function newestLegacy(): RevisionInfo {
  const legacy = generatedRevisions.filter((r) => r.lifecycle === "initialize");
  return legacy.filter((r) => r.name === r.protocolVersion).at(-1) ?? legacy.at(-1)!;
}

export async function detectEra(
  connection: Connection,
  options: { pinned?: string; probeTimeoutMs: number; meta: (version: string) => Record<string, unknown> },
): Promise<EraVerdict> {
  if (options.pinned !== undefined) {
    const revision = generatedRevisions.find((r) => r.name === options.pinned);
    if (!revision)
      throw new TypeError(
        `unknown protocol revision ${options.pinned} (generated: ${generatedRevisions.map((r) => r.name).join(", ")})`,
      );
    return { era: eraOf(revision), revision };
  }
  const known = cache.get(connection.transport.target);
  const cached = known && generatedRevisions.find((r) => r.name === known.name);
  if (cached) return { era: eraOf(cached), revision: cached };

  const probe = loadedHandlerRevision.info;
  const discover = async (version: string) => {
    connection.context = { era: "modern", protocolVersion: version };
    return (await connection.request(
      "server/discover",
      { _meta: options.meta(version) },
      { timeoutMs: options.probeTimeoutMs, headers: { "Mcp-Method": "server/discover" } },
    )) as Record<string, unknown>;
  };
  try {
    const result = await discover(probe.protocolVersion);
    const versions = Array.isArray(result["supportedVersions"]) ? result["supportedVersions"] : [];
    const revision = versions.includes(probe.protocolVersion) ? probe : newestShared(versions);
    if (!revision)
      throw new McpError(
        UNSUPPORTED_PROTOCOL_VERSION,
        `${connection.transport.target} supports ${versions.join(", ")}; this client speaks none of them`,
      );
    return eraOf(revision) === "modern" ? { era: "modern", revision, discover: result } : { era: "legacy", revision };
  } catch (error) {
    if (error instanceof McpError && MODERN_ERRORS.has(error.code)) {
      const supported = isObject(error.data) && Array.isArray(error.data["supported"]) ? error.data["supported"] : [];
      const revision = error.code === UNSUPPORTED_PROTOCOL_VERSION ? newestShared(supported) : probe;
      if (!revision) throw error;
      // #protocol-version-negotiation: "The client SHOULD select a mutually supported version from the
      // supported list and retry the request": the probe, once, at that version (its answer describes the server).
      if (error.code === UNSUPPORTED_PROTOCOL_VERSION && eraOf(revision) === "modern") {
        const retried = await discover(revision.protocolVersion).catch(() => undefined);
        if (retried) return { era: "modern", revision, discover: retried };
      }
      return { era: eraOf(revision), revision };
    }
    if (connection.closed) throw error;
    return { era: "legacy", revision: newestLegacy() };
  }
}
