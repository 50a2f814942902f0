// Which revisions a server speaks, version negotiation, and the wire side of a
// request: the revision's generated tables and, when it is not the handler
// revision, the generated shims. All of it is read from generated/.
import { loadMessageTables, loadShims, revisions } from "../../generated/index.js";
import type { MessageTables, RevisionInfo } from "../index.js";
import { handlerRevision, handlerTables } from "./handler-revision.js";

export type Shims = Awaited<ReturnType<typeof loadShims>>;

/** Every generated revision, oldest first. */
export const generatedRevisions: readonly RevisionInfo[] = revisions;

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

/** What a request needs of its revision. */
export interface Wire {
  readonly info: RevisionInfo;
  readonly tables: MessageTables;
  /** The shims, when the wire revision differs from the handler revision; null on the fast path. */
  readonly shims: Shims | null;
}

/** The handler revision as a wire: no loading, no conversion. */
export const handlerWire: Wire = {
  info: revisions.find((r) => r.name === handlerRevision.name)!,
  tables: handlerTables,
  shims: null,
};

const loaded = new Map<string, Wire>();
const loading = new Map<string, Promise<Wire>>();

/** A revision's wire when it is loaded already (synchronously), else undefined. */
export function loadedWire(info: RevisionInfo): Wire | undefined {
  return info.name === handlerRevision.name ? handlerWire : loaded.get(info.name);
}

/** Loads a revision's tables (and the shims when needed) once per process. */
export function loadWire(info: RevisionInfo): Promise<Wire> {
  const ready = loadedWire(info);
  if (ready) return Promise.resolve(ready);
  let wire = loading.get(info.name);
  if (!wire) {
    const load = loadMessageTables[info.name as keyof typeof loadMessageTables];
    wire = Promise.all([load(), loadShims()]).then(([tables, shims]) => {
      const done = { info, tables, shims };
      loaded.set(info.name, done);
      return done;
    });
    loading.set(info.name, wire);
  }
  return wire;
}
