// The initialize handshake of the handshake revisions (basic/lifecycle): where
// a connection is in it (Lifecycle), initialize and its answer in the negotiated
// revision's own shape, the assumed initialization of a stateless POST, and the
// scope a session serves its requests under once negotiated.
import type { RevisionInfo } from "../index.js";
import type { Envelope, RequestId } from "../messages.js";
import { isObject, run } from "../validation.js";
import type { Inflight, Scope } from "./context.js";
import { convert, resultProblem } from "./encode.js";
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  handlerRevision,
  type Implementation,
  type LoggingLevel,
} from "../protocol/handler-revision.js";
import type { ServerLogger } from "./logging.js";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from "../protocol/meta.js";
import { errorJson, invalidMessage, resultJson } from "./replies.js";
import { generatedRevisions, handlerWire, type TablesOnly, type Wire } from "../protocol/revisions.js";
import type { SessionHost } from "./session-host.js";
import type { RevisionLoads } from "./revision-loads.js";

/** Before negotiation the envelope is the handler revision's without batches: initialize must not be batched. */
const FIRST_ENVELOPE: Envelope = Object.freeze({ ...handlerWire.tables.envelope, batching: false });

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
  /** What initialize settled, between its answer and the wire's shims being loaded (then `scope`). */
  settling: { info: RevisionInfo; clientCapabilities: unknown; clientInfo: unknown } | undefined;
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
  wire: Wire,
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

/** The newest generated revision with the initialize handshake (its shapes are the fullest of that era). */
const NEWEST_HANDSHAKE: RevisionInfo | undefined = generatedRevisions
  .filter((r) => r.lifecycle === "initialize")
  .at(-1);

/**
 * Whether initialize at `info` is answered in the revision's own shapes, with
 * its tables alone: the newest handshake revision. An older one's answer comes
 * down from it through the shims (initializeResult).
 */
function answeredWithTables(info: RevisionInfo): boolean {
  return NEWEST_HANDSHAKE?.name === info.name;
}

/**
 * The InitializeResult at `wire`, checked against its schema. initialize
 * exists only in handshake revisions, so the result is built there; serverInfo
 * is the handler revision's Implementation, whose fields an older revision may
 * lack (title, icons): the result goes down from the newest handshake revision.
 */
function initializeResult(
  logger: ServerLogger,
  wire: Wire | TablesOnly,
  server: { readonly info: Implementation; readonly instructions: string | undefined; readonly capabilities: unknown },
): { result: Record<string, unknown> } | { error: string } {
  let result: Record<string, unknown> = {
    protocolVersion: wire.info.protocolVersion,
    capabilities: server.capabilities,
    serverInfo: server.info,
    ...(server.instructions !== undefined ? { instructions: server.instructions } : {}),
  };
  const newest = NEWEST_HANDSHAKE;
  if (newest && newest.name !== wire.info.name && wire.shims !== null) {
    if (wire.shims === undefined) return { error: `Internal error: the shims of ${wire.info.name} are not loaded` };
    try {
      result = convert(logger, "result", "initialize", result, wire, newest.name, wire.info.name).message as Record<
        string,
        unknown
      >;
    } catch (error) {
      return { error: `Internal error: ${(error as Error).message}` };
    }
  }
  const problem = resultProblem(wire.tables.results["initialize"], result, "initialize result");
  return problem ? { error: problem } : { result };
}

/** What the handshake needs of a session (Session implements it). */
export interface HandshakeSession {
  readonly host: SessionHost;
  readonly lifecycle: Lifecycle;
  /** Where initialize waits for its revision's tables, and the session for the shims after the answer. */
  readonly loads: RevisionLoads;
  /** A request id the session must not see again (basic#requests). */
  rememberFinished(id: RequestId): void;
}

