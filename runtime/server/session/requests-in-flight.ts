// A session's client requests being handled, and the ids of those it finished.
// A connection's requests are tracked by their id (basic#requests: an id must
// not match one in flight, and a handshake session remembers finished ones:
// "MUST NOT have been previously used by the requestor within the same
// session"); a request on its own exchange (a per-request HTTP POST) has an id
// that belongs to that exchange, so it is tracked apart, by identity.
import type { RequestId } from "../../messages.js";
import type { Inflight } from "../context.js";

/**
 * Ids of finished requests are remembered this far back, so that a reused id
 * is refused (basic#requests); the oldest is forgotten first. A bound, so that
 * a client cannot grow what the session keeps.
 */
export const REMEMBERED_IDS = 1024;

export class InflightRequests {
  /** The connection's requests, by id. */
  private readonly byId = new Map<RequestId, Inflight>();
  /** Requests on exchanges of their own (Channel.singleRequest), whose ids are not the connection's. */
  private readonly onExchanges = new Set<Inflight>();
  /** The connection's requests' lengths, summed (Inflight.length). */
  private connectionLength = 0;
  /** The last REMEMBERED_IDS finished ids of the connection. */
  private readonly finished = new Set<RequestId>();
  /** The same ids in the order they finished, `finishedCount % REMEMBERED_IDS` the next to be forgotten. */
  private readonly finishedOrder: RequestId[] = [];
  private finishedCount = 0;

  /** Requests being handled, on every channel. */
  get size(): number {
    return this.byId.size + this.onExchanges.size;
  }

  /** The connection's requests being handled (what the session's inflightRequests limit counts). */
  get onConnection(): number {
    return this.byId.size;
  }

  /** What the connection's requests being handled came in, in UTF-16 code units (the inflightLength limit). */
  get lengthOnConnection(): number {
    return this.connectionLength;
  }

  /** Whether `id` names a request in flight, or (`finishedToo`, a handshake session) one finished lately. */
  uses(id: RequestId, finishedToo: boolean): boolean {
    return this.byId.has(id) || (finishedToo && this.finished.has(id));
  }

  /** The connection's request `id`, while it is handled. */
  get(id: RequestId): Inflight | undefined {
    return this.byId.get(id);
  }

  add(inflight: Inflight): void {
    if (inflight.channel.singleRequest) this.onExchanges.add(inflight);
    else {
      this.byId.set(inflight.id, inflight);
      this.connectionLength += inflight.length;
    }
  }

  /** A request ended: no longer in flight; a handshake session's id is remembered. */
  delete(inflight: Inflight): void {
    if (inflight.channel.singleRequest) this.onExchanges.delete(inflight);
    else {
      this.byId.delete(inflight.id);
      this.connectionLength -= inflight.length;
    }
    if (!inflight.scope.perRequest) this.remember(inflight.id);
  }

  /** A request id that must not be used again (a finished request, or initialize answered outside the tracked ones). */
  remember(id: RequestId): void {
    if (this.finished.has(id)) return;
    // A ring rather than the Set's own order: taking a Set's first entry skips every entry deleted before it.
    const at = this.finishedCount++ % REMEMBERED_IDS;
    if (this.finishedOrder.length > at) this.finished.delete(this.finishedOrder[at]!);
    this.finishedOrder[at] = id;
    this.finished.add(id);
  }

  /** Cancels every request for good: the connection closed, nothing more is sent for them. */
  abandonAll(): void {
    for (const inflight of [...this.byId.values(), ...this.onExchanges]) {
      inflight.cancel("the connection closed");
      inflight.done = true;
    }
    this.byId.clear();
    this.onExchanges.clear();
    this.connectionLength = 0;
  }
}
