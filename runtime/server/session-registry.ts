// The server's open sessions: one added when a transport connects it, removed
// when it closes. Broadcasts (list_changed, resources/updated, log messages)
// and the server's close() go over them.
//
// Why not a Set: a stateless Streamable HTTP server opens and closes a session
// for every POST, and a V8 Set rebuilds its hash table as it grows and shrinks.
// Once a full GC has moved the table to the old generation, every later table is
// made there too (see runtime/id-map.ts for the same with Maps): measured with 16
// clients, ~120 bytes of old-generation garbage a POST, a mark-compact every ~3 s
// and the peak RSS 10-20 MB above the same server with sessions. Here the sessions
// sit in a dense array, each knowing its slot, and a removal moves the last one
// into the freed slot: steady traffic allocates nothing.

/** What the registry keeps: anything that can hold its slot. */
export interface RegistrySlot {
  /** Where the registry holds it; -1 when it holds it nowhere. */
  registrySlot: number;
}

export class SessionRegistry<T extends RegistrySlot> {
  /** The first `count` entries are the members; the rest are undefined, kept so the array never shrinks. */
  private readonly entries: (T | undefined)[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(member: T): void {
    if (member.registrySlot !== -1) return;
    member.registrySlot = this.count;
    if (this.count === this.entries.length) this.entries.push(member);
    else this.entries[this.count] = member;
    this.count++;
  }

  delete(member: T): boolean {
    const slot = member.registrySlot;
    if (slot === -1 || this.entries[slot] !== member) return false;
    const last = this.entries[--this.count]!;
    this.entries[slot] = last;
    last.registrySlot = slot;
    this.entries[this.count] = undefined;
    member.registrySlot = -1;
    return true;
  }

  /** The members now, in a new array: what is done to each may close some (and so reorder the rest). */
  toArray(): T[] {
    return this.entries.slice(0, this.count) as T[];
  }
}
