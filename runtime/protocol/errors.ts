// Errors both sides raise about the protocol itself, rather than about what a
// peer answered: a request given up for want of an answer.
import type { RequestId } from "../messages.js";

/**
 * A request got no answer within its timeout; where it had been sent, the
 * peer was told it was given up (basic/lifecycle#timeouts, basic/utilities/cancellation).
 */
export class RequestTimeoutError extends Error {
  override name = "RequestTimeoutError";
  /** The request's method, when the timeout was a request's. */
  readonly method: string | undefined;
  /** The request's id, when it had one. */
  readonly requestId: RequestId | undefined;
  /** How long it waited, in ms, when known. */
  readonly timeoutMs: number | undefined;

  constructor(
    message: string,
    request: { readonly method?: string; readonly requestId?: RequestId; readonly timeoutMs?: number } = {},
  ) {
    super(message);
    this.method = request.method;
    this.requestId = request.requestId;
    this.timeoutMs = request.timeoutMs;
  }
}
