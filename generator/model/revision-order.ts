import { byCodeUnit } from "./order.js";

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Orders revision names: dated revisions by date, then any other name ("draft",
 * or a name given to `generate --schema`) after every date, by code unit. An
 * unreleased revision is newer than every released one.
 */
export function compareRevisions(a: string, b: string): number {
  const aDated = datePattern.test(a);
  const bDated = datePattern.test(b);
  if (aDated !== bDated) return aDated ? -1 : 1;
  return byCodeUnit(a, b);
}

/** Whether `revision` lies in the inclusive range since..until (either bound optional). */
export function inRevisionRange(revision: string, range: { since?: string; until?: string }): boolean {
  if (range.since !== undefined && compareRevisions(revision, range.since) < 0) return false;
  if (range.until !== undefined && compareRevisions(revision, range.until) > 0) return false;
  return true;
}
