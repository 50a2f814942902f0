// A small deterministic generator for tests that draw many random inputs
// (xorshift32), so that a failure reproduces from its seed.

/** Numbers in [0, 1) from `seed` (not 0). */
export function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}
