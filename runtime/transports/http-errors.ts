// The HTTP transports' error responses: an HTTP status with a JSON-RPC error
// as its body (basic/transports), with the request's id where the body was read.
import type { HttpResponseSink } from "./http-wire.js";
import type { RequestId } from "../messages.js";
import { isObject } from "../validation.js";
import { endJson } from "./http-exchanges.js";

/**
 * A new session or stream refused (basic/transports: the server may refuse new
 * sessions): 503 when the server is full, 429 when the caller is at its own
 * bound; the message names the bound.
 */
export function refused(response: HttpResponseSink, refusal: { status: number; message: string }): void {
  httpError(response, refusal.status, refusal.message, { "Retry-After": "5" });
}

/**
 * Without the request's id: a client must answer a 404 by starting a new session
 * (basic/transports#session-management), and one that takes an error naming its
 * request as that request's answer would fail it instead.
 */
export function sessionNotFound(response: HttpResponseSink, id: string): void {
  jsonRpcError(response, 404, -32001, `Not Found: session ${id} does not exist or has ended`);
}

/** An HTTP error whose body is a JSON-RPC error response without an id (basic/transports). */
export function httpError(
  response: HttpResponseSink,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  requestId?: RequestId,
): void {
  jsonRpcError(response, status, -32000, message, headers, requestId);
}

/** A JSON-RPC error as an HTTP error's body; with the request's id where the body was read (basic#error-responses). */
export function jsonRpcError(
  response: HttpResponseSink,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  requestId?: RequestId,
): void {
  const error = { code, message };
  const body = requestId === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id: requestId, error };
  endJson(response, status, JSON.stringify(body), headers);
}

/** The id of a request read from a POST body (none for a notification, a batch or something else). */
export function requestIdOf(message: unknown): RequestId | undefined {
  const id = isObject(message) && typeof message["method"] === "string" ? message["id"] : undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
