// The requests one side sent and awaits answers for: the server's requests to
// a handshake client (sampling, elicitation, roots, ping) and a client's
// requests to its server. Each gets a new id, waits at most its timeout and
// ends early when its caller's AbortSignal aborts; how many wait at once is
// bounded, so that a peer that never answers cannot grow what this side keeps.
// Whoever gives up on a request tells the peer (basic/utilities/cancellation:
// gaveUp); a response for an id no longer waiting is the caller's to ignore.
import type { RequestId } from "../messages.js";

/** One request waiting for its answer. */
export interface Waiting {
  readonly id: number;
  readonly method: string;
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

/** What differs between the sides: the bound, the first id, and the errors a request ends with. */
export interface PendingRequestsOptions {
  /** Requests waiting at once; one more is refused before it is sent. */
  readonly max: number;
  /** The first request's id; each next one counts up from it. */
  readonly firstId: number;
  /** Whether a waiting request's timer may let the process exit (a server's requests must not hold it open). */
  readonly unrefTimers: boolean;
  /** The error of a request refused because `max` requests already wait. */
  full(method: string, max: number): Error;
  /** The error of a request that got no answer within `timeoutMs`. */
  timedOut(method: string, id: number, timeoutMs: number): Error;
  /** The error of a request whose caller aborted it. */
  aborted(method: string, reason: unknown): Error;
}

export interface SendOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /**
   * The request was given up (timed out, or aborted) after it was sent: the
   * peer is told so. `why` says it in words: "timed out after N ms", or the abort's reason.
   */
  readonly gaveUp?: ((id: number, error: Error, why: string) => void) | undefined;
}

export class PendingRequests<Extra extends object = object> {
  private readonly waiting = new Map<RequestId, Waiting & Extra & { readonly release: () => void }>();
  private nextId: number;

  constructor(private readonly options: PendingRequestsOptions) {
    this.nextId = options.firstId;
  }

  /** Requests waiting for their answers. */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * Sends one request (`write` gets its id, and sends it) and resolves with
   * the answer given to `take(id).resolve`; rejects when `max` requests wait
   * already (before anything is written), on timeout or abort.
   */
  send(method: string, options: SendOptions, write: (id: number) => void, extra = {} as Extra): Promise<unknown> {
    const { max } = this.options;
    if (this.waiting.size >= max) return Promise.reject(this.options.full(method, max));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const { timeoutMs, signal, gaveUp } = options;
      const giveUp = (error: Error, why: string) => {
        if (!this.take(id)) return;
        reject(error);
        gaveUp?.(id, error, why);
      };
      const timer = setTimeout(
        () => giveUp(this.options.timedOut(method, id, timeoutMs), `timed out after ${timeoutMs} ms`),
        timeoutMs,
      );
      if (this.options.unrefTimers) timer.unref?.();
      const onAbort = () => giveUp(this.options.aborted(method, signal?.reason), String(signal?.reason ?? "aborted"));
      signal?.addEventListener("abort", onAbort, { once: true });
      const release = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      this.waiting.set(id, { ...extra, id, method, resolve, reject, release });
      write(id);
    });
  }

  /** The request `id` while it waits (undefined for an id that names none). */
  get(id: RequestId): (Waiting & Extra) | undefined {
    return this.waiting.get(id);
  }

  /** The request an answer is for, no longer waiting (its timer and abort listener gone); undefined for an unknown id. */
  take(id: RequestId): (Waiting & Extra) | undefined {
    const waiting = this.waiting.get(id);
    if (!waiting) return undefined;
    this.waiting.delete(id);
    waiting.release();
    return waiting;
  }

  /** Fails every waiting request: no answer can come any more. */
  rejectAll(error: (waiting: Waiting & Extra) => Error): void {
    for (const id of [...this.waiting.keys()]) {
      const waiting = this.take(id)!;
      waiting.reject(error(waiting));
    }
  }
}
