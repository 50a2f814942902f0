// Multi round-trip requests, the client's side (2026-07-28
// basic/patterns/mrtr#client-requirements-basic-workflow): an
// InputRequiredResult's inputRequests are answered by the client's handlers,
// and the request is sent again (a new id) with inputResponses and the exact
// requestState it was given, and without one when none was given.
import { isObject } from "../validation.js";
import { MAX_SERVED } from "./connection.js";
import { McpError, ServerMessageError } from "./errors.js";

/** The requests a server may ask of a client, on either era (mrtr#input-requests). */
export const INPUT_RESPONSE_METHODS: ReadonlySet<string> = new Set([
  "elicitation/create",
  "roots/list",
  "sampling/createMessage",
]);

/**
 * The input requests one InputRequiredResult may carry, and one task may ask over its life (tasks.ts):
 * beyond it the server is asking without end, and the request fails instead of calling the handlers.
 */
export const MAX_INPUT_KEYS = 1000;

/**
 * Answers input requests (key → { method, params }) by `answer`, in order of keys. Every one is checked
 * before any handler runs, and at most MAX_SERVED run at once: the bound of the requests a legacy
 * client serves at once (connection.ts), so one result of 1,000 sampling/createMessage entries does
 * not start 1,000 model calls together. The first failure ends the round: no further one is started.
 */
export async function answerInputs(
  entries: readonly (readonly [string, unknown])[],
  answer: (method: string, params: unknown) => Promise<unknown>,
  refuse: (key: string, method: unknown) => Error,
): Promise<unknown[]> {
  const calls = entries.map(([key, request]) => {
    const method = isObject(request) ? request["method"] : undefined;
    if (typeof method !== "string" || !INPUT_RESPONSE_METHODS.has(method)) throw refuse(key, method);
    return { method, params: (request as Record<string, unknown>)["params"] };
  });
  const answers = new Array<unknown>(calls.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < calls.length) {
      const i = next++;
      try {
        answers[i] = await answer(calls[i]!.method, calls[i]!.params);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAX_SERVED, calls.length) }, worker));
  return answers;
}

/** The params of the retry: the original params, the answers, and the server's requestState echoed as given. */
export async function inputRound(
  method: string,
  params: Record<string, unknown>,
  result: Record<string, unknown>,
  answer: (method: string, params: unknown, signal: AbortSignal) => Promise<unknown>,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const requests = isObject(result["inputRequests"]) ? result["inputRequests"] : {};
  const keys = Object.keys(requests);
  if (keys.length > MAX_INPUT_KEYS)
    throw new ServerMessageError(
      `the server asked for ${keys.length} inputs in one answer to ${method}, more than the ${MAX_INPUT_KEYS} a client answers`,
      "/result/inputRequests",
    );
  const own = signal ?? new AbortController().signal;
  const answers = await answerInputs(
    keys.map((key) => [key, requests[key]] as const),
    (inputMethod, inputParams) => answer(inputMethod, inputParams, own),
    (key, inputMethod) =>
      new McpError(
        -32602,
        `the server asked for input ${key} with ${JSON.stringify(inputMethod)}, which is not an input request`,
      ),
  );
  const { inputResponses: _previous, requestState: _state, ...rest } = params;
  return {
    ...rest,
    ...(keys.length > 0 ? { inputResponses: Object.fromEntries(keys.map((key, i) => [key, answers[i]])) } : {}),
    ...(typeof result["requestState"] === "string" ? { requestState: result["requestState"] } : {}),
  };
}
