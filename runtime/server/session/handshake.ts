// The initialize handshake of the handshake revisions (basic/lifecycle):
// initialize and its answer in the negotiated revision's own shape, and the
// assumed initialization of a stateless POST (where a connection is in the
// handshake: lifecycle.ts).
import type { RevisionInfo } from "../../table-types.js";
import { isObject, run } from "../../validation.js";
import type { IncomingRequest } from "../types.js";
import { convert } from "../request/convert.js";
import { resultProblem } from "../request/encode.js";
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  type Implementation,
} from "../../protocol/handler-revision.js";
import type { ServerLogger } from "../logging.js";
import { errorJson, invalidMessage, resultJson } from "../request/reply.js";
import { generatedRevisions, type TablesOnly, type LoadedRevision } from "../../protocol/revisions.js";
import { Lifecycle, sessionScope } from "./lifecycle.js";
import type { ServerSession, SessionHost } from "../context.js";

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
  wire: LoadedRevision | TablesOnly,
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

/** initialize from the client: negotiates a handshake revision and answers in its shapes (basic/lifecycle#initialization). */
export function receiveInitialize(session: ServerSession, request: IncomingRequest): void {
  const { message, id, reply } = request;
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
    session.loads.withHandshakeRevision(
      info,
      true,
      request,
      (wire) =>
        reply(invalidMessage(id, run(wire.tables.checks[wire.tables.methods["initialize"]!.type]!, message)).json, {
          code: INVALID_PARAMS,
        }),
      () => {},
    );
    return;
  }
  lifecycle.phase = "initializing";
  session.loads.withHandshakeRevision(
    info,
    answeredWithTables(info),
    request,
    (wire) => completeInitialize(session, wire, request),
    () => (lifecycle.phase = "new"),
  );
}

function completeInitialize(
  session: ServerSession,
  wire: LoadedRevision | TablesOnly,
  { message, id, reply }: IncomingRequest,
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
  const negotiated = { info: wire.info, clientCapabilities: params["capabilities"], clientInfo: params["clientInfo"] };
  lifecycle.negotiated = negotiated;
  session.loads.adoptOnLoad(wire.info, (loaded) => {
    lifecycle.scope = sessionScope(loaded, negotiated.clientCapabilities, negotiated.clientInfo, capabilities);
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
export function assumeInitialized(session: ServerSession, protocolVersion: string): boolean {
  const { lifecycle, host } = session;
  const info = host.served.forVersion(protocolVersion);
  if (!info || info.lifecycle !== "initialize" || lifecycle.phase !== "new") return false;
  lifecycle.stateless = true;
  const wire = host.served.loaded(info);
  if (wire) {
    adoptAssumed(lifecycle, host, wire);
    return true;
  }
  lifecycle.phase = "initializing";
  session.loads.adoptOnLoad(info, (loaded) => adoptAssumed(lifecycle, host, loaded));
  return true;
}

function adoptAssumed(lifecycle: Lifecycle, host: SessionHost, wire: LoadedRevision): void {
  lifecycle.scope = sessionScope(wire, undefined, undefined, host.capabilitiesFor(wire));
  lifecycle.envelope = wire.tables.envelope;
  lifecycle.phase = "initialized";
}
