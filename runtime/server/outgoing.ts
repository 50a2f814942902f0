// Server-to-client requests of a handshake session (sampling, elicitation,
// roots, ping): ids, timeouts, cancellation, and the answers waiting for them.
// The map is bounded (SessionLimits.pendingClientRequests); each entry ends by
// an answer, a timeout, an abort or the connection closing.
import { IdMap } from "../id-map.js";
import type { RequestId } from "../messages.js";
import { RequestRefusedError, RequestTimeoutError } from "./errors.js";

interface Pending {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

export class ServerRequests {
  private readonly pending = new IdMap<RequestId, Pending>();
  private nextId = 0;

  constructor(
    /** Requests waiting at once; one more is refused before it is sent. */
    private readonly max: number,
    /** Tells the client a request was given up (basic/utilities/cancellation). */
    private readonly cancelled: (id: RequestId, reason: string) => void,
  ) {}

  /**
   * Writes one request (`write` gets its id) and resolves with the client's
   * result message as it arrives, unchecked; rejects on timeout or abort, after
   * sending the cancellation.
   */
  send(
    method: string,
    write: (id: number) => void,
    options: { readonly signal?: AbortSignal; readonly timeoutMs: number },
  ): Promise<unknown> {
    if (this.pending.size >= this.max)
      return Promise.reject(
        new RequestRefusedError(`${method}: ${this.max} requests to the client already wait for its answer`),
      );
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const cancel = (reason: string) => {
        if (this.pending.delete(id)) {
          cleanup();
          this.cancelled(id, reason);
        }
      };
      const timer = setTimeout(() => {
        cancel(`timed out after ${options.timeoutMs} ms`);
        reject(new RequestTimeoutError(method, id, options.timeoutMs));
      }, options.timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      const onAbort = () => {
        cancel(String(options.signal?.reason ?? "aborted"));
        reject(new RequestRefusedError(`${method} was aborted`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, { method, resolve, reject, cleanup });
      write(id);
    });
  }

  /** Requests waiting for the client's answer. */
  get size(): number {
    return this.pending.size;
  }

  /** The request a response answers, removed from the waiting ones; undefined for an unknown id. */
  take(id: RequestId): Pick<Pending, "method" | "resolve" | "reject"> | undefined {
    const pending = this.pending.take(id);
    if (!pending) return undefined;
    pending.cleanup();
    return pending;
  }

  /** Fails every waiting request: no answer can come any more. */
  rejectAll(why: string): void {
    if (this.pending.size === 0) return;
    for (const pending of this.pending.values()) {
      pending.cleanup();
      pending.reject(new RequestRefusedError(`${pending.method}: ${why}`));
    }
    this.pending.clear();
  }
}
