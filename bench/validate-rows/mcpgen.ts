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

const validate20251125 = rev20251125.validateMessage;
const validate20260728 = rev20260728.validateMessage;
const validateDraft = revDraft.validateMessage;

export function mcpgenRow(): Row {
  return {
    name: "JSON.parse + mcpgen",
    // The revision's validator picked by comparing names rather than by a keyed lookup with a key that
    // changes from message to message: a server knows its session's revision, and pays for neither.
    receive: (text, m) => {
      const revision = m.revision;
      const validate =
        revision === "2026-07-28"
          ? validate20260728
          : revision === "draft"
            ? validateDraft
            : revision === "2025-11-25"
              ? validate20251125
              : unknownRevision(revision);
      return validate(JSON.parse(text), m.requestMethod).result.valid;
    },
  };
}

function unknownRevision(revision: string): never {
  throw new Error(`bench/validate-rows/mcpgen.ts has no validators for revision ${revision}`);
}
