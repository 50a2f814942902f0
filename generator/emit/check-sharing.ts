// Check functions a revision takes from the revision before it. Revisions
// repeat most of their types (draft and 2026-07-28 are identical today); a
// process serving both then loads and runs one copy of each check. A function
// is taken when its text is the same
// and so is everything it calls. Importing a revision's checks loads the whole
// module it takes them from, so a revision takes them only where that module
// is nearly all shared: otherwise it would load an older revision's checks
// to use a few of them.
import type { CheckCatalog } from "./check-functions.js";

/** The share of the earlier revision's check code that must be the same for the later one to import it. */
export const SHARING_THRESHOLD = 0.9;

/** The functions of `current` to import from `previous` (none when too little of it is the same). */
export function sharedChecks(previous: CheckCatalog, current: CheckCatalog): Set<string> {
  const shared = sameChecks(previous, current);
  let sharedBytes = 0;
  for (const name of shared) sharedBytes += current.functions.get(name)!.text.length;
  let previousBytes = 0;
  for (const fn of previous.functions.values()) previousBytes += fn.text.length;
  return sharedBytes >= SHARING_THRESHOLD * previousBytes ? shared : new Set();
}

/** The functions of `current` that are the same in `previous`, and so is everything they call. */
export function sameChecks(previous: CheckCatalog, current: CheckCatalog): Set<string> {
  const shared = new Set<string>();
  for (const [name, fn] of current.functions) if (previous.functions.get(name)?.text === fn.text) shared.add(name);
  // Only with everything it calls: drop the rest until none is left to drop (recursive types call themselves).
  for (let dropped = true; dropped;) {
    dropped = false;
    for (const name of shared) {
      if (current.functions.get(name)!.callees.some((callee) => !shared.has(callee))) {
        shared.delete(name);
        dropped = true;
      }
    }
  }
  return shared;
}
