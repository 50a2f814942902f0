// How a client's request ends once its handler has run: with a result
// (checked and converted down to the wire revision, request/encode.ts), an error in the
// wire revision's codes, the input it asks for (basic/patterns/mrtr: an
// InputRequiredResult on a per-request revision; server-to-client requests,
// then the handler again, on a handshake one), or a task (tasks/service.ts). The
// session receives and dispatches (session/receive.ts) and invokes
// (session/connection.ts); these functions take it as the ServerSession they need.
import { isObject, type Check } from "../../validation.js";
import { INTERNAL_ERROR, INVALID_PARAMS } from "../../protocol/handler-revision.js";
import { InsufficientScopeError, principalOf } from "../authorization.js";
import { ProtocolError, RequestRefusedError, ResourceNotFoundError } from "../errors.js";
import { errorJson, resultJson } from "./reply.js";
import { encodeError, encodeResult, encodeWireResult, resultProblem } from "./encode.js";
import { InputRequired, InputRound, type InputRequestSpec } from "../input/round.js";
import { inputRequiredResult, nextRound, requireClientCapability } from "../input/input-required.js";
import { paramsToWire } from "../outgoing/send.js";
import type { Inflight, MethodHandler, ServerSession } from "../context.js";
import type { RequestOptions } from "../types.js";

/** A handler's return value (awaited): the request's result, a round of input, or a task's end. */
export function succeed(
  session: ServerSession,
  inflight: Inflight,
  result: unknown,
  handler: MethodHandler,
  core: boolean,
): void {
  if (inflight.task) return settleTask(session, inflight, result, handler);
  if (result instanceof InputRequired) {
    if (inflight.done || inflight.cancelled) return;
    if (!inflight.scope.perRequest) return fulfil(session, inflight, result, handler);
    if (!inflight.round) {
      fail(
        session,
        inflight,
        new RequestRefusedError(
          `${inflight.method} cannot ask the client for input in protocol revision ${inflight.scope.wire.info.name}`,
        ),
      );
      return;
    }
    sendInputRequired(
      session,
      inflight,
      Object.entries(result.inputRequests).map(([key, request]) => ({ key, request })),
      result.requestState,
    );
    return;
  }
  if (!session.finish(inflight)) return;
  const { host } = session;
  replyEncoded(
    session,
    inflight,
    core
      ? encodeWireResult(
          inflight.method,
          inflight.scope.wire,
          result,
          inflight.scope.perRequest ? { serverInfo: host.serverInfoInResults ? host.info : undefined } : undefined,
        )
      : encodeResult(
          host.logger,
          inflight.method,
          inflight.scope,
          result,
          host.serverInfoInResults ? host.info : undefined,
        ),
  );
}

/** Ends a long-lived request with a result in the wire revision's shapes (subscriptions/listen's graceful end). */
export function complete(session: ServerSession, inflight: Inflight, result: unknown): void {
  if (!session.finish(inflight)) return;
  replyEncoded(session, inflight, encodeWireResult(inflight.method, inflight.scope.wire, result));
}

function replyEncoded(session: ServerSession, inflight: Inflight, encoded: { json: string } | { error: string }): void {
  if ("error" in encoded) {
    session.host.logger("error", encoded.error);
    inflight.reply(errorJson(inflight.id, INTERNAL_ERROR, encoded.error), { code: INTERNAL_ERROR });
    return;
  }
  inflight.reply(resultJson(inflight.id, encoded.json));
}

/** A handler's failure: a ProtocolError as its code says (in the wire revision's codes), anything else -32603. */
export function fail(session: ServerSession, inflight: Inflight, error: unknown): void {
  if (inflight.task) {
    const { code, message, data } = errorObject(session, inflight, error);
    inflight.task.settle({ error: data === undefined ? { code, message } : { code, message, data } });
    return;
  }
  if (!session.finish(inflight)) return;
  const { code, message, data } = errorObject(session, inflight, error);
  // A code the wire revision renumbered (RevisionInfo.errorCodes) is already the wire's: no conversion.
  const json =
    error instanceof ProtocolError && code !== error.code
      ? errorJson(inflight.id, code, message, data)
      : encodeError(inflight.id, inflight.method, inflight.scope.wire, code, message, data);
  inflight.reply(json, error instanceof InsufficientScopeError ? { code, requiredScopes: error.scopes } : { code });
}

/** The JSON-RPC error a handler's failure is answered with, in the wire revision's codes. */
function errorObject(
  session: ServerSession,
  inflight: Inflight,
  error: unknown,
): { code: number; message: string; data?: unknown } {
  if (error instanceof ProtocolError) {
    // A condition whose code depends on the revision takes the wire revision's (RevisionInfo.errorCodes).
    const code =
      error instanceof ResourceNotFoundError
        ? (inflight.scope.wire.info.errorCodes["resourceNotFound"] ?? INVALID_PARAMS)
        : error.code;
    return { code, message: error.message, data: error.data };
  }
  const message = error instanceof Error ? error.message : String(error);
  session.host.logger(
    "error",
    `${inflight.method} handler failed: ${message}`,
    error instanceof Error ? error.stack : undefined,
  );
  return { code: INTERNAL_ERROR, message: `Internal error: ${message}` };
}

// --- tasks (tasks/service.ts) ------------------------------------------------------------

/** Answers a request that turned into a task with the task's creation result. */
export function answerWithTask(
  session: ServerSession,
  inflight: Inflight,
  result: Record<string, unknown>,
  check: Check | undefined,
): void {
  if (!session.finish(inflight)) return;
  const problem = resultProblem(check, result, `${inflight.method} task creation result`);
  if (problem) {
    session.host.logger("error", problem);
    inflight.reply(errorJson(inflight.id, INTERNAL_ERROR, problem), { code: INTERNAL_ERROR });
    return;
  }
  inflight.reply(resultJson(inflight.id, JSON.stringify(result)));
}

