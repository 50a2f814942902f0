// The generated validators of an extension against an independent oracle: ajv
// compiled from the extension's own schema.json, over a corpus of valid
// messages of each of its methods and their mutations (test/support/corpus.ts),
// as test/validation/differential.test.ts does for revisions. The extension's
// upstream publishes no example files. Its schema.json carries the base types it
// uses as its repository vendored them; where it contradicts schema.ts, the
// reviewed ledger (test/validation/ledger.ts) says so, and schema.ts wins.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { buildExtension, buildModel } from "../../generator/generate.js";
import { extensionAsRevision } from "../../generator/model/extension.js";
import type { ValidationResult } from "../../runtime/validation.js";
import { importGenerated, lock, pinnedExtensionSource, pinnedSource, projectRoot } from "../helpers.js";
import { methodSeeds, mutations, schemaLiterals } from "../support/corpus.js";
import { explain, ledger } from "../validation/ledger.js";
import { schemaPlaces, SchemaJsonOracle } from "../validation/oracle.js";

type Validate = (type: string, value: unknown) => ValidationResult;

// Only extensions whose upstream publishes a schema.json have an independent oracle.
const withSchemaJson = (lock.extensions ?? []).filter((e) => e.schema !== undefined).map((e) => e.name);

describe.each(withSchemaJson)("extension %s", (name) => {
  test("mcpgen and ajv (on the extension's schema.json) agree on every seed and mutation", async () => {
    const source = pinnedExtensionSource(name);
    const base = buildModel(pinnedSource(source.base));
    const model = buildExtension(source, base);
    const view = extensionAsRevision(model, base, `ext/${name}`);
    const own = new Set(model.declarations.map((d) => d.name));
    const ours = (await import(join(projectRoot, "generated", "ext", name, "tables.ts"))) as { validate: Validate };
    const baseValidate = (await importGenerated<{ validate: Validate }>(source.base, "tables")).validate;
    const validate = (type: string, value: unknown) =>
      own.has(type) ? ours.validate(type, value) : baseValidate(type, value);
    const entry = lock.extensions!.find((e) => e.name === name)!;
    const oracle = new SchemaJsonOracle(
      `ext/${name}`,
      join("spec", "ext", name, entry.schema!.replace(/schema\.ts$/, "schema.json")),
    );
    expect(oracle.typeNames.filter((t) => own.has(t)).sort()).toEqual([...own].sort());
    const places = schemaPlaces(oracle);
    const hits = new Set<string>();
    const explained = (errors: readonly { parentSchema?: unknown }[]) => {
      for (const error of errors) {
        const place = places.get(error.parentSchema);
        const found = place !== undefined ? explain(`ext/${name}`, place) : undefined;
        if (found) return hits.add(found.place);
      }
      return false;
    };

    const literals = schemaLiterals(view);
    const disagreements: string[] = [];
    let cases = 0;
    let invalid = 0;
    for (const seed of methodSeeds(view)) {
      if (!own.has(seed.type)) continue; // the base's own messages are the base revision's test
      expect(validate(seed.type, seed.value), `seed ${seed.label}`).toEqual({ valid: true });
      for (const { type, value, label } of [seed, ...mutations(seed, literals)]) {
        cases++;
        const mine = validate(type, value);
        const theirs = oracle.validate(type, value);
        if (!mine.valid) invalid++;
        if (mine.valid !== theirs.valid && !(mine.valid && explained(theirs.errors)))
          disagreements.push(
            `${type}: ${label}: ${mine.valid ? `ajv rejects: ${JSON.stringify(theirs.errors.slice(0, 2))}` : `mcpgen rejects: ${JSON.stringify(mine)}`}`,
          );
      }
    }
    expect(cases).toBeGreaterThan(500);
    expect(invalid / cases).toBeGreaterThan(0.3);
    expect(disagreements.slice(0, 20)).toEqual([]);
    // No ledger place the corpus no longer reaches.
    const listed = ledger.flatMap((entry) => entry.places[`ext/${name}`] ?? []);
    expect(listed.filter((place) => !hits.has(place))).toEqual([]);
  });
});
