// Opaque cursors for the list methods (server/utilities/pagination): a cursor
// encodes the offset of the next page; clients must treat it as opaque, and an
// invalid one is -32602 (Invalid params).
import { invalidParams } from "../errors.js";

declare function atob(data: string): string;
declare function btoa(data: string): string;

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor?: string;
}

const PREFIX = "mcpgen:";

function encode(offset: number): string {
  return btoa(PREFIX + offset);
}

function decode(cursor: string): number | undefined {
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    return undefined;
  }
  if (!text.startsWith(PREFIX)) return undefined;
  const digits = text.slice(PREFIX.length);
  return /^(0|[1-9][0-9]{0,15})$/.test(digits) ? Number(digits) : undefined;
}

/** One page of `items` from `cursor` (the first page when undefined). */
export function paginate<T>(items: readonly T[], cursor: string | undefined, pageSize: number): Page<T> {
  let offset = 0;
  if (cursor !== undefined) {
    const decoded = decode(cursor);
    // A cursor past the end is stale (the list shrank), not forged: it gives an empty last page.
    if (decoded === undefined) throw invalidParams(`Invalid cursor: ${JSON.stringify(cursor)}`, { cursor });
    offset = decoded;
  }
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { items: page, nextCursor: encode(end) } : { items: page };
}

/** A list result with `nextCursor` when there is a next page. */
export function withCursor<T extends object>(result: T, nextCursor: string | undefined): T & { nextCursor?: string } {
  return nextCursor === undefined ? result : { ...result, nextCursor };
}
