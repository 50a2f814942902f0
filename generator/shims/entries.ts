// The shape of the reviewed shim overlay (data in generator/overlay/shims.ts)
// and the rule for which entry answers a step: the pair of pinned revisions an
// entry was written for, never a field name alone.
import type { DefaultValue, MemberRule } from "mcpgen/runtime/codegen";
import { compareRevisions } from "../model/revision-order.js";
import type { RevisionModel } from "../model/types.js";

/**
 * The pinned revisions an entry was written for, older first: it answers the
 * steps between them (usually one adjacent pair). It applies to a step between
 * pinned revisions that includes one of those steps (a step that skips a
 * pinned revision includes several), and to a step with a revision the lock
 * does not pin only when the diff asks for it by the same key, as a guess
 * that is reported (see entryFor).
 */
export type Between = readonly [older: string, newer: string];

export interface ShimOverlay {
  /** Values for fields a target requires and a source may lack, by "Owner.field" in the target. */
  defaults: readonly { field: string; value: DefaultValue; between: Between; cite: string }[];
  /** Union members and literals some target lacks, by type name or literal JSON. */
  members: readonly { member: string; rule: MemberRule; between: Between; cite: string }[];
  /** Fields whose type narrows on the way to some target, by "Owner.field" in the target. */
  narrowing: readonly { field: string; rule: MemberRule; between: Between; cite: string }[];
  /** Semantic rules run on every value of a type before it is converted (the rule decides whether it applies). */
  hooks: readonly { type: string; rule: string; cite: string }[];
  /**
   * Error codes a method's error responses change to on the way from the older
   * to the newer revision of `between`. A step with an unpinned revision maps
   * them where the two revisions' facts give the codes for one condition.
   */
  errorCodes: readonly { method: string; code: number; becomes: number; between: Between; cite: string }[];
}

/** The two revisions of a step, older first, and whether the lock pins both. */
export interface StepPair {
  older: string;
  newer: string;
  /** Both revisions pinned in the lock: entries apply by the pair they were written for. */
  pinned: boolean;
  facts: readonly [RevisionModel["facts"], RevisionModel["facts"]];
}

/** A step in one direction, and where it reports an entry borrowed from another pair. */
export interface Step extends StepPair {
  direction: "upgrade" | "downgrade";
  lend(entry: string, between: Between): void;
}

/**
 * Whether a step between pinned revisions includes one of the steps an entry
 * was written for: the two open ranges overlap (names of pinned revisions only).
 */
export function covers(pair: StepPair, between: Between): boolean {
  return compareRevisions(pair.older, between[1]) < 0 && compareRevisions(between[0], pair.newer) < 0;
}

/**
 * The overlay entry that answers `matches` for a step: for pinned revisions
 * one written for a step this one includes; otherwise the first that matches,
 * borrowed on a guess and reported, its refusal worded for any pair.
 */
export function entryFor<T extends { between: Between }>(
  entries: readonly T[],
  matches: (e: T) => boolean,
  id: string,
  step: Step,
): T | undefined {
  const candidates = entries.filter(matches);
  if (step.pinned) return candidates.find((e) => covers(step, e.between));
  const found = candidates[0];
  if (!found) return undefined;
  step.lend(id, found.between);
  if ("value" in found) return { ...found, value: borrowedRefusal(found.value as DefaultValue, id) };
  if ("rule" in found) return { ...found, rule: borrowedRefusal(found.rule as MemberRule, id) };
  return found;
}

/**
 * Whether the two revisions' facts give `code` and `becomes` to one named
 * condition (errorCodes.resourceNotFound), older to newer: a fact, not a guess.
 */
export function codesChange(pair: StepPair, code: number, becomes: number): boolean {
  const [older, newer] = pair.facts;
  return Object.entries(older.errorCodes ?? {}).some(
    ([condition, value]) => value === code && newer.errorCodes?.[condition] === becomes,
  );
}

/**
 * A refusal borrowed from another pair: its reason speaks of that pair's
 * revisions, which a conversion between others must not name (ShimError
 * names the pair converted), so it says where the rule comes from instead.
 */
function borrowedRefusal<T extends DefaultValue | MemberRule>(rule: T, key: string): T {
  if (!("refuse" in rule)) return rule;
  return {
    refuse: `${key}: no rule was written for this pair of revisions; the rule of another pair, borrowed, refuses it`,
  } as T;
}
