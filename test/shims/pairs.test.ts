// Shim overlay entries apply to the pair of revisions they were written for:
// a revision pinned under a new name is not covered by entries written for
// another pair, and every error and warning names the pair actually converted.
// A pair with a revision the lock does not pin borrows an entry by its key,
// and says so.
import { beforeAll, describe, expect, test } from "vitest";
import { SchemaError } from "../../generator/diagnostics.js";
import { shimFiles } from "../../generator/emit/run.js";
import { buildModel } from "../../generator/generate.js";
import { compareRevisions } from "../../generator/model/revision-order.js";
import type { RevisionModel } from "../../generator/model/types.js";
import { shimOverlay } from "../../generator/overlay/shims.js";
import { planStep } from "../../generator/shims/plan.js";
import { diffRevisions } from "../../generator/diff/diff.js";
import { pinnedRevisions, pinnedSource } from "../helpers.js";

const models = new Map<string, RevisionModel>();
beforeAll(() => {
  for (const revision of ["2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"])
    models.set(revision, buildModel(pinnedSource(revision)));
});

/**
 * A new draft after 2026-07-28 pinned as 2099-01-01: 2026-07-28's schema whose URL
 * elicitations require an elicitationId again, the change the overlay has an
 * entry for on the 2025-11-25 → 2026-07-28 step (in the other direction).
 */
const newDraft = (locked: boolean) => {
  const source = pinnedSource("2026-07-28");
  const text = source.text.replace(
    /(export interface ElicitRequestURLParams[^]*?\n {2}url: string;\n)/,
    "$1  elicitationId: string;\n",
  );
  expect(text).not.toBe(source.text);
  return buildModel({ ...source, revision: "2099-01-01", text, locked });
};

describe("shim overlay entries by revision pair", () => {
  test("pinned under a new name, a step needs entries written for its own pair, and the error names that pair", () => {
    const failure = (() => {
      try {
        shimFiles([models.get("2026-07-28")!, newDraft(true)]);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(SchemaError);
    const messages = (failure as SchemaError).diagnostics.map((d) => d.message);
    expect(messages).toEqual([
      "2026-07-28 → 2099-01-01: fields:ElicitRequestURLParams.elicitationId:required:added: ElicitRequestURLParams.elicitationId is required in 2099-01-01; add a default (or a refusal) to generator/overlay/shims.ts",
    ]);
    for (const message of messages) expect(message).not.toContain("2025-11-25");
  });

  test("unpinned, the step borrows the entry by its key, warns naming both pairs, and refuses without naming another revision", () => {
    const [older, newer] = [models.get("2026-07-28")!, newDraft(false)];
    const { warnings } = shimFiles([older, newer]);
    expect(warnings.map((w) => `${w.code}: ${w.message}`)).toEqual([
      "E_SHIM_BORROWED: 2026-07-28 → 2099-01-01: defaults:ElicitRequestURLParams.elicitationId: no entry was written for this pair; using the one written for 2025-11-25 → 2026-07-28, a guess",
    ]);
    const step = planStep(older, newer, diffRevisions(older, newer), shimOverlay);
    expect(step.upgrade.defaults["ElicitRequestURLParams.elicitationId"]).toEqual({
      refuse:
        "defaults:ElicitRequestURLParams.elicitationId: no rule was written for this pair of revisions; the rule of another pair, borrowed, refuses it",
    });
  });

  test("every entry names two pinned revisions, older first, as the pair it was written for", () => {
    const entries = [
      ...shimOverlay.defaults.map((e) => [`defaults:${e.field}`, e.between] as const),
      ...shimOverlay.members.map((e) => [`members:${e.member}`, e.between] as const),
      ...shimOverlay.narrowing.map((e) => [`narrowing:${e.field}`, e.between] as const),
      ...shimOverlay.errorCodes.map((e) => [`errorCodes:${e.method}:${e.code}`, e.between] as const),
    ];
    const wrong = entries.filter(
      ([, [older, newer]]) =>
        !pinnedRevisions.includes(older) || !pinnedRevisions.includes(newer) || compareRevisions(older, newer) >= 0,
    );
    expect(wrong).toEqual([]);
  });

  test("a step between pinned revisions that skips one uses the entries of the steps it spans", () => {
    const { files, warnings } = shimFiles([models.get("2024-11-05")!, models.get("2025-06-18")!]);
    expect(warnings).toEqual([]);
    const step = files.find((f) => f.path === "shims/2024-11-05--2025-06-18.ts");
    expect(step).toBeDefined();
    const plan = planStep(
      models.get("2024-11-05")!,
      models.get("2025-06-18")!,
      diffRevisions(models.get("2024-11-05")!, models.get("2025-06-18")!),
      shimOverlay,
    );
    // AudioContent was written for 2024-11-05 → 2025-03-26, ResourceLink for 2025-03-26 → 2025-06-18.
    expect(Object.keys(plan.downgrade.members).sort()).toEqual(["AudioContent", "ResourceLink"]);
  });

  test("an error code changes where both revisions' facts give the codes of one condition, whatever their names", () => {
    const next = buildModel({ ...pinnedSource("2026-07-28"), revision: "next", locked: false });
    const older = models.get("2025-11-25")!;
    const step = planStep(older, next, diffRevisions(older, next), shimOverlay);
    expect(step.upgrade.errorCodes).toEqual({ "resources/read": { "-32002": -32602 } });
    expect(step.downgrade.errorCodes).toEqual({});
    expect(step.borrowed.filter((b) => b.entry.startsWith("errorCodes"))).toEqual([]);
  });
});
