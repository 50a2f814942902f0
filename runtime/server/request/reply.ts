// The JSON text of replies: result and error responses, written directly
// around the result's JSON text.
import type { ValidationResult } from "../../validation.js";
import type { RequestId } from "../../messages.js";
import { INVALID_PARAMS, INVALID_REQUEST } from "../../protocol/handler-revision.js";

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

/** A request id as JSON text. */
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
