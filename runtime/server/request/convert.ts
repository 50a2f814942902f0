// The convert stage of a request's path: a request's params up to the handler
// revision with the wire revision's shims (results go down in encode.ts, on
// the same conversion). Lossy changes are logged at debug.
import { isObject } from "../../validation.js";
import { handlerRevision } from "../../protocol/handler-revision.js";
import type { LoadedRevision } from "../../protocol/revisions.js";
import type { Converted } from "../../shim-data.js";
import type { SessionHost } from "../context.js";
import type { ServerLogger } from "../logging.js";
import { handshakeMeta, type SessionScope } from "../session/lifecycle.js";
import type { Scope } from "../types.js";

/**
 * Converts a method's params or result between revisions with the wire's
 * shims; lossy changes are logged at debug. The answer says what the
 * conversion checked on the way (Converted.checked).
 */
export function convert(
  logger: ServerLogger,
  what: "params" | "result",
  method: string,
  value: unknown,
  wire: LoadedRevision,
  from: string,
  to: string,
): Converted {
  const shims = wire.shims!;
  const converted =
    what === "params"
      ? shims.convertParams(method, value, { from, to })
      : shims.convertResult(method, value, { from, to });
  if (converted.changes.length > 0)
    logger("debug", `${method} ${what} converted from ${from} to ${to}`, converted.changes);
  return converted;
}

/**
 * A request's params on their way to the handler revision. A handshake
 * session's request takes the per-request fields the handler revision requires
 * in `_meta` from the session (its negotiated capabilities and identity), not
 * from defaults.
 */
export function upgradeParams(host: SessionHost, method: string, params: unknown, scope: Scope): unknown {
  if (!scope.perRequest && isObject(params)) {
    // The parsed message is the session's: its params take the session's fields in place.
    const meta = params["_meta"];
    const session = handshakeMeta(scope as SessionScope);
    params["_meta"] = isObject(meta) ? { ...meta, ...session } : session;
  }
  return convert(host.logger, "params", method, params, scope.wire, scope.wire.info.name, handlerRevision.name).message;
}
