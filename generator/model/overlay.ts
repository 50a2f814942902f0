// The shape of the reviewed method overlay (data in generator/overlay/methods.ts)
// and the rule for which entries apply to a revision.
import type { CapabilityRequirement, RevisionFacts } from "./types.js";
import { inRevisionRange } from "./revision-order.js";

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

/** The overlay restricted to the entries whose range covers `revision`. */
export function overlayFor(overlay: MethodOverlay, revision: string): MethodOverlay {
  const applies = (entry: RevisionRange) => inRevisionRange(revision, entry);
  return {
    results: overlay.results.filter(applies),
    alternativeResults: (overlay.alternativeResults ?? []).filter(applies),
    capabilities: overlay.capabilities.filter(applies),
    revisions: overlay.revisions.filter(applies),
  };
}
