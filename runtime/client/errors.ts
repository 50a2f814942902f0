// What a client call can fail with. Each error names what went wrong and, for
// a message the server got wrong, where in it (a JSON pointer).
import type { ValidationError } from "../validation.js";

/** The server answered with a JSON-RPC error. */
export class McpError extends Error {
  override name = "McpError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * The server sent something its revision's schema does not allow (or that is
 * not JSON-RPC at all): never passed on. `pointer` is where in the message.
 */
export class ServerMessageError extends Error {
  override name = "ServerMessageError";
  constructor(
    message: string,
    readonly pointer: string,
    readonly errors: readonly ValidationError[] = [],
  ) {
    super(message);
  }
}

export { RequestTimeoutError } from "../protocol/errors.js";

/** The connection ended (the server exited, the stream closed, close() was called) before the answer. */
export class ConnectionClosedError extends Error {
  override name = "ConnectionClosedError";
}

/** An HTTP answer that is not an MCP message: the status and what the body said. */
export class HttpStatusError extends Error {
  override name = "HttpStatusError";
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Headers,
    message: string,
  ) {
    super(message);
  }
}

/**
 * HTTP 404 for a POST that carried a legacy session's id: the server ended that session and did not
 * take the message (2025-11-25 basic/transports#session-management). `session` is the id it refused.
 */
export class SessionExpiredError extends HttpStatusError {
  override name = "SessionExpiredError";
  constructor(
    readonly session: string,
    body: string,
    headers: Headers,
    message: string,
  ) {
    super(404, body, headers, message);
  }
}

/** A task ended cancelled (tasks/cancel, or the server's doing) before it had a result. */
export class TaskCancelledError extends Error {
  override name = "TaskCancelledError";
  constructor(
    readonly taskId: string,
    message: string,
  ) {
    super(message);
  }
}