/** A task's handler ended: its result, as the request would have answered it, goes to the task. */
function settleTask(session: ServerSession, inflight: Inflight, result: unknown, handler: MethodHandler): void {
  const task = inflight.task!;
  if (result instanceof InputRequired) {
    // The explicit style inside a task: the task asks, and the handler runs again with the answers.
    const entries = Object.entries(result.inputRequests);
    Promise.all(entries.map(([key, spec]) => task.ask(spec.method, spec.params).then((a) => [key, a] as const))).then(
      (answers) => {
        inflight.round = nextRound(inflight.round, Object.fromEntries(answers), result.requestState);
        session.invoke(inflight, handler, false);
      },
      (error) => fail(session, inflight, error),
    );
    return;
  }
  const encoded = encodeResult(session.host.logger, inflight.method, inflight.scope, result, undefined);
  if ("error" in encoded) {
    session.host.logger("error", encoded.error);
    task.settle({ error: { code: INTERNAL_ERROR, message: encoded.error } });
    return;
  }
  task.settle({ result: encoded.json, isError: isObject(result) && result["isError"] === true });
}

// --- multi round-trip input ---------------------------------------------------

const NEVER = new Promise<never>(() => {});

/**
 * Input from the client for a request (RequestContext.request): its task's, once
 * it became one; on a per-request revision an input request of the request's
 * InputRequiredResult (input/round.ts has the re-entry rules); else a
 * server-to-client request tied to the request.
 */
export function askClient(
  session: ServerSession,
  inflight: Inflight,
  method: string,
  params: unknown,
  options: RequestOptions,
): Promise<unknown> {
  if (inflight.task) return inflight.task.ask(method, params);
  if (asksByInputRequest(inflight, method)) {
    try {
      const answered = askInput(session, inflight, method, params);
      return answered ? Promise.resolve(answered.value) : NEVER;
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return session.request(method, params, { signal: inflight.signal, channel: inflight.channel, ...options });
}

/** Whether the context's input request travels in an InputRequiredResult. */
function asksByInputRequest(inflight: Inflight, method: string): boolean {
  const { wire, perRequest } = inflight.scope;
  if (!perRequest) return false;
  const entry = Object.hasOwn(wire.tables.methods, method) ? wire.tables.methods[method] : undefined;
  return entry?.inputRequest === true;
}

/** The answer to an awaited input request, or undefined once it is asked for. */
function askInput(
  session: ServerSession,
  inflight: Inflight,
  method: string,
  params: unknown,
): { readonly value: unknown } | undefined {
  if (!inflight.round)
    throw new RequestRefusedError(
      `${method}: ${inflight.method} cannot ask the client for input in protocol revision ${inflight.scope.wire.info.name} (its result cannot be InputRequiredResult)`,
    );
  requireClientCapability(inflight.scope, method);
  const round = inflight.round;
  const answer = round.answer(method, params);
  // A per-request round's first missing input: the round ends once the handler's run has asked for all it will.
  if (answer === undefined && round.missing.length === 1 && inflight.scope.perRequest)
    inputMissing(session, inflight, round);
  return answer;
}

/** A per-request round's first missing input: the round ends once the handler's run has asked for all it will. */
function inputMissing(session: ServerSession, inflight: Inflight, round: InputRound): void {
  setImmediate(() => sendInputRequired(session, inflight, round.missing, round.state));
}

/** Ends a round: InputRequiredResult with the requests asked for and a signed requestState. */
function sendInputRequired(
  session: ServerSession,
  inflight: Inflight,
  asked: readonly { key: string; request: InputRequestSpec }[],
  state: unknown,
): void {
  const { scope } = inflight;
  const { host } = session;
  let result: Record<string, unknown>;
  try {
    result = inputRequiredResult(
      host.requestState,
      scope,
      {
        method: inflight.method,
        params: inflight.params,
        round: inflight.round!,
        principal: principalOf(inflight.channel.authorization),
      },
      asked,
      state,
      (method, params) => paramsToWire(host.logger, scope.wire, method, params),
      host.serverInfoInResults ? host.info : undefined,
    );
  } catch (error) {
    fail(session, inflight, error);
    return;
  }
  if (!session.finish(inflight)) return;
  replyEncoded(session, inflight, encodeWireResult(inflight.method, scope.wire, result));
}

/**
 * The explicit style on a handshake revision: the runtime sends the input
 * requests to the client itself and runs the handler again with the answers.
 */
function fulfil(session: ServerSession, inflight: Inflight, asked: InputRequired, handler: MethodHandler): void {
  const previous = inflight.round;
  const rounds = (previous?.round ?? 0) + 1;
  const { maxRounds } = session.host.requestState;
  if (rounds > maxRounds) {
    fail(
      session,
      inflight,
      new ProtocolError(INTERNAL_ERROR, `${inflight.method} asked for input more than ${maxRounds} times`),
    );
    return;
  }
  const entries = Object.entries(asked.inputRequests);
  Promise.all(
    entries.map(([key, spec]) =>
      session
        .request(spec.method, spec.params, { signal: inflight.signal, channel: inflight.channel })
        .then((answer) => [key, answer] as const),
    ),
  ).then(
    (answers) => {
      if (inflight.done) return;
      inflight.round = nextRound(previous, Object.fromEntries(answers), asked.requestState);
      session.invoke(inflight, handler, false);
    },
    (error) => fail(session, inflight, error),
  );
}
