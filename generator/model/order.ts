/**
 * Sorts strings by UTF-16 code unit, the same on every machine and locale
 * (localeCompare is not), so generated output is byte-identical everywhere.
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
