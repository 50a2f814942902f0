// Errors a handler may throw to choose the JSON-RPC error its request gets, and
// the errors the runtime raises towards handler code.
import { INTERNAL_ERROR, INVALID_PARAMS, type RequestId } from "./handler-revision.js";

/** "Resource not found" (server/resources#error-handling); the prose names it, the schema has no constant. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A JSON-RPC error: thrown by a handler, it becomes the error response with
 * this code, message and data. Any other thrown error becomes -32603 (Internal
 * error), except in tools/call, where it becomes a result with isError: true
 * (server/tools#error-handling).
 */
export class ProtocolError extends Error {
  override name = "ProtocolError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** Invalid params (-32602), e.g. an unknown tool or prompt, a missing argument, an invalid cursor. */
export function invalidParams(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(INVALID_PARAMS, message, data);
}

/** A server-to-client request that got no response in time; a cancellation was sent (basic/lifecycle#timeouts). */
export class RequestTimeoutError extends Error {
  override name = "RequestTimeoutError";
  constructor(
    readonly method: string,
    readonly requestId: RequestId,
    readonly timeoutMs: number,
  ) {
    super(`${method} (request ${JSON.stringify(requestId)}) got no response within ${timeoutMs} ms; it was cancelled`);
  }
}

/** A server-to-client request the session cannot send: not in the client's revision, not declared by the client, closed. */
export class RequestRefusedError extends Error {
  override name = "RequestRefusedError";
}

/**
 * The client answered a server-to-client request with an error response. Not
 * a ProtocolError: a handler that lets it escape fails its own request
 * (-32603, or an isError result in tools/call) rather than echoing the client's code.
 */
export class ClientError extends Error {
  override name = "ClientError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export { INTERNAL_ERROR };
