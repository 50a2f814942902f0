// What the server sends the client on its own: notifications (list changes,
// progress, log messages) and server-to-client requests of a handshake session
// (sampling, elicitation, roots, ping) with the answers waiting for them. Each
// is sent at a scope, in the wire revision's shapes, only when that revision
// has the method and the capability it needs was declared. The waiting
// requests are bounded (SessionLimits.pendingClientRequests); each ends by an
// answer, a timeout, an abort or the connection closing.
import { checkMessage, type Classification } from "../../messages.js";
import { ShimError } from "../../shims.js";
import { ClientError, ProtocolError, RequestRefusedError, RequestTimeoutError } from "../errors.js";
import { PendingRequests } from "../../protocol/pending-requests.js";
import { convert } from "../request/convert.js";
import { handlerRevision, INVALID_PARAMS, type LoggingLevel } from "../../protocol/handler-revision.js";
import { isLoggingLevel, passes, type ServerLogger } from "../logging.js";
import type { LoadedRevision } from "../../protocol/revisions.js";
import type { Channel, Inflight, RequestOptions, Scope } from "../context.js";
import { declared } from "../capabilities.js";
import { idJson, JSONRPC } from "../request/reply.js";
import type { ServerSession } from "../context.js";

/** Params the server sends (handler revision's shape) in the wire revision's shape. */
export function paramsToWire(logger: ServerLogger, wire: LoadedRevision, method: string, params: unknown): unknown {
  return wire.shims
    ? convert(logger, "params", method, params, wire, handlerRevision.name, wire.info.name).message
    : params;
}

/**
 * Sends a notification (params in the handler revision's shape) at a scope:
 * the handshake session's unless a request's is given. Returns false, and
 * sends nothing, when the revision lacks the method, its capability was not
 * declared, or a handshake session is not yet initialized and the method may
 * not be sent before.
 */
export function notify(
  session: ServerSession,
  method: string,
  params: unknown,
  channel: Channel | undefined,
  scope: Scope | undefined,
): boolean {
  const at = scope ?? session.handshakeScope;
  const refusal = at ? refusalOf(session, method, "notification", at) : `${method}: the session is not initialized`;
  const { logger } = session.host;
  if (refusal) {
    logger("debug", `not sent: ${refusal}`);
    return false;
  }
  let onWire = params;
  if (params !== undefined) {
    try {
      onWire = paramsToWire(logger, at!.wire, method, params);
    } catch (error) {
      logger("warning", `not sent: ${(error as Error).message}`);
      return false;
    }
  }
  (channel ?? session.defaultChannel).send(
    onWire === undefined
      ? `{${JSONRPC},"method":${JSON.stringify(method)}}`
      : `{${JSONRPC},"method":${JSON.stringify(method)},"params":${JSON.stringify(onWire)}}`,
  );
  return true;
}

/** Sends a server-to-client request in the handshake session; resolves with the client's result (handler revision's shape). */
export function request(
  session: ServerSession,
  method: string,
  params: unknown,
  options: RequestOptions,
): Promise<unknown> {
  const scope = session.handshakeScope;
  if (!scope) return Promise.reject(new RequestRefusedError(`${method}: the connection has no initialized session`));
  const refusal = refusalOf(session, method, "request", scope);
  if (refusal) return Promise.reject(new RequestRefusedError(refusal));
  if (options.signal?.aborted)
    return Promise.reject(new RequestRefusedError(`${method} was aborted before it was sent`));
  let onWire: unknown;
  try {
    onWire = paramsToWire(session.host.logger, scope.wire, method, params);
  } catch (error) {
    return Promise.reject(error instanceof ShimError ? new RequestRefusedError(error.message) : error);
  }
  const channel = options.channel ?? session.defaultChannel;
  const paramsJson = onWire === undefined ? "" : `,"params":${JSON.stringify(onWire)}`;
  return session.serverRequests.send(
    method,
    {
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? session.host.requestTimeoutMs,
      // basic/utilities/cancellation: the sender tells the receiver it stopped waiting.
      gaveUp: (id, _error, reason) =>
        notify(session, "notifications/cancelled", { requestId: id, reason }, undefined, undefined),
    },
    (id) => channel.send(`{${JSONRPC},"id":${idJson(id)},"method":${JSON.stringify(method)}${paramsJson}}`),
  );
}

