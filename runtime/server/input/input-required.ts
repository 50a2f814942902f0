// The server side of multi round-trip requests (2026-07-28
// basic/patterns/mrtr): which requests may answer InputRequiredResult, the
// input a retried request brings back (verified), the client capability each
// input request needs, and the InputRequiredResult of a round.
import { isObject, test } from "../../validation.js";
import type { Scope } from "../context.js";
import { MissingClientCapabilityError } from "../errors.js";
import { handlerTables, type ClientCapabilities } from "../../protocol/handler-revision.js";
import { InputRound, inputResponsesOf, type InputRequestSpec } from "./round.js";
import { principalDigest, requestDigest, type RequestStateCodec } from "./request-state.js";
import { declared } from "../capabilities.js";
import { META_SERVER_INFO } from "../../protocol/meta.js";

const takes = new Map<string, boolean>();

/**
 * Whether a request at this scope can be answered with InputRequiredResult:
 * its revision carries input requests in results (RevisionInfo.inputRequests)
 * and the method's result type admits one (its ResultResponse's union).
 */
export function takesInput(scope: Scope, method: string): boolean {
  if (!scope.wire.info.inputRequests) return false;
  let answer = takes.get(method);
  if (answer === undefined) {
    const check = handlerTables.results[method];
    answer = check !== undefined && test(check, { resultType: "input_required", requestState: "probe" });
    takes.set(method, answer);
  }
  return answer;
}

/** Whether an answer fits the result type of the input request it answers (a wrong one is asked for again). */
function fits(method: string, answer: unknown): boolean {
  const check = handlerTables.results[method];
  return check === undefined || test(check, answer);
}

/**
 * The input a request brings: the inputResponses and, when it carries a
 * requestState, the earlier rounds' answers and the handler's state, verified
 * (#server-requirements-basic-workflow: attacker-controlled, rejected when it
 * fails verification).
 */
export function openRound(
  codec: RequestStateCodec,
  method: string,
  params: unknown,
  principal: string,
): InputRound | { error: string } {
  const token = isObject(params) ? params["requestState"] : undefined;
  const responses = inputResponsesOf(params);
  if (typeof token !== "string") return new InputRound(responses, undefined, 0, fits);
  const opened = codec.open(token, method, requestDigest(params), principalDigest(principal));
  if (!opened.ok) return { error: opened.reason };
  return new InputRound({ ...opened.payload.a, ...responses }, opened.payload.s, opened.payload.n, fits);
}

/** A fresh round for the explicit style on a handshake revision, with the answers the runtime collected. */
export function nextRound(
  previous: InputRound | undefined,
  answers: Record<string, unknown>,
  state: unknown,
): InputRound {
  return new InputRound({ ...(previous?.answers ?? {}), ...answers }, state, (previous?.round ?? 0) + 1, fits);
}

/**
 * MissingClientCapabilityError unless the scope's client declared what
 * `method` needs (basic/index#meta; #server-requirements-basic-workflow:
 * "MUST NOT send an inputRequests that the client has not declared support for").
 */
export function requireClientCapability(scope: Scope, method: string): void {
  const methods = scope.wire.tables.methods;
  const capability = Object.hasOwn(methods, method) ? methods[method]!.capability : null;
  if (!capability || declared(scope.clientCapabilities, capability)) return;
  const required: Record<string, unknown> = {};
  let node = required;
  capability.path.forEach((key, i) => {
    node[key] = i === capability.path.length - 1 ? {} : (node = {} as Record<string, unknown>);
  });
  throw new MissingClientCapabilityError(required as ClientCapabilities);
}

/**
 * The InputRequiredResult of a round, on the wire: the requests (params
 * converted by `toWire`), and a requestState carrying the request's identity,
 * an expiry, every answer so far and the handler's state. Throws
 * MissingClientCapabilityError for a request the client cannot answer.
 */
export function inputRequiredResult(
  codec: RequestStateCodec,
  scope: Scope,
  request: {
    readonly method: string;
    readonly params: unknown;
    readonly round: InputRound;
    readonly principal: string;
  },
  asked: readonly { key: string; request: InputRequestSpec }[],
  state: unknown,
  toWire: (method: string, params: unknown) => unknown,
  serverInfo: unknown,
): Record<string, unknown> {
  const inputRequests: Record<string, unknown> = {};
  for (const { key, request: spec } of asked) {
    requireClientCapability(scope, spec.method);
    const params = spec.params === undefined ? undefined : toWire(spec.method, spec.params);
    inputRequests[key] = params === undefined ? { method: spec.method } : { method: spec.method, params };
  }
  const requestState = codec.seal({
    m: request.method,
    d: requestDigest(request.params),
    x: Date.now() + codec.ttlMs,
    a: request.round.answers,
    ...(state !== undefined ? { s: state } : {}),
    n: request.round.round + 1,
    ...(request.principal !== "" ? { p: principalDigest(request.principal) } : {}),
  });
  // #inputrequiredresult: interim results carry no caching hints.
  const result: Record<string, unknown> = { resultType: "input_required", inputRequests, requestState };
  if (serverInfo !== undefined) result["_meta"] = { [META_SERVER_INFO]: serverInfo };
  return result;
}
