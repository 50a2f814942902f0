// Multi round-trip requests, the client's side (2026-07-28
// basic/patterns/mrtr#client-requirements-basic-workflow): an
// InputRequiredResult's inputRequests are answered by the client's handlers,
// and the request is sent again (a new id) with inputResponses and the exact
// requestState it was given, and without one when none was given.
import { isObject } from "../validation.js";
import { McpError } from "./errors.js";

/** The requests a server may ask of a client, on either era (mrtr#input-requests). */
export const INPUT_RESPONSE_METHODS: ReadonlySet<string> = new Set([
  "elicitation/create",
  "roots/list",
  "sampling/createMessage",
]);

/** The params of the retry: the original params, the answers, and the server's requestState echoed as given. */
export async function inputRound(
  params: Record<string, unknown>,
  result: Record<string, unknown>,
  answer: (method: string, params: unknown, signal: AbortSignal) => Promise<unknown>,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const requests = isObject(result["inputRequests"]) ? result["inputRequests"] : {};
  const keys = Object.keys(requests);
  const own = signal ?? new AbortController().signal;
  const answers = await Promise.all(
    keys.map((key) => {
      const request = requests[key];
      const method = isObject(request) ? request["method"] : undefined;
      if (typeof method !== "string" || !INPUT_RESPONSE_METHODS.has(method))
        throw new McpError(
          -32602,
          `the server asked for input ${key} with ${JSON.stringify(method)}, which is not an input request`,
        );
      return answer(method, (request as Record<string, unknown>)["params"], own);
    }),
  );
  const { inputResponses: _previous, requestState: _state, ...rest } = params;
  return {
    ...rest,
    ...(keys.length > 0 ? { inputResponses: Object.fromEntries(keys.map((key, i) => [key, answers[i]])) } : {}),
    ...(typeof result["requestState"] === "string" ? { requestState: result["requestState"] } : {}),
  };
}
