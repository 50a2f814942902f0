// The differential comparison itself, shared by the pinned revisions' proof
// (./differential.test.ts) and the upstream history (test/history): mcpgen's
// verdict and ajv's on every seed of a revision's corpus and its mutations
// (test/support/corpus.ts), each disagreement explained by a ledger class
// (./ledger.ts) at the places given, or reported.
import type { ErrorObject } from "ajv";
import type { RevisionModel } from "../../generator/model/types.js";
import type { ValidationResult } from "../../runtime/validation.js";
import { methodSeeds, mutations, schemaLiterals } from "../support/corpus.js";
import { correctedSchema } from "./defects.js";
import { explain, ledger, type LedgerClassId, type LedgerPlaces } from "./ledger.js";
import { schemaPlaces, SchemaJsonOracle } from "./oracle.js";

export type Validate = (type: string, value: unknown) => ValidationResult;

export interface AgreementOptions {
  model: RevisionModel;
  validate: Validate;
  oracle: SchemaJsonOracle;
  /** The places of each ledger class in the oracle's schema.json. */
  places: LedgerPlaces;
  /**
   * For the places where schema.json admits what schema.ts does not, the node saying what schema.ts says
   * (./defects.ts): a disagreement where mcpgen rejects is explained by a class when ajv rejects too on
   * schema.json with that class's places corrected.
   */
  corrections?: ReadonlyMap<string, unknown>;
  /** Every how many mutations of a seed one is tried (1, the default: all of them); every seed is tried. */
  stride?: number;
}

export interface Agreement {
  cases: number;
  /** Cases mcpgen rejects. */
  invalid: number;
  /** Cases where both give the same verdict. */
  agreed: number;
  /** Disagreements the ledger explains, by class. */
  explained: Map<LedgerClassId, number>;
  /** The ledger places that explained at least one disagreement. */
  hits: Set<string>;
  /** "type: how the case was made: who rejects and why", for each disagreement nothing explains. */
  unexplained: string[];
  /** Seeds mcpgen itself rejects (each must be valid by construction). */
  invalidSeeds: string[];
}

export function agreement({
  model,
  validate,
  oracle,
  places,
  corrections = new Map(),
  stride = 1,
}: AgreementOptions): Agreement {
  const nodePlaces = schemaPlaces(oracle);
  /** Per class where mcpgen may be the one rejecting: its corrected places, and ajv on them (compiled when first needed). */
  const corrected = ledger
    .filter((entry) => entry.rejects !== "ajv")
    .map((entry) => {
      const own = (places.get(entry.id) ?? []).filter((place) => corrections.has(place));
      return { id: entry.id, own, oracle: undefined as SchemaJsonOracle | undefined };
    })
    .filter(({ own }) => own.length > 0);
  /** The class and place explaining a disagreement, if any. */
  const why = (type: string, value: unknown, oursValid: boolean, errors: readonly ErrorObject[]) => {
    if (oursValid) {
      for (const error of errors) {
        const place = nodePlaces.get(error.parentSchema);
        const found = place !== undefined ? explain(places, place) : undefined;
        if (found) return found;
      }
      return undefined;
    }
    // mcpgen rejects what ajv accepts: explained by a class if ajv rejects too once its places say what schema.ts says.
    for (const entry of corrected) {
      entry.oracle ??= new SchemaJsonOracle(
        oracle.revision,
        correctedSchema(oracle.schema, new Map(entry.own.map((place) => [place, corrections.get(place)]))),
      );
      if (!entry.oracle.validate(type, value).valid) return { id: entry.id, place: entry.own.join(" ") };
    }
    return undefined;
  };

  const result: Agreement = {
    cases: 0,
    invalid: 0,
    agreed: 0,
    explained: new Map(),
    hits: new Set(),
    unexplained: [],
    invalidSeeds: [],
  };
  const literals = schemaLiterals(model);
  for (const [n, seed] of methodSeeds(model).entries()) {
    const verdict = validate(seed.type, seed.value);
    if (!verdict.valid) result.invalidSeeds.push(`${seed.label}: ${JSON.stringify(verdict)}`);
    // Each seed starts the stride elsewhere, so that a sample reaches every kind of mutation.
    const cases = [seed, ...mutations(seed, literals).filter((_, i) => (i + n) % stride === 0)];
    for (const { type, value, label } of cases) {
      result.cases++;
      const ours = validate(type, value);
      const theirs = oracle.validate(type, value);
      if (!ours.valid) result.invalid++;
      if (ours.valid === theirs.valid) {
        result.agreed++;
        continue;
      }
      const found = why(type, value, ours.valid, theirs.errors);
      if (found) {
        result.explained.set(found.id, (result.explained.get(found.id) ?? 0) + 1);
        for (const place of found.place.split(" ")) result.hits.add(place);
      } else {
        const detail = ours.valid
          ? `ajv rejects: ${JSON.stringify(theirs.errors.slice(0, 3))}`
          : `mcpgen rejects: ${JSON.stringify(ours)}`;
        result.unexplained.push(`${type}: ${label}: ${detail}`);
      }
    }
  }
  return result;
}
