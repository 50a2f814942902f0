// Which revisions the server speaks, version negotiation, and the wire side of
// a session: the negotiated revision's generated tables and, when it is not the
// handler revision, the generated shims. All of it is read from generated/.
import { loadMessageTables, loadShims, revisions } from "../../generated/index.js";
import type { MessageTables, RevisionInfo } from "../index.js";
import { handlerRevision, handlerTables } from "./handler-revision.js";

export type Shims = Awaited<ReturnType<typeof loadShims>>;

/** Every generated revision with the initialize handshake, oldest first: the ones this runtime serves. */
export const servedRevisions: readonly RevisionInfo[] = revisions.filter((r) => r.lifecycle === "initialize");

/** The revision offered to a client asking for one the server does not serve: the newest released one. */
const newestReleased: RevisionInfo =
  servedRevisions.filter((r) => r.name === r.protocolVersion).at(-1) ?? servedRevisions.at(-1)!;

/**
 * The revision to answer an initialize request with: the client's when served,
 * else the newest the server has (basic/lifecycle#version-negotiation).
 */
export function negotiate(requested: string): RevisionInfo {
  return servedRevisions.find((r) => r.protocolVersion === requested) ?? newestReleased;
}

/** What a session needs of its negotiated revision. */
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

const loaded = new Map<string, Promise<Wire>>();

/** Loads a revision's tables (and the shims when needed) once per process. */
export function loadWire(info: RevisionInfo): Promise<Wire> {
  if (info.name === handlerRevision.name) return Promise.resolve(handlerWire);
  let wire = loaded.get(info.name);
  if (!wire) {
    const load = loadMessageTables[info.name as keyof typeof loadMessageTables];
    wire = Promise.all([load(), loadShims()]).then(([tables, shims]) => ({ info, tables, shims }));
    loaded.set(info.name, wire);
  }
  return wire;
}
