// The initialize handshake of the handshake revisions (basic/lifecycle): the
// InitializeResult in the negotiated revision's own shape, and the scope a
// session serves its requests under once negotiated.
import type { RevisionInfo } from "../index.js";
import type { Scope } from "./context.js";
import { convert, resultProblem } from "./encode.js";
import type { Implementation, LoggingLevel } from "./handler-revision.js";
import type { ServerLogger } from "./logging.js";
import { generatedRevisions, type TablesOnly, type Wire } from "./revisions.js";

/** The handshake session's scope; logThreshold changes with logging/setLevel. */
export interface SessionScope extends Scope {
  logThreshold: LoggingLevel | null | undefined;
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
  };
}

/** The newest generated revision with the initialize handshake (its shapes are the fullest of that era). */
function newestHandshake(): RevisionInfo | undefined {
  return generatedRevisions.filter((r) => r.lifecycle === "initialize").at(-1);
}

/**
 * Whether initialize at `info` is answered in the revision's own shapes, with
 * its tables alone: the newest handshake revision. An older one's answer comes
 * down from it through the shims (initializeResult).
 */
export function answeredWithTables(info: RevisionInfo): boolean {
  return newestHandshake()?.name === info.name;
}

/**
 * The InitializeResult at `wire`, checked against its schema. initialize
 * exists only in handshake revisions, so the result is built there; serverInfo
 * is the handler revision's Implementation, whose fields an older revision may
 * lack (title, icons): the result goes down from the newest handshake revision.
 */
export function initializeResult(
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
  const newest = newestHandshake();
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
