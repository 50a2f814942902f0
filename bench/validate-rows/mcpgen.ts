// The mcpgen row: validateMessage of the message's revision.
import * as rev20251125 from "mcpgen/2025-11-25";
import * as rev20260728 from "mcpgen/2026-07-28";
import * as revDraft from "mcpgen/draft";
import type { RevisionModule } from "../upstream-corpus.js";
import type { MethodTables, Row } from "./row.js";

export const revisions: Record<string, RevisionModule> = {
  "2025-11-25": rev20251125 as unknown as RevisionModule,
  "2026-07-28": rev20260728 as unknown as RevisionModule,
  draft: revDraft as unknown as RevisionModule,
};

/** Each revision's method table, for the ajv row (which has no tables of its own). */
export function methodTables(): MethodTables {
  return Object.fromEntries(
    Object.entries(revisions).map(([name, module]) => [name, module.methods as MethodTables[string]]),
  );
}

export function mcpgenRow(): Row {
  return {
    name: "JSON.parse + mcpgen",
    receive: (text, m) => revisions[m.revision]!.validateMessage(JSON.parse(text), m.requestMethod).result.valid,
  };
}
