// The ids of a session's last finished requests, so that a reused id is
// refused (basic#requests: a request id "MUST NOT have been previously used by
// the requestor within the same session"). Exactly the last `capacity` ids are
// remembered: a ring holds them in the order they finished, and the oldest is
// forgotten as a new one comes in.
//
// Membership: a client's ids are almost always integers counting up, and those
// are kept in a table indexed by the id modulo its size, where an id in its
// slot is found by one comparison; a string id, a negative or fractional one,
// or an integer whose slot is taken by another remembered id, goes to an IdMap.
// With an IdMap alone a busy session held ~40 KB (a table of 2,048 slots, keys
// and values, for 1,024 ids) and hashed and probed twice a request.
import { IdMap } from "./id-map.js";

type Id = string | number;

export class FinishedIds {
  /** The remembered ids in the order they finished; slot `count % capacity` is the next to be replaced. */
  private readonly ring: (Id | undefined)[] = [];
  private count = 0;
  /** Integer ids by `id % table.length`; made with the first one (an idle session holds none). */
  private table: (number | undefined)[] | undefined;
  /** The ids the table cannot hold. */
  private readonly others = new IdMap<Id, true>();

  constructor(
    /** How many of the last finished ids are remembered. */
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer`);
  }

  has(id: Id): boolean {
    const slot = this.slotOf(id);
    if (slot !== -1 && this.table !== undefined && this.table[slot] === id) return true;
    return this.others.has(id);
  }

  /** Remembers `id` (not remembered now), forgetting the oldest one when `capacity` are. */
  add(id: Id): void {
    const at = this.count++ % this.capacity;
    const evicted = this.ring[at];
    if (evicted !== undefined) this.forget(evicted);
    this.ring[at] = id;
    const slot = this.slotOf(id);
    if (slot !== -1) {
      const table = (this.table ??= emptyTable(2 * this.capacity));
      if (table[slot] === undefined) {
        table[slot] = id as number;
        return;
      }
    }
    this.others.set(id, true);
  }

  private forget(id: Id): void {
    const slot = this.slotOf(id);
    if (slot !== -1 && this.table !== undefined && this.table[slot] === id) this.table[slot] = undefined;
    else this.others.delete(id);
  }

  /** The table slot of an integer id from 0 to 2^53 - 1, or -1 for any other id. */
  private slotOf(id: Id): number {
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return -1;
    return id % (2 * this.capacity);
  }
}

/** A table of `size` empty slots, written in a loop (fill is a C++ builtin on Node 20; see id-map.ts). */
function emptyTable(size: number): (number | undefined)[] {
  const table = new Array<number | undefined>(size);
  for (let i = 0; i < size; i++) table[i] = undefined;
  return table;
}
