// The targets a benchmark is held to (issue #14), printed under its table with
// the figure of the same run and a verdict, so that a run says by itself what
// is met. A figure that is missing (its row was left out with --only) is said
// to be so, never judged.

export interface Target {
  /** What is measured, e.g. "mcpgen, sequential req/s ÷ floor". */
  what: string;
  /** The figure of this run; undefined when its row did not run. */
  value: number | undefined;
  /** "at least" (throughput ratios) or "at most" (costs). */
  bound: "at least" | "at most";
  limit: number;
  /** How a value prints: "×" for ratios, else a unit such as " ms" or " MB". */
  unit: string;
  digits?: number;
  /**
   * The lowest and highest of the figures whose median `value` is (pairedRange), and what they are
   * of ("rounds", "spawns"): how far one of them moved in this run.
   */
  range?: { of: string; low: number; high: number };
}

/** One line per target: the figure, the bound and "met" / "NOT MET", and the rounds' range where given. */
export function targetLines(targets: readonly Target[]): string {
  const show = (value: number, t: Target) => `${value.toFixed(t.digits ?? 2)}${t.unit}`;
  const width = Math.max(...targets.map((t) => t.what.length));
  const lines = targets.map((t) => {
    const wanted = `${t.bound === "at least" ? "≥" : "≤"} ${show(t.limit, t)}`;
    if (t.value === undefined || Number.isNaN(t.value))
      return { head: `  ${t.what.padEnd(width)}  (not run)  target ${wanted}`, range: "" };
    const met = t.bound === "at least" ? t.value >= t.limit : t.value <= t.limit;
    return {
      head: `  ${t.what.padEnd(width)}  ${show(t.value, t).padStart(9)}  target ${wanted}: ${met ? "met" : "NOT MET"}`,
      range: t.range === undefined ? "" : `(${t.range.of} ${show(t.range.low, t)}–${show(t.range.high, t)})`,
    };
  });
  const headWidth = Math.max(...lines.filter((l) => l.range).map((l) => l.head.length));
  return lines.map((l) => (l.range ? `${l.head.padEnd(headWidth)}  ${l.range}` : l.head)).join("\n");
}

/**
 * The median over rounds of a row's figure ÷ its floor's in the same round.
 * A row and its floor are measured seconds apart within a round, while this
 * machine's load moves over minutes: a ratio of two medians taken over
 * different moments would carry that drift into the ratio.
 */
export function pairedRatio(row: readonly number[], floor: readonly number[]): number {
  const ratios = pairedRatios(row, floor);
  const middle = ratios.length >> 1;
  return ratios.length % 2 === 1 ? ratios[middle]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
}

/** The lowest and highest of the per-round ratios whose median pairedRatio is. */
export function pairedRange(row: readonly number[], floor: readonly number[]): { low: number; high: number } {
  const ratios = pairedRatios(row, floor);
  return { low: ratios[0]!, high: ratios[ratios.length - 1]! };
}

/**
 * The middle half of the paired ratios whose median pairedRatio is (their first and third quartile,
 * rounded outwards to a ratio that was measured): where many pairs are taken (bench:stdio's blocks),
 * the lowest and highest are a run's two worst moments, not its spread.
 */
export function pairedMiddleHalf(row: readonly number[], floor: readonly number[]): { low: number; high: number } {
  const ratios = pairedRatios(row, floor);
  const last = ratios.length - 1;
  return { low: ratios[Math.floor(last / 4)]!, high: ratios[Math.ceil((3 * last) / 4)]! };
}

/** Each round's row figure ÷ the floor's of the same round, sorted. */
function pairedRatios(row: readonly number[], floor: readonly number[]): number[] {
  if (row.length !== floor.length || row.length === 0)
    throw new Error(`pairedRatio: ${row.length} rounds against the floor's ${floor.length}`);
  return row.map((value, round) => value / floor[round]!).sort((a, b) => a - b);
}

/**
 * The least-squares line through points (x, y): its slope, and the slope's
 * standard error (from the residuals' spread; 0 for points on a line), so that
 * a trend can be told from noise: a slope within about two standard errors of
 * zero is no evidence of one.
 */
export function leastSquares(points: readonly { x: number; y: number }[]): { slope: number; standardError: number } {
  const n = points.length;
  if (n < 3) throw new Error(`leastSquares: ${n} points; a slope and its error need at least 3`);
  const mx = points.reduce((sum, p) => sum + p.x, 0) / n;
  const my = points.reduce((sum, p) => sum + p.y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  if (sxx === 0) throw new Error("leastSquares: every point has the same x");
  const slope = sxy / sxx;
  let residuals = 0;
  for (const p of points) residuals += (p.y - my - slope * (p.x - mx)) ** 2;
  return { slope, standardError: Math.sqrt(residuals / (n - 2) / sxx) };
}

/**
 * How much steeper one fitted slope is than another (a row's heap beside its
 * floor's, fitted over separate runs), with the standard error of the
 * difference: the two fits' errors are independent, so they add in quadrature.
 */
export function slopeBeyond(
  row: { slope: number; standardError: number },
  floor: { slope: number; standardError: number },
): { slope: number; standardError: number } {
  return { slope: row.slope - floor.slope, standardError: Math.hypot(row.standardError, floor.standardError) };
}
