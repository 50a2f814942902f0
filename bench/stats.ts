// The benches' statistics: percentiles, medians, and ratios to a floor taken
// pair by pair (a row and its floor measured in the same turn).

/** The value at fraction `p` of the sorted values (0.5: the median of an odd count, the upper middle of an even one). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export const median = (values: readonly number[]): number => percentile(values, 0.5);

/**
 * The median of a row's figure ÷ its floor's, pair by pair (the same block, round or spawn). A row
 * and its floor measured seconds apart see the same load on a shared machine; a ratio of two medians
 * taken over different moments would carry the load's drift into the ratio.
 */
export function pairedRatio(row: readonly number[], floor: readonly number[]): number {
  const ratios = pairedRatios(row, floor);
  const middle = ratios.length >> 1;
  return ratios.length % 2 === 1 ? ratios[middle]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
}

/** The first and third quartile of the paired ratios (rounded outwards to a ratio that was measured). */
export function pairedMiddleHalf(row: readonly number[], floor: readonly number[]): { low: number; high: number } {
  const ratios = pairedRatios(row, floor);
  const last = ratios.length - 1;
  return { low: ratios[Math.floor(last / 4)]!, high: ratios[Math.ceil((3 * last) / 4)]! };
}

/** Each pair's row figure ÷ floor figure, sorted. */
function pairedRatios(row: readonly number[], floor: readonly number[]): number[] {
  if (row.length !== floor.length || row.length === 0)
    throw new Error(`pairedRatio: ${row.length} figures against the floor's ${floor.length}`);
  return row.map((value, i) => value / floor[i]!).sort((a, b) => a - b);
}
