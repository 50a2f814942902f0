// Every valid corpus message of these revisions, converted to every other
// revision (test/shims/support.ts). The revisions are split over two files so
// that vitest's workers share the work.
import { beforeAll, describe, test } from "vitest";
import { checkCorpus, load, type Loaded } from "./support.js";

let loaded: Loaded;
beforeAll(async () => {
  loaded = await load();
});

describe.each(["2024-11-05", "2025-03-26", "2025-06-18", "2026-07-28"])("from %s", (from) => {
  test("every valid corpus message converts to every other revision and validates there, or is refused with a ShimError", () => {
    checkCorpus(loaded, from);
  }, 300_000);
});