/** initialize from the client: negotiates a handshake revision and answers in its shapes (basic/lifecycle#initialization). */
export function receiveInitialize(
  session: HandshakeSession,
  message: Record<string, unknown>,
  id: RequestId,
  reply: Inflight["reply"],
): void {
  const { lifecycle } = session;
  if (lifecycle.phase !== "new") {
    reply(errorJson(id, INVALID_REQUEST, "Invalid Request: initialize was already received in this session"), {
      code: INVALID_REQUEST,
    });
    return;
  }
  const params = message["params"];
  const requested = isObject(params) ? params["protocolVersion"] : undefined;
  const served = session.host.served;
  const info = served.negotiate(typeof requested === "string" ? requested : "");
  if (!info) {
    // basic/versioning: a server without handshake revisions names the versions it supports.
    reply(
      errorJson(
        id,
        METHOD_NOT_FOUND,
        `Method not found: initialize; this server speaks protocol versions ${served.supportedVersions.join(", ")} with per-request _meta and no handshake (server/discover)`,
        { supported: [...served.supportedVersions] },
      ),
      { code: METHOD_NOT_FOUND },
    );
    return;
  }
  if (typeof requested !== "string") {
    // Let the generated check name what is wrong with the request.
    session.loads.withHandshakeWire(
      info,
      true,
      id,
      reply,
      (wire) =>
        reply(invalidMessage(id, run(wire.tables.checks[wire.tables.methods["initialize"]!.type]!, message)).json, {
          code: INVALID_PARAMS,
        }),
      () => {},
    );
    return;
  }
  lifecycle.phase = "initializing";
  session.loads.withHandshakeWire(
    info,
    answeredWithTables(info),
    id,
    reply,
    (wire) => completeInitialize(session, wire, message, id, reply),
    () => (lifecycle.phase = "new"),
  );
}

function completeInitialize(
  session: HandshakeSession,
  wire: Wire | TablesOnly,
  message: Record<string, unknown>,
  id: RequestId,
  reply: Inflight["reply"],
): void {
  const { lifecycle, host } = session;
  const verdict = run(wire.tables.checks[wire.tables.methods["initialize"]!.type]!, message);
  if (!verdict.valid) {
    lifecycle.phase = "new";
    const invalid = invalidMessage(id, verdict);
    reply(invalid.json, invalid.outcome);
    return;
  }
  const params = message["params"] as Record<string, unknown>;
  const capabilities = host.capabilitiesFor(wire);
  const built = initializeResult(host.logger, wire, {
    info: host.info,
    instructions: host.instructions,
    capabilities,
  });
  if ("error" in built) {
    lifecycle.phase = "new";
    host.logger("error", built.error);
    reply(errorJson(id, INTERNAL_ERROR, built.error), { code: INTERNAL_ERROR });
    return;
  }
  lifecycle.envelope = wire.tables.envelope;
  lifecycle.phase = "ready";
  session.rememberFinished(id);
  if (wire.shims !== undefined) {
    lifecycle.scope = sessionScope(wire, params["capabilities"], params["clientInfo"], capabilities);
    reply(resultJson(id, JSON.stringify(built.result)));
    return;
  }
  // Answered from the tables alone: the shims load now, while the client reads the answer, and
  // the session's next messages wait for them.
  const settling = { info: wire.info, clientCapabilities: params["capabilities"], clientInfo: params["clientInfo"] };
  lifecycle.settling = settling;
  session.loads.adoptOnLoad(wire.info, (loaded) => {
    lifecycle.scope = sessionScope(loaded, settling.clientCapabilities, settling.clientInfo, capabilities);
  });
  reply(resultJson(id, JSON.stringify(built.result)));
}

/**
 * Treats the session as initialized at `protocolVersion` without a
 * handshake, for stateless Streamable HTTP where every request arrives on a
 * fresh session (basic/transports#session-management). The client declared
 * no capabilities, so the server sends it no requests. Returns false for a
 * version the server does not serve with a handshake.
 */
export function assumeInitialized(session: HandshakeSession, protocolVersion: string): boolean {
  const { lifecycle, host } = session;
  const info = host.served.forVersion(protocolVersion);
  if (!info || info.lifecycle !== "initialize" || lifecycle.phase !== "new") return false;
  lifecycle.stateless = true;
  const wire = host.wires.loaded(info);
  if (wire) {
    adoptAssumed(lifecycle, host, wire);
    return true;
  }
  lifecycle.phase = "initializing";
  session.loads.adoptOnLoad(info, (loaded) => adoptAssumed(lifecycle, host, loaded));
  return true;
}

function adoptAssumed(lifecycle: Lifecycle, host: SessionHost, wire: Wire): void {
  lifecycle.scope = sessionScope(wire, undefined, undefined, host.capabilitiesFor(wire));
  lifecycle.envelope = wire.tables.envelope;
  lifecycle.phase = "initialized";
}
