// The JSON text of replies: result and error responses, written directly so
// that the common path costs one JSON.stringify of the result.
import type { ValidationResult } from "../validation.js";
import type { RequestId } from "../messages.js";
import { INVALID_PARAMS, INVALID_REQUEST } from "./handler-revision.js";

export const JSONRPC = `"jsonrpc":"2.0"`;

/**
 * What a transport may want to know of a reply besides its text: the JSON-RPC
 * error code, and whether the request was malformed (its per-request protocol
 * fields missing or invalid), which Streamable HTTP answers with 400
 * (2026-07-28 basic/index#meta).
 */
export interface ReplyOutcome {
  readonly code: number;
  readonly malformed?: boolean;
  /** The token lacks a scope: every scope the operation needs (HTTP 403, basic/authorization#runtime-insufficient-scope-errors). */
  readonly requiredScopes?: readonly string[];
}

/**
 * A request id as JSON text. JSON.stringify for numbers too: a number put in a
 * template literal goes through V8's number-to-string cache, an old-generation
 * table that keeps each new id's string alive through the young generation's
 * collections until another number takes its slot (measured: ~60 KB surviving
 * each scavenge of a stdio server, one request at a time; new space grew to
 * 8 MB where the floor's stays at 2). JSON.stringify writes the digits without it.
 */
export function idJson(id: RequestId): string {
  return JSON.stringify(id);
}

export function resultJson(id: RequestId, result: string): string {
  return `{${JSONRPC},"id":${idJson(id)},"result":${result}}`;
}

/** An error response; without an id when the request's id could not be read (basic#error-responses). */
export function errorJson(id: RequestId | undefined, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return JSON.stringify(id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error });
}

/** -32602 when the problem is inside params, -32600 when the envelope itself is wrong. */
export function invalidMessage(id: RequestId, verdict: ValidationResult): { json: string; outcome: ReplyOutcome } {
  if (verdict.valid) throw new Error("invalidMessage called with a valid verdict");
  const problem = verdict.errors[0]!;
  const inParams = problem.path === "/params" || problem.path.startsWith("/params/");
  if (!inParams)
    return {
      json: errorJson(id, INVALID_REQUEST, `Invalid Request: ${problem.path || "/"} ${problem.message}`, {
        errors: verdict.errors,
      }),
      outcome: { code: INVALID_REQUEST, malformed: true },
    };
  // basic/index#meta: a request missing a required per-request field is malformed (-32602, HTTP 400).
  const inMeta = problem.path === "/params" || problem.path.startsWith("/params/_meta");
  return {
    json: errorJson(id, INVALID_PARAMS, `Invalid params: ${problem.path} ${problem.message}`, {
      errors: verdict.errors,
    }),
    outcome: { code: INVALID_PARAMS, malformed: inMeta },
  };
}
