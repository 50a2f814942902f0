// The shortcuts the generator plans (generator/shims/shortcuts.ts) against the
// walk: every valid corpus message of every revision, its params or result
// converted to each adjacent revision by convertParams / convertResult (which
// take a step's shortcut where it applies), gives what converting the whole
// message gives (convert always walks), changes included. A shortcut is for
// values of one source type (a method's own result, not the other members of
// a result union): a value that is not of it, when the target's check accepts
// it anyway, may lose extra top-level fields the walk would carry.
import { beforeAll, expect, test } from "vitest";
import { ShimError, type Converted } from "../../runtime/shims.js";
import type { StepPlan } from "../../runtime/shims.js";
import type { ValidationResult } from "../../runtime/validation.js";
import { importGenerated, pinnedRevisions } from "../helpers.js";
import { corpus, load, type Loaded } from "./support.js";

let loaded: Loaded;
/** Each revision's validate(type, value), and each ordered pair of adjacent revisions' plan. */
const validators = new Map<string, (type: string, value: unknown) => ValidationResult>();
const plans = new Map<string, StepPlan>();
beforeAll(async () => {
  loaded = await load();
  for (const [i, revision] of pinnedRevisions.entries()) {
    validators.set(revision, (await importGenerated<{ validate: never }>(revision, "tables")).validate);
    if (i === 0) continue;
    const older = pinnedRevisions[i - 1]!;
    const step = await importGenerated<{ upgrade: StepPlan; downgrade: StepPlan }>("shims", `${older}--${revision}`);
    plans.set(`${older} ${revision}`, step.upgrade).set(`${revision} ${older}`, step.downgrade);
  }
});

/** The conversion's outcome as data: the value and the changes, or the refusal's reason. */
function outcome(run: () => Converted, pick: (message: unknown) => unknown) {
  try {
    const { message, changes } = run();
    return { value: pick(message), changes };
  } catch (error) {
    if (error instanceof ShimError) return { refused: error.message };
    throw error;
  }
}

test("every corpus message's params or result converts to each adjacent revision by its shortcut as the walk converts it", () => {
  const problems: string[] = [];
  let taken = 0;
  for (const [i, from] of pinnedRevisions.entries()) {
    const samples = corpus(loaded, from);
    for (const to of [pinnedRevisions[i - 1], pinnedRevisions[i + 1]].filter((r) => r !== undefined)) {
      const targetMethods = loaded.models.get(to)!.methods;
      for (const sample of samples) {
        const message = sample.message as Record<string, unknown>;
        const method = sample.method ?? (message["method"] as string);
        const what = sample.method ? "result" : "params";
        // What only a whole message can be refused for (a request the target sends only inside an
        // InputRequiredResult, a notification become a request): no part conversion is asked for it.
        const target = targetMethods.find((m) => m.name === method);
        if (
          target &&
          (target.inputRequest || (!sample.method && target.kind !== ("id" in message ? "request" : "notification")))
        )
          continue;
        const part = message[what];
        const type = plans.get(`${from} ${to}`)!.shortcuts?.[what][method]?.type;
        if (type !== undefined && !validators.get(from)!(type, part).valid) continue;
        const options = { from, to };
        const convertPart = what === "result" ? loaded.shims.convertResult : loaded.shims.convertParams;
        const byPart = outcome(
          () => convertPart(method, part, options),
          (m) => m,
        );
        const walked = outcome(
          () => loaded.shims.convert(message, { ...options, ...(sample.method ? { method } : {}) }),
          (m) => (m as Record<string, unknown>)[what],
        );
        if ("value" in byPart && part !== undefined && convertPart(method, part, options).checked) taken++;
        // A part absent from the message: the walk may default what the target requires; convertParams leaves it.
        if (part === undefined) continue;
        if (JSON.stringify(byPart) !== JSON.stringify(walked))
          problems.push(`${from}→${to} ${sample.label}: ${JSON.stringify(byPart)} ≠ walked ${JSON.stringify(walked)}`);
      }
    }
  }
  expect(problems.slice(0, 5)).toEqual([]);
  expect(taken).toBeGreaterThan(1000);
}, 300_000);
