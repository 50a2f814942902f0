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
//
// The first id is held alone, in a field: a stateless Streamable HTTP POST's
// session finishes one request and is dropped, and two arrays made for it
// were ~500 of the ~1,300 bytes such a POST allocates beyond a session's POST
// (bench/RESULTS.md). The arrays are made when a second id comes.
//
// Both the ring and the table are Float64Arrays: their storage lies outside
// V8's heap once it is past 64 bytes. As JavaScript arrays, growing them to a
// busy session's 1,024 ids and 2,048 slots copied ~25 KB a session through
// the young generation: most of what a sessions-mode HTTP server promoted
// under load (6.1 KB a scavenge, 0.6 after), which is what makes V8 grow its
// young generation (bench/RESULTS.md, Streamable HTTP).
import { IdMap } from "./id-map.js";

type Id = string | number;

/** Slots of a session's first table and ring: a stateless HTTP session remembers one id. */
const FIRST_SIZE = 8;
/** A table slot that holds no id (table ids are from 0 up). */
const EMPTY = -1;
/** The storage of a set that has remembered no id yet (never written). */
const NOTHING: Float64Array = new Float64Array(0);

export class FinishedIds {
  /**
   * The remembered ids in the order they finished, slot `count % capacity` the
   * next to be replaced; NaN where the id is not a table id (then in `ringOthers`).
   * It grows as the first `capacity` ids come in.
   */
  private ring = NOTHING;
  /** The ids at the ring's NaN slots, by slot (allocated for the first such id). */
  private ringOthers: (Id | undefined)[] | undefined;
  private count = 0;
  /** Integer ids by `id % table.length` (EMPTY: none); it doubles when half full (grow). */
  private table = NOTHING;
  private inTable = 0;
  /** The ids the table cannot hold. */
  private readonly others = new IdMap<Id, true>();
  /** The first id, until a second comes (then it moves to the ring and the table). */
  private first: Id | undefined = undefined;

  constructor(
    /** How many of the last finished ids are remembered. */
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer`);
  }

  has(id: Id): boolean {
    if (this.first !== undefined) return this.first === id;
    if (isTableId(id) && this.table.length > 0 && this.table[id % this.table.length] === id) return true;
    return this.others.has(id);
  }

  /** Remembers `id` (not remembered now), forgetting the oldest one when `capacity` are. */
  add(id: Id): void {
    if (this.count === 0 && this.first === undefined) {
      this.first = id;
      return;
    }
    if (this.first !== undefined) {
      const first = this.first;
      this.first = undefined;
      this.remember(first);
    }
    this.remember(id);
  }

  private remember(id: Id): void {
    const at = this.count % this.capacity;
    if (this.count++ >= this.capacity) this.forget(at);
    else if (at >= this.ring.length)
      this.ring = copied(this.ring, Math.min(this.capacity, 2 * this.ring.length || FIRST_SIZE));
    if (!isTableId(id)) {
      this.ring[at] = NaN;
      (this.ringOthers ??= [])[at] = id;
      this.others.set(id, true);
      return;
    }
    this.ring[at] = id;
    if (2 * this.inTable >= this.table.length) this.grow();
    const slot = id % this.table.length;
    if (this.table[slot] === EMPTY) {
      this.table[slot] = id;
      this.inTable++;
      return;
    }
    this.others.set(id, true);
  }

  /** Forgets the id at ring slot `at`. */
  private forget(at: number): void {
    const id = this.ring[at]!;
    if (Number.isNaN(id)) {
      this.others.delete(this.ringOthers![at]!);
      this.ringOthers![at] = undefined;
      return;
    }
    const slot = id % this.table.length;
    if (this.table[slot] === id) {
      this.table[slot] = EMPTY;
      this.inTable--;
      return;
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
    const size = old.length === 0 ? FIRST_SIZE : 2 * old.length;
    const table = new Float64Array(size).fill(EMPTY);
    // No two ids meet in the new table: ids equal modulo its size are equal modulo the old one's
    // (a power of two that divides it), which held one of them at most.
    for (let i = 0; i < old.length; i++) if (old[i] !== EMPTY) table[old[i]! % size] = old[i]!;
    this.table = table;
  }
}

/** `from`'s values at the start of a new array of `size`. */
function copied(from: Float64Array, size: number): Float64Array {
  const to = new Float64Array(size);
  to.set(from);
  return to;
}

/** Whether the table can hold `id`: an integer from 0 to 2^53 - 1. */
function isTableId(id: Id): id is number {
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0;
}