/** Why the server may not send `method` at `scope` now, or undefined when it may. */
function refusalOf(
  session: ServerSession,
  method: string,
  kind: "request" | "notification",
  scope: Scope,
): string | undefined {
  if (session.isClosed) return `${method}: the session is closed`;
  const { tables, info } = scope.wire;
  if (!scope.perRequest && !session.isInitialized && !(info.beforeInitialized?.server ?? []).includes(method))
    return `${method} may not be sent before the client has sent notifications/initialized`;
  const entry = Object.hasOwn(tables.methods, method) ? tables.methods[method] : undefined;
  if (!entry || entry.kind !== kind || entry.direction === "client-to-server" || entry.inputRequest)
    return `${method} is not a ${kind} the server sends in protocol revision ${info.name}`;
  const capability = entry.capability;
  if (capability) {
    const holder = capability.holder === "server" ? "server" : "client";
    const capabilities = holder === "server" ? scope.serverCapabilities : scope.clientCapabilities;
    if (!declared(capabilities, capability))
      return `${method} needs the ${holder} capability ${capability.path.join(".")}, which the ${holder} did not declare`;
  }
  return undefined;
}

/** Sends a progress notification for a request that carries a progress token. */
export function progress(
  session: ServerSession,
  inflight: Inflight,
  value: number,
  total: number | undefined,
  message: string | undefined,
): void {
  if (inflight.progressToken === undefined || inflight.cancelled) return;
  // 2025-11-25 basic/utilities/progress: a task keeps its request's token for its life (the extension's has none).
  const task = inflight.task;
  if (inflight.done && !task?.flavour.keepsProgress) return;
  // basic/utilities/progress: "The progress value MUST increase with each notification".
  if (!(value > inflight.lastProgress))
    throw new RangeError(`progress must increase: ${value} after ${inflight.lastProgress}`);
  inflight.lastProgress = value;
  const params: Record<string, unknown> = { progressToken: inflight.progressToken, progress: value };
  if (total !== undefined) params["total"] = total;
  if (message !== undefined) params["message"] = message;
  notify(session, "notifications/progress", params, task ? undefined : inflight.channel, inflight.scope);
}

/**
 * Sends notifications/message when `level` passes the threshold of the
 * scope: the level a handshake client set with logging/setLevel, or the one
 * a per-request request named in `_meta` (none named: nothing is sent).
 */
export function log(
  session: ServerSession,
  level: LoggingLevel,
  data: unknown,
  logger: string | undefined,
  channel: Channel | undefined,
  scope: Scope | undefined,
): boolean {
  if (!isLoggingLevel(level)) throw new TypeError(`unknown logging level ${JSON.stringify(level)}`);
  const at = scope ?? session.handshakeScope;
  if (!at || at.logThreshold === null || !passes(level, at.logThreshold)) return false;
  return notify(
    session,
    "notifications/message",
    logger === undefined ? { level, data } : { level, logger, data },
    channel,
    at,
  );
}

/** A response from the client: the answer to one of the server's requests, checked and converted up. */
export function receiveAnswer(
  session: ServerSession,
  message: Record<string, unknown>,
  classification: Classification,
): void {
  const { logger } = session.host;
  const id = classification.kind === "result" || classification.kind === "error" ? classification.id : undefined;
  const scope = session.handshakeScope;
  const pending = id === undefined || !scope ? undefined : session.serverRequestsIfAny?.take(id);
  if (!pending) {
    logger("debug", `ignored a response to unknown request id ${JSON.stringify(id)}`);
    return;
  }
  if (classification.kind === "error") {
    const error = message["error"] as { code: number; message: string; data?: unknown };
    pending.reject(new ClientError(error.code, error.message, error.data));
    return;
  }
  const wire = scope!.wire;
  const verdict = checkMessage(message, wire.tables, pending.method);
  if (!verdict.result.valid) {
    const problem = verdict.result.errors[0]!;
    pending.reject(
      new ProtocolError(
        INVALID_PARAMS,
        `the client's ${pending.method} result is invalid at ${problem.path || "/"}: ${problem.message}`,
      ),
    );
    return;
  }
  try {
    const result = message["result"];
    pending.resolve(
      wire.shims
        ? convert(logger, "result", pending.method, result, wire, wire.info.name, handlerRevision.name).message
        : result,
    );
  } catch (error) {
    pending.reject(error as Error);
  }
}

/** A session's requests to the client waiting for answers, on the shared pending-request engine. */
export function serverRequests(max: number): PendingRequests {
  return new PendingRequests({
    max,
    firstId: 0,
    unrefTimers: true,
    full: (method) => new RequestRefusedError(`${method}: ${max} requests to the client already wait for its answer`),
    timedOut: (method, id, timeoutMs) =>
      new RequestTimeoutError(
        `${method} (request ${JSON.stringify(id)}) got no response within ${timeoutMs} ms; it was cancelled`,
        { method, requestId: id, timeoutMs },
      ),
    aborted: (method) => new RequestRefusedError(`${method} was aborted`),
  });
}
