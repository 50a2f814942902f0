// The checks a request passes at its scope before a handler runs: the method
// is a request a client sends in the revision, and its server capability was
// declared (METHOD_NOT_FOUND); the message matches the revision's schema
// (INVALID_PARAMS or INVALID_REQUEST: request/reply.ts); a per-request POST's headers
// match its body (HEADER_MISMATCH: protocol/headers.ts); the server implements it.
// Then its params are converted to the handler revision's shapes and its input
// round is opened. What passes becomes an Inflight (context.ts); what does not is
// answered here, and nothing else happens.
import { isObject, run } from "../../validation.js";
import { INVALID_PARAMS, METHOD_NOT_FOUND } from "../../protocol/handler-revision.js";
import { Inflight } from "../context.js";
import type { IncomingRequest, Scope } from "../types.js";
import { errorJson, invalidMessage } from "./reply.js";
import { checkHeaders } from "../../protocol/headers.js";
import { upgradeParams } from "./convert.js";
import { declared } from "../capabilities.js";
import { principalOf } from "../authorization.js";
import { openRound, takesInput } from "../input/input-required.js";
import { InputRound } from "../input/round.js";
import type { CoreMethod, MethodHandler, SessionHost } from "../context.js";

/** A request that passed: what runs it (a core method in the wire's shapes, or a handler in the handler revision's). */
export interface Admitted {
  readonly inflight: Inflight;
  readonly core: CoreMethod | undefined;
  readonly handler: MethodHandler | undefined;
}

/** Runs a request at `scope` through the checks; undefined when it failed one, and was answered. */
export function admit(host: SessionHost, request: IncomingRequest, scope: Scope): Admitted | undefined {
  const { message, method, id, reply, channel } = request;
  const { tables, info } = scope.wire;
  const entry = Object.hasOwn(tables.methods, method) ? tables.methods[method] : undefined;
  if (!entry || entry.kind !== "request" || entry.direction === "server-to-client" || entry.inputRequest) {
    const why = entry ? "is not a request a client sends" : "does not exist";
    reply(errorJson(id, METHOD_NOT_FOUND, `Method not found: ${method} ${why} in protocol revision ${info.name}`), {
      code: METHOD_NOT_FOUND,
    });
    return undefined;
  }
  if (
    entry.capability &&
    entry.capability.holder !== "client" &&
    !declared(scope.serverCapabilities, entry.capability)
  ) {
    reply(
      errorJson(
        id,
        METHOD_NOT_FOUND,
        `Method not found: ${method} needs the server capability ${entry.capability.path.join(".")}, which this server did not declare`,
      ),
      { code: METHOD_NOT_FOUND },
    );
    return undefined;
  }
  const verdict = run(tables.checks[entry.type]!, message);
  if (!verdict.valid) {
    const invalid = invalidMessage(id, verdict);
    reply(invalid.json, { ...invalid.outcome, malformed: invalid.outcome.malformed && scope.perRequest });
    return undefined;
  }
  if (scope.perRequest && channel.headers) {
    const mismatch = checkHeaders(message, method, channel.headers, host, tables.nameHeaders);
    if (mismatch) {
      reply(errorJson(id, mismatch.code, mismatch.message), { code: mismatch.code });
      return undefined;
    }
  }
  const core = Object.hasOwn(host.coreMethods, method) ? host.coreMethods[method] : undefined;
  const handler = core ? undefined : Object.hasOwn(host.handlers, method) ? host.handlers[method] : undefined;
  if (!core && !handler) {
    reply(errorJson(id, METHOD_NOT_FOUND, `Method not found: this server does not implement ${method}`), {
      code: METHOD_NOT_FOUND,
    });
    return undefined;
  }
  const wireParams = message["params"];
  let params = wireParams;
  if (!core && scope.wire.shims) {
    try {
      params = upgradeParams(host, method, params, scope);
    } catch (error) {
      reply(errorJson(id, INVALID_PARAMS, `Invalid params: ${(error as Error).message}`), { code: INVALID_PARAMS });
      return undefined;
    }
  }
  const meta = isObject(params) && isObject(params["_meta"]) ? params["_meta"] : undefined;
  const token = meta?.["progressToken"];
  let round: InputRound | undefined;
  if (!core && takesInput(scope, method)) {
    const opened = openRound(host.requestState, method, params, principalOf(channel.authorization));
    if (!(opened instanceof InputRound)) {
      reply(errorJson(id, INVALID_PARAMS, `Invalid params: ${opened.error}`, { reason: opened.error }), {
        code: INVALID_PARAMS,
      });
      return undefined;
    }
    round = opened;
  }
  const inflight = new Inflight(
    id,
    method,
    typeof token === "string" || typeof token === "number" ? token : undefined,
    reply,
    channel,
    scope,
    round,
    params ?? {},
  );
  if (params !== wireParams) inflight.wireParams = wireParams;
  inflight.length = request.length;
  return { inflight, core, handler };
}
