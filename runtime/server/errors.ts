// Errors a handler may throw to choose the JSON-RPC error its request gets, and
// the errors the runtime raises towards handler code.
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  type ClientCapabilities,
} from "../protocol/handler-revision.js";

/**
 * "Resource not found" up to 2025-11-25 (server/resources#error-handling). From
 * 2026-07-28 it is -32602; throw ResourceNotFoundError to get each client's
 * revision's code (RevisionInfo.errorCodes.resourceNotFound).
 */
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

/**
 * No resource at `uri`: answered with the code the client's revision assigns
 * (-32002 up to 2025-11-25, -32602 from 2026-07-28; RevisionInfo.errorCodes).
 */
export class ResourceNotFoundError extends ProtocolError {
  override name = "ResourceNotFoundError";
  constructor(readonly uri: string) {
    super(INVALID_PARAMS, `Resource not found: ${uri}`, { uri });
  }
}

/**
 * The request needs a client capability its `_meta` did not declare
 * (2026-07-28 basic/index#meta, -32021); `requiredCapabilities` lists them.
 */
export class MissingClientCapabilityError extends ProtocolError {
  override name = "MissingClientCapabilityError";
  constructor(readonly requiredCapabilities: ClientCapabilities) {
    super(
      MISSING_REQUIRED_CLIENT_CAPABILITY,
      `Missing required client capability: ${Object.keys(requiredCapabilities).join(", ")}`,
      { requiredCapabilities },
    );
  }
}

/** Invalid params (-32602), e.g. an unknown tool or prompt, a missing argument, an invalid cursor. */
export function invalidParams(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(INVALID_PARAMS, message, data);
}

export { RequestTimeoutError } from "../protocol/errors.js";

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
