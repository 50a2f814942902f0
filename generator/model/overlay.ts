// The shape of the reviewed method overlay (data in generator/overlay/methods.ts)
// and the rules for which entries apply to a revision:
//
// - A revision pinned in the lock gets the entries whose since..until range
//   names it: the ranges were written, and reviewed, for the pinned revisions.
// - Any other revision gets an entry only through what its schema shows: the
//   entry's method, types and capability exist there, and the schema is of the
//   entry's era (the lifecycle of the revision entries its range overlaps:
//   an initialize request, or none and a protocol version in every request's
//   _meta). The name given to such a revision is never compared with a date.
// - An entry whose schema facts hold but whose era does not is not applied,
//   and said to be a guess (OverlayGuess), as is an era the schema shows only
//   in part.
import type { CapabilityRequirement, OverlayGuess, RevisionFacts } from "./types.js";
import { compareRevisions, inRevisionRange } from "./revision-order.js";

export interface RevisionRange {
  /** First revision the entry applies to (inclusive); open when absent. */
  since?: string;
  /** Last revision the entry applies to (inclusive); open when absent. */
  until?: string;
}

interface Cited {
  /** The prose the entry follows: `<docs path>#<section>`. */
  cite: string;
}

/** A request whose result type the schema leaves unsaid. */
export interface ResultRule extends RevisionRange, Cited {
  method: string;
  result: string;
}

/**
 * A request that may also answer other result types than its own, where the
 * prose says so and the schema's result unions do not (2025-11-25: a
 * task-augmented tools/call answers CreateTaskResult).
 */
export interface AlternativeResultRule extends RevisionRange, Cited {
  method: string;
  types: string[];
}

/** The capability a method needs; `path` is dotted, e.g. "resources.subscribe". */
export interface CapabilityRule extends RevisionRange, Cited {
  method: string;
  holder: CapabilityRequirement["holder"];
  path: string;
}

/** Facts about a whole revision that the prose states and the schema cannot. */
export interface RevisionRule extends RevisionRange, Cited {
  lifecycle: RevisionFacts["lifecycle"];
  /** The union alias listing the requests that travel inside InputRequiredResult. */
  inputRequests?: string;
  /** For the "initialize" lifecycle: what each side may send before the handshake completes. */
  beforeInitialized?: RevisionFacts["beforeInitialized"];
  /** Error codes the prose assigns to named conditions in this revision range. */
  errorCodes?: RevisionFacts["errorCodes"];
}

export interface MethodOverlay {
  results: ResultRule[];
  alternativeResults?: AlternativeResultRule[];
  capabilities: CapabilityRule[];
  revisions: RevisionRule[];
}

type Lifecycle = RevisionFacts["lifecycle"];

/** The overlay restricted to the entries whose range covers `revision` (for pinned revisions). */
export function overlayFor(overlay: MethodOverlay, revision: string): MethodOverlay {
  const applies = (entry: RevisionRange) => inRevisionRange(revision, entry);
  return {
    results: overlay.results.filter(applies),
    alternativeResults: (overlay.alternativeResults ?? []).filter(applies),
    capabilities: overlay.capabilities.filter(applies),
    revisions: overlay.revisions.filter(applies),
  };
}

/** How an entry is named in diagnostics: its list in generator/overlay/methods.ts and what it is about. */
export const entryId = {
  result: (rule: ResultRule) => `results[${rule.method}]`,
  alternative: (rule: AlternativeResultRule) => `alternativeResults[${rule.method}]`,
  capability: (rule: CapabilityRule) => `capabilities[${rule.method}]`,
  revision: (rule: RevisionRule) => `revisions[${rule.lifecycle}]`,
};

/** What a schema shows, as the overlay's entries are matched against it. */
export interface SchemaShows {
  lifecycle: Lifecycle;
  /** A method of the schema, its kind, and whether the schema itself gives its result. */
  method(name: string): { kind: "request" | "notification"; result: boolean } | undefined;
  declares(type: string): boolean;
  /** Whether the holder's (both sides' for "receiver") capabilities declare the dotted path. */
  capability(holder: CapabilityRequirement["holder"], path: string): boolean;
}

export interface FactSelection {
  overlay: MethodOverlay;
  guesses: OverlayGuess[];
}

/**
 * The revision entries for a schema of `lifecycle`: those of that lifecycle.
 * Where none names an input-request union and the schema declares the one
 * another era's entry names, that union is borrowed, as a guess (upstream
 * moved server requests into InputRequiredResult before it dropped initialize).
 */
