// Where a connection is in the initialize handshake of the handshake
// revisions (basic/lifecycle#lifecycle-phases), and the scope a handshake
// session serves its requests under once negotiated (session/handshake.ts negotiates).
import type { Envelope } from "../../messages.js";
import { handlerRevision, type Implementation, type LoggingLevel } from "../../protocol/handler-revision.js";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from "../../protocol/meta.js";
import { loadedHandlerRevision, type LoadedRevision } from "../../protocol/revisions.js";
import type { RevisionInfo } from "../../table-types.js";
import type { Scope } from "../types.js";

/** Before negotiation the envelope is the handler revision's without batches: initialize must not be batched. */
const FIRST_ENVELOPE: Envelope = Object.freeze({ ...loadedHandlerRevision.tables.envelope, batching: false });

/**
 * Where a connection is in the handshake (basic/lifecycle#lifecycle-phases):
 * "new" until initialize is answered, "ready" once it is, "initialized" once
 * notifications/initialized arrives; and what it negotiated. A connection
 * without a handshake stays "new" (each request carries its own scope).
 */
export class Lifecycle {
  phase: "new" | "initializing" | "ready" | "initialized" | "closed" = "new";
  /** The handshake session's scope, once initialize negotiated a revision and its wire is loaded. */
  scope: SessionScope | undefined;
  /** What initialize negotiated, between its answer and its revision's shims being loaded (then `scope`). */
  negotiated: { info: RevisionInfo; clientCapabilities: unknown; clientInfo: unknown } | undefined;
  /** The envelope incoming messages are classified by: the negotiated revision's once there is one. */
  envelope: Envelope = FIRST_ENVELOPE;
  /**
   * The negotiated revision's wire could not load after initialize was answered
   * (or a stateless POST assumed it): the -32603 message every request gets.
   */
  failure: string | undefined;
  /** The handshake was assumed for one stateless POST (assumeInitialized): the session ends with it. */
  stateless = false;
}

/** The handshake session's scope; logThreshold changes with logging/setLevel. */
export interface SessionScope extends Scope {
  logThreshold: LoggingLevel | null | undefined;
  /** The per-request `_meta` fields this session's requests take on their way to the handler revision (handshakeMeta). */
  handlerMeta: Readonly<Record<string, unknown>> | undefined;
}

export function sessionScope(
  wire: LoadedRevision,
  clientCapabilities: unknown,
  clientInfo: unknown,
  serverCapabilities: unknown,
): SessionScope {
  return {
    wire,
    perRequest: false,
    clientCapabilities: clientCapabilities ?? {},
    clientInfo: clientInfo as Implementation | undefined,
    logThreshold: undefined,
    serverCapabilities,
    handlerMeta: undefined,
  };
}

/**
 * The per-request fields the handler revision requires in `_meta`, as a
 * handshake session's requests take them: its negotiated capabilities and
 * identity, not defaults (2026-07-28 basic/index#meta). Built once a scope, never changed.
 */
export function handshakeMeta(scope: SessionScope): Readonly<Record<string, unknown>> {
  if (!scope.handlerMeta) {
    const meta: Record<string, unknown> = {};
    meta[META_PROTOCOL_VERSION] = handlerRevision.protocolVersion;
    meta[META_CLIENT_CAPABILITIES] = scope.clientCapabilities;
    if (scope.clientInfo) meta[META_CLIENT_INFO] = scope.clientInfo;
    scope.handlerMeta = Object.freeze(meta);
  }
  return scope.handlerMeta;
}
