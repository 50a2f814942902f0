// A map of what is in flight (requests by id, their resolvers), keyed by
// request ids (strings or numbers), that allocates nothing while its size
// stays within what it has held before.
//
// Why not a Map: request ids are always new, and a V8 Map whose entries come
// and go rebuilds its hash table whenever it grows, shrinks (a quarter full) or
// fills with deleted entries, keeping the old table linked to the new one (for
// iterators still walking it). Once a full GC has moved a table to the old
// generation, that link keeps every later table alive through the
// young-generation collections, and each one is promoted in turn, with what
// its entries held: the old generation grows by the tables' size until the
// next full GC. Measured on a server at 64 requests in flight: ~175 bytes a
// request promoted from a Set of finished ids alone, and a client's call cost
// ~1.5x the CPU while its resolvers were held so. Here keys and values live in
// one array probed linearly (open addressing), a deleted slot is refilled by
// shifting its probe chain back (no tombstones), the array doubles when half
// full and is never rebuilt otherwise: a session's steady traffic allocates
// nothing here, and a deleted value is let go at once. An empty map holds no
// table (a session keeps several, mostly empty).
//
// Keys are hashed with a per-table random seed, so that a peer cannot choose
// ids that all land in one probe chain.

/**
 * Slots of a map's first table (a power of two), allocated with the first entry: small, since most
 * maps hold an entry or two (a stateless HTTP session's, one request); a busy map doubles to its size once.
 */
const INITIAL_CAPACITY = 2;
/** The slots of every map without a table: never written (set() allocates a table first). */
const NO_SLOTS: readonly unknown[] = [];

export class IdMap<K extends string | number, V> {
  /** Key of slot i at 2i, its value at 2i + 1; undefined keys are empty slots. */
  private slots = NO_SLOTS as unknown[];
  private mask = -1;
  private count = 0;
  /** Chosen with the first table (a map that never holds an entry costs no random number). */
  private seed = 0;

  get size(): number {
    return this.count;
  }

  has(key: K): boolean {
    return this.slotOf(key) !== -1;
  }

  get(key: K): V | undefined {
    const slot = this.slotOf(key);
    return slot === -1 ? undefined : (this.slots[2 * slot + 1] as V);
  }

  set(key: K, value: V): void {
    if (this.mask === -1) this.allocate(INITIAL_CAPACITY);
    const slots = this.slots;
    let slot = this.hash(key) & this.mask;
    for (;;) {
      const present = slots[2 * slot];
      if (present === undefined) break;
      if (present === key) {
        slots[2 * slot + 1] = value;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
    slots[2 * slot] = key;
    slots[2 * slot + 1] = value;
    if (++this.count * 2 > this.mask + 1) this.grow();
  }

  /** Removes the entry and returns its value (undefined when there was none). */
  take(key: K): V | undefined {
    const slot = this.slotOf(key);
    if (slot === -1) return undefined;
    const value = this.slots[2 * slot + 1] as V;
    this.removeAt(slot);
    return value;
  }

  delete(key: K): boolean {
    const slot = this.slotOf(key);
    if (slot === -1) return false;
    this.removeAt(slot);
    return true;
  }

  /** The keys, in no particular order, as an array (safe to delete entries while going through it). */
  keys(): K[] {
    const keys: K[] = [];
    for (let i = 0; i < this.slots.length; i += 2) if (this.slots[i] !== undefined) keys.push(this.slots[i] as K);
    return keys;
  }

  /** The values, in no particular order, as an array (safe to delete entries while going through it). */
  values(): V[] {
    const values: V[] = [];
    for (let i = 0; i < this.slots.length; i += 2) if (this.slots[i] !== undefined) values.push(this.slots[i + 1] as V);
    return values;
  }

  clear(): void {
    if (this.mask === -1) return;
    this.slots.fill(undefined); // an old-generation array would keep its values alive until the next full GC
    this.slots = NO_SLOTS as unknown[];
    this.mask = -1;
    this.count = 0;
  }

  private allocate(capacity: number): void {
    if (this.mask === -1) this.seed = (Math.random() * 0x100000000) | 0;
    this.slots = emptySlots(2 * capacity);
    this.mask = capacity - 1;
  }

  private slotOf(key: K): number {
    if (this.count === 0) return -1;
    const slots = this.slots;
    let slot = this.hash(key) & this.mask;
    for (;;) {
      const present = slots[2 * slot];
      if (present === key) return slot;
      if (present === undefined) return -1;
      slot = (slot + 1) & this.mask;
    }
  }

  /**
   * Empties a slot and moves back every later entry of its probe chain that
   * may not stay past the gap (backward-shift deletion: lookups stop at the
   * first empty slot, so no entry may sit beyond a gap from its home slot).
   */
  private removeAt(slot: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let gap = slot;
    let next = (gap + 1) & mask;
    for (;;) {
      const key = slots[2 * next] as K | undefined;
      if (key === undefined) break;
      const home = this.hash(key) & mask;
      // The entry at `next` may move into the gap unless its home lies in (gap, next], cyclically.
      if (next > gap ? home <= gap || home > next : home <= gap && home > next) {
        slots[2 * gap] = key;
        slots[2 * gap + 1] = slots[2 * next + 1];
        gap = next;
      }
      next = (next + 1) & mask;
    }
    slots[2 * gap] = undefined;
    slots[2 * gap + 1] = undefined;
    this.count--;
  }

  private grow(): void {
    const old = this.slots;
    this.allocate(2 * (this.mask + 1));
    const slots = this.slots;
    for (let i = 0; i < old.length; i += 2) {
      const key = old[i] as K | undefined;
      if (key === undefined) continue;
      let slot = this.hash(key) & this.mask;
      while (slots[2 * slot] !== undefined) slot = (slot + 1) & this.mask;
      slots[2 * slot] = key;
      slots[2 * slot + 1] = old[i + 1];
    }
    old.fill(undefined); // as in clear()
  }
  private hash(key: K): number {
    let h = this.seed;
    if (typeof key === "number") {
      // Integers (the usual ids) by their low and high 32 bits; a fraction adds its scaled part.
      h ^= (key | 0) ^ Math.imul((key / 0x100000000) | 0, 0x27d4eb2d);
      if (key % 1 !== 0) h ^= (key * 0x3b9aca00) | 0;
    } else {
      h ^= 0x811c9dc5; // FNV-1a over the UTF-16 code units
      for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    }
    // Finalizer (murmur3's fmix32): every bit of the key reaches the low bits the mask keeps.
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return h ^ (h >>> 16);
  }
}

/**
 * An array of `size` undefined slots. Written in a loop rather than by
 * `new Array(size).fill(undefined)`: fill is a C++ builtin in V8 (Node 20),
 * ~400 instructions a call and ~300 more in its elements accessor, and a
 * stateless HTTP POST makes two small tables (callgrind).
 */
export function emptySlots<T>(size: number): (T | undefined)[] {
  const slots = new Array<T | undefined>(size);
  for (let i = 0; i < size; i++) slots[i] = undefined;
  return slots;
}
