// Differential proof of the generated validators against an independent
// oracle, ajv compiled from the upstream schema.json of the same revision, over
// (a) every upstream example and (b) a mutation corpus built from valid
// messages of every method (test/support/corpus.ts; the comparison is
// ./agreement.ts). Agreement must be total, except where the reviewed ledger
// (./ledger.ts) records that schema.json contradicts schema.ts; schema.ts wins.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ErrorObject } from "ajv";
import { beforeAll, describe, expect, test } from "vitest";
import type { ValidationResult } from "../../runtime/validation.js";
import { buildModel } from "../../generator/generate.js";
import { indexDeclarations, objectView } from "../../generator/model/resolve.js";
import type { Constraints, RevisionModel, TypeNode } from "../../generator/model/types.js";
import { importGenerated, lock, pinnedRevisions, pinnedSource, projectRoot } from "../helpers.js";
import { agreement } from "./agreement.js";
import { findDefects, modelAdmitsFraction } from "./defects.js";
import { explain, ledger, listedPlaces, type LedgerClassId } from "./ledger.js";
import { schemaPlaces, SchemaJsonOracle } from "./oracle.js";

type Validate = (type: string, value: unknown) => ValidationResult;

describe.each(pinnedRevisions)("revision %s", (revision) => {
  let model: RevisionModel;
  let validate: Validate;
  let oracle: SchemaJsonOracle;
  /** schema.json node → its JSON pointer, to place ajv's errors (ajv keeps the nodes it was given). */
  let places = new Map<unknown, string>();

  beforeAll(async () => {
    model = buildModel(pinnedSource(revision));
    validate = (await importGenerated<{ validate: Validate }>(revision, "tables")).validate;
    oracle = new SchemaJsonOracle(revision);
    places = schemaPlaces(oracle);
  });

  /** Why ajv rejected a value, in ledger terms, or undefined when the ledger does not explain it. */
  const explanation = (errors: readonly ErrorObject[]) => {
    for (const error of errors) {
      const place = places.get(error.parentSchema);
      const found = place !== undefined ? explain(revision, place) : undefined;
      if (found) return found;
    }
    return undefined;
  };

  test("schema.json defines exactly the schema.ts types, so every type has an oracle", () => {
    expect(oracle.typeNames.sort()).toEqual(model.declarations.map((d) => d.name).sort());
  });

  test("every upstream example is valid for mcpgen, and for ajv where the ledger does not say otherwise", () => {
    const files = lock.revisions.find((r) => r.name === revision)!.files.filter((f) => f.path.startsWith("examples/"));
    const dir = join(projectRoot, "spec", revision, "examples");
    expect(files.length).toBe(
      files.length === 0
        ? 0
        : readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length,
    );
    for (const type of files.length > 0 ? readdirSync(dir) : []) {
      for (const name of readdirSync(join(dir, type))) {
        const value = JSON.parse(readFileSync(join(dir, type, name), "utf8"));
        expect(validate(type, value), `${type}/${name}`).toEqual({ valid: true });
        const theirs = oracle.validate(type, value);
        if (!theirs.valid)
          expect(explanation(theirs.errors), `${type}/${name}: ${JSON.stringify(theirs.errors)}`).toBeDefined();
      }
    }
  });

  test("mcpgen and ajv agree on every seed and mutation, or the ledger explains why", () => {
    const result = agreement({ model, validate, oracle, places: listedPlaces(revision) });
    expect(result.invalidSeeds).toEqual([]);
    // Several thousand cases, both valid and invalid ones in earnest.
    expect(result.cases).toBeGreaterThan(10_000);
    expect(result.invalid / result.cases).toBeGreaterThan(0.3);
    expect(result.invalid / result.cases).toBeLessThan(0.95);
    expect(result.unexplained.slice(0, 20)).toEqual([]);
    // No ledger place the corpus no longer reaches.
    const listed = ledger.flatMap((entry) => entry.places[revision] ?? []);
    expect(listed.filter((place) => !result.hits.has(place))).toEqual([]);
  });

  test("comparing schema.json with schema.ts finds every listed place, as an unseen revision's would be found", () => {
    const found = findDefects(model, oracle).places;
    for (const entry of ledger) {
      // JSONValue's schema.json drops null and non-integers at once: both kinds at one place.
      const kinds: LedgerClassId[] =
        entry.id === "json-value-without-null" ? ["number-as-integer", "null-dropped"] : [entry.id];
      const listed = entry.places[revision] ?? [];
      for (const kind of kinds)
        expect(
          listed.filter((place) => !found.get(kind)?.includes(place)),
          `${entry.id} as ${kind}`,
        ).toEqual([]);
      // The classes where mcpgen may be the one rejecting are found exactly where listed (nowhere, so far).
      if (entry.rejects !== "ajv") expect(found.get(entry.id) ?? [], entry.id).toEqual(listed);
    }
  });

  test("every ledger place says in schema.json what its class claims, and the opposite in schema.ts", () => {
    for (const entry of ledger) {
      for (const place of entry.places[revision] ?? []) {
        const node = oracle.nodeAt(place);
        expect(node, place).toBeDefined();
        const target = modelTypeAt(model, place);
        if (entry.id === "number-as-integer") {
          expect(jsonAdmits(oracle, node, 1.5), `${place} in schema.json`).toBe(false);
          expect(
            modelAdmitsFraction(indexDeclarations(model.declarations), target.type, target.constraints),
            `${place} in schema.ts`,
          ).toBe(true);
        } else {
          expect(jsonAdmits(oracle, node, null), `${place} in schema.json`).toBe(false);
          expect(validate(place.split("/").pop()!, null), `${place} in schema.ts`).toEqual({ valid: true });
        }
      }
    }
  });
});

/** Whether the schema.json node at hand admits a value, judged by ajv on that node alone. */
function jsonAdmits(oracle: SchemaJsonOracle, node: unknown, value: unknown): boolean {
  return oracle.validateNode(node, value);
}

/** The schema.ts type a schema.json pointer like #/$defs/X/properties/a/additionalProperties stands for. */
function modelTypeAt(model: RevisionModel, place: string): { type: TypeNode; constraints?: Constraints } {
  const index = indexDeclarations(model.declarations);
  const [, , name, ...rest] = place.split("/");
  let current: { type: TypeNode; constraints?: Constraints } = { type: { kind: "reference", name: name! } };
  for (let i = 0; i < rest.length; i++) {
    const shape = objectView(current.type, index);
    if (rest[i] === "properties") {
      const property = shape?.properties.find((p) => p.name === rest[i + 1]);
      if (!property) throw new Error(`${place}: no property ${rest[i + 1]} in schema.ts`);
      current = { type: property.type, ...(property.constraints ? { constraints: property.constraints } : {}) };
      i++;
    } else if (rest[i] === "additionalProperties") {
      if (!shape?.indexSignature) throw new Error(`${place}: no index signature in schema.ts`);
      current = { type: shape.indexSignature.type };
    } else {
      throw new Error(`${place}: cannot follow ${rest[i]}`);
    }
  }
  return current;
}
