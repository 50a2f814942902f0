// A session's client requests being handled, and the ids of those it finished.
// A connection's requests are tracked by their id (basic#requests: an id must
// not match one in flight, and a handshake session remembers finished ones:
// "MUST NOT have been previously used by the requestor within the same
// session"); a request on an isolated channel (a per-request HTTP POST) has an
// id that belongs to its exchange, so it is tracked under a key of its own.
import { IdMap } from "../id-map.js";
import { FinishedIds } from "../finished-ids.js";
import type { RequestId } from "../messages.js";
import type { Inflight } from "./context.js";

/**
 * Ids of finished requests are remembered this far back, so that a reused id
 * is refused (basic#requests). 1,024: the window costs a busy session ~28 KB
 * with integer ids (finished-ids.ts).
 */
export const REMEMBERED_IDS = 1024;

export class InflightRequests {
  /** The connection's requests, by id. */
  private readonly byId = new IdMap<RequestId, Inflight>();
  /** Requests on isolated channels, by their isolatedKey. */
  private readonly isolated = new IdMap<number, Inflight>();
  private isolatedCount = 0;
  /** The connection's requests' lengths, summed (Inflight.length). */
  private connectionLength = 0;
  /** The last REMEMBERED_IDS finished ids of the connection. */
  private readonly finished = new FinishedIds(REMEMBERED_IDS);

  /** Requests being handled, on every channel. */
  get size(): number {
    return this.byId.size + this.isolated.size;
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
    if (inflight.channel.isolated) this.isolated.set((inflight.isolatedKey = ++this.isolatedCount), inflight);
    else {
      this.byId.set(inflight.id, inflight);
      this.connectionLength += inflight.length;
    }
  }

  /** A request ended: no longer in flight; a handshake session's id is remembered. */
  delete(inflight: Inflight): void {
    if (inflight.channel.isolated) this.isolated.delete(inflight.isolatedKey);
    else {
      this.byId.delete(inflight.id);
      this.connectionLength -= inflight.length;
    }
    if (!inflight.scope.perRequest) this.finished.add(inflight.id);
  }

  /** A request id answered outside the tracked requests (initialize) that must not be used again. */
  remember(id: RequestId): void {
    this.finished.add(id);
  }

  /** Cancels every request for good: the connection closed, nothing more is sent for them. */
  abandonAll(): void {
    abandon(this.byId);
    abandon(this.isolated);
    this.connectionLength = 0;
  }
}

function abandon(requests: IdMap<RequestId, Inflight>): void {
  if (requests.size === 0) return;
  for (const inflight of requests.values()) {
    inflight.cancel("the connection closed");
    inflight.done = true;
  }
  requests.clear();
}