export function revisionRulesByFacts(
  overlay: MethodOverlay,
  shows: Pick<SchemaShows, "lifecycle" | "declares">,
): FactSelection {
  const guesses: OverlayGuess[] = [];
  let rules = overlay.revisions.filter((r) => r.lifecycle === shows.lifecycle);
  const lender = overlay.revisions.find(
    (r) => r.lifecycle !== shows.lifecycle && r.inputRequests !== undefined && shows.declares(r.inputRequests),
  );
  if (lender && rules.length > 0 && rules.every((r) => r.inputRequests === undefined)) {
    rules = rules.map((r) => ({ ...r, inputRequests: lender.inputRequests! }));
    guesses.push({
      entry: entryId.revision(lender),
      about: "revision",
      subject: "inputRequests",
      note: `${lender.inputRequests} taken as the input-request union from the ${lender.lifecycle} entry, though this schema is of the ${shows.lifecycle} era`,
    });
  }
  return { overlay: { ...empty(), revisions: rules }, guesses };
}

/**
 * The result, alternative-result and capability entries whose facts this
 * schema shows and whose era is the schema's. Entries whose facts hold in
 * another era are left out and reported as guesses.
 */
export function methodEntriesByFacts(overlay: MethodOverlay, shows: SchemaShows): FactSelection {
  const guesses: OverlayGuess[] = [];
  const eraOf = (entry: RevisionRange) => erasOf(entry, overlay.revisions);
  const select = <T extends RevisionRange & { method: string }>(
    entries: readonly T[],
    id: (e: T) => string,
    holds: (e: T) => boolean,
  ): T[] =>
    entries.filter((entry) => {
      if (!holds(entry)) return false;
      const eras = eraOf(entry);
      if (eras === "any" || eras.has(shows.lifecycle)) return true;
      guesses.push({
        entry: id(entry),
        about: "method",
        subject: entry.method,
        note: `${id(entry)} not applied: this schema has everything it names, but it was written for the ${[...eras].join(" and ") || "no"} era and this schema is of the ${shows.lifecycle} era`,
      });
      return false;
    });
  const request = (name: string) => shows.method(name)?.kind === "request";
  return {
    overlay: {
      results: select(
        overlay.results,
        entryId.result,
        (r) => request(r.method) && !shows.method(r.method)!.result && shows.declares(r.result),
      ),
      alternativeResults: select(
        overlay.alternativeResults ?? [],
        entryId.alternative,
        (r) => request(r.method) && r.types.every((t) => shows.declares(t)),
      ),
      capabilities: select(
        overlay.capabilities,
        entryId.capability,
        (r) => shows.method(r.method) !== undefined && shows.capability(r.holder, r.path),
      ),
      revisions: [],
    },
    guesses,
  };
}

/**
 * The entries a pinned revision's schema would get by its facts but does not
 * get by its name: the same schema under another name would generate
 * differently, so the range is wrong. Returned as entry ids.
 */
export function outOfRange(byName: MethodOverlay, byFacts: MethodOverlay): string[] {
  const ids = (o: MethodOverlay) => [
    ...o.results.map(entryId.result),
    ...(o.alternativeResults ?? []).map(entryId.alternative),
    ...o.capabilities.map(entryId.capability),
    ...o.revisions.map(entryId.revision),
  ];
  const named = new Set(ids(byName));
  return ids(byFacts).filter((id) => !named.has(id));
}

/**
 * The lifecycles of the revision entries an entry's range overlaps: the eras
 * of the pinned revisions it was written for. The overlay's own names are
 * compared here, never a revision's. "any" when the overlay has no revision
 * entries at all.
 */
export function erasOf(entry: RevisionRange, revisions: readonly RevisionRule[]): Set<Lifecycle> | "any" {
  if (revisions.length === 0) return "any";
  return new Set(revisions.filter((r) => overlaps(entry, r)).map((r) => r.lifecycle));
}

function overlaps(a: RevisionRange, b: RevisionRange): boolean {
  if (a.since !== undefined && b.until !== undefined && compareRevisions(a.since, b.until) > 0) return false;
  if (b.since !== undefined && a.until !== undefined && compareRevisions(b.since, a.until) > 0) return false;
  return true;
}

function empty(): MethodOverlay {
  return { results: [], alternativeResults: [], capabilities: [], revisions: [] };
}
