// The ids of a session's last finished requests, so that a reused id is
// refused (basic#requests: a request id "MUST NOT have been previously used by
// the requestor within the same session"). Exactly the last `capacity` ids are
// remembered: a ring holds them in the order they finished, and the oldest is
// forgotten as a new one comes in.
//
// Membership: a client's ids are almost always integers counting up, and those
// are kept in a table indexed by the id modulo its size (growing to twice the
// capacity or a little more), where an id in its slot is found by one comparison; a string id,
// a negative or fractional one, or an integer whose slot is taken by another
// remembered id, goes to an IdMap. With an IdMap alone a busy session held
// ~40 KB (2,048 slots of keys and values for 1,024 ids) and hashed and probed
// it twice a request.
import { emptySlots, IdMap } from "./id-map.js";

type Id = string | number;

/** Slots of a session's first table: a stateless HTTP session remembers one id. */
const FIRST_TABLE_SIZE = 8;
/** The table of a set that holds no integer id yet (never written). */
const NO_TABLE: readonly (number | undefined)[] = [];

export class FinishedIds {
  /** The remembered ids in the order they finished; slot `count % capacity` is the next to be replaced. */
  private readonly ring: (Id | undefined)[] = [];
  private count = 0;
  /** Integer ids by `id % table.length`; it doubles when half full (grow). */
  private table = NO_TABLE as (number | undefined)[];
  private inTable = 0;
  /** The ids the table cannot hold. */
  private readonly others = new IdMap<Id, true>();

  constructor(
    /** How many of the last finished ids are remembered. */
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer`);
  }

  has(id: Id): boolean {
    if (isTableId(id) && this.table.length > 0 && this.table[id % this.table.length] === id) return true;
    return this.others.has(id);
  }

  /** Remembers `id` (not remembered now), forgetting the oldest one when `capacity` are. */
  add(id: Id): void {
    const at = this.count++ % this.capacity;
    const evicted = this.ring[at];
    if (evicted !== undefined) this.forget(evicted);
    this.ring[at] = id;
    if (isTableId(id)) {
      if (2 * this.inTable >= this.table.length) this.grow();
      const slot = id % this.table.length;
      if (this.table[slot] === undefined) {
        this.table[slot] = id;
        this.inTable++;
        return;
      }
    }
    this.others.set(id, true);
  }

  private forget(id: Id): void {
    if (isTableId(id) && this.table.length > 0) {
      const slot = id % this.table.length;
      if (this.table[slot] === id) {
        this.table[slot] = undefined;
        this.inTable--;
        return;
      }
    }
    this.others.delete(id);
  }

  /**
   * A table twice the size, holding what the old one held, until it has 2 *
   * capacity slots or more (sizes are powers of two, each dividing the next).
   */
  private grow(): void {
    const old = this.table;
    if (old.length >= 2 * this.capacity) return;
    const size = old.length === 0 ? FIRST_TABLE_SIZE : 2 * old.length;
    const table = emptySlots<number>(size);
    // No two ids meet in the new table: ids equal modulo its size are equal modulo the old one's
    // (a power of two that divides it), which held one of them at most.
    for (const id of old) if (id !== undefined) table[id % size] = id;
    this.table = table;
  }
}

/** Whether the table can hold `id`: an integer from 0 to 2^53 - 1. */
function isTableId(id: Id): id is number {
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0;
}
