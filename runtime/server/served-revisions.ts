// Which revisions one server serves (ServerOptions.revisions), and how a
// client's protocol version finds one: for initialize, version negotiation
// (basic/lifecycle#version-negotiation); for a per-request revision, the
// version its `_meta` names.
import { revisions } from "../../generated/index.js";
import type { RevisionInfo } from "../revision-facts.js";

/**
 * The revisions one server serves (all generated ones unless the server names
 * some), and how a client's version finds one. Both lifecycles are facts of the
 * revisions (RevisionInfo.lifecycle), never names.
 */
export class ServedRevisions {
  /** Served, oldest first. */
  readonly all: readonly RevisionInfo[];
  /** The served revisions with the initialize handshake, oldest first. */
  readonly handshake: readonly RevisionInfo[];
  /** Every protocol version served, newest first (server/discover, UnsupportedProtocolVersionError). */
  readonly supportedVersions: readonly string[];
  private readonly byVersion = new Map<string, RevisionInfo>();

  constructor(names?: readonly string[]) {
    if (names) {
      const unknown = names.filter((n) => !revisions.some((r) => r.name === n));
      if (unknown.length > 0)
        throw new TypeError(
          `unknown protocol revision ${unknown.join(", ")} (generated: ${revisions.map((r) => r.name).join(", ")})`,
        );
      if (names.length === 0) throw new TypeError("a server must serve at least one protocol revision");
    }
    this.all = names ? revisions.filter((r) => names.includes(r.name)) : revisions;
    this.handshake = this.all.filter((r) => r.lifecycle === "initialize");
    // A version several revisions state (draft states the latest release's until it is cut) goes to the
    // released one, the revision named after it; else to the newest.
    for (const info of this.all) {
      const current = this.byVersion.get(info.protocolVersion);
      if (!current || current.name !== current.protocolVersion) this.byVersion.set(info.protocolVersion, info);
    }
    this.supportedVersions = [...new Set(this.all.map((r) => r.protocolVersion))].reverse();
  }

  /** The revision serving a protocol version, whatever its lifecycle. */
  forVersion(version: string): RevisionInfo | undefined {
    return this.byVersion.get(version);
  }

  /**
   * The handshake revision to answer an initialize request with: the client's
   * when served, else the newest released one the server has
   * (basic/lifecycle#version-negotiation); undefined when it serves none.
   */
  negotiate(requested: string): RevisionInfo | undefined {
    const exact = this.forVersion(requested);
    if (exact?.lifecycle === "initialize") return exact;
    return this.handshake.filter((r) => r.name === r.protocolVersion).at(-1) ?? this.handshake.at(-1);
  }
}
