// The entries of a revision diff: the data diff.ts and fields.ts produce and
// the renderers (format.ts) and the shim planner (generator/shims) read.
export type DiffArea = "envelope" | "methods" | "capabilities" | "constants" | "types" | "fields";

export interface DiffEntry {
  area: DiffArea;
  change: "added" | "removed" | "renamed" | "changed";
  /** What the entry is about: a type, "Type.field.sub", a method, "client.roots.listChanged", a constant. */
  subject: string;
  /** For "changed", union members and constraints: which aspect ("optional", "type", "member", "constraint", "direction", "value", ...). */
  aspect?: string;
  /** The old value (removed entries, changed entries), printed: TypeScript for types. */
  from?: string;
  /** The new value (added entries, changed entries). */
  to?: string;
  /** A rename is inferred from similar fields: a guess, and said to be one. */
  guess?: boolean;
  note?: string;
  /** For fields, capabilities and union members: the type and the field path (names, "[]" for array items). Not part of the JSON form. */
  location?: FieldLocation;
  /** Stable identity: area, subject, aspect, change, and the member for union members or the keyword for constraints. */
  id: string;
}

export interface FieldLocation {
  type: string;
  fields: string[];
}

export interface RevisionDiff {
  from: string;
  to: string;
  entries: DiffEntry[];
}

/** How the comparers hand an entry to the diff, which gives it its id. */
export type Add = (entry: Omit<DiffEntry, "id">) => void;
