// The names a revision's index.ts exports. The fixed ones (methods, validate,
// classify, ...) come from the emitters; per schema type there is a guard
// is<Type> and a validator validate<Type>. Those are made unique here: the
// schema has a type Result, and validateResult is the per-method validator,
// so the type's validator becomes validateResultType (or validateResultType2
// if that is taken too, as it is in 2026-07-28, which has a type ResultType).
import type { RevisionModel } from "../model/types.js";
import { methodsFileExports } from "./methods-file.js";
import { revisionFileExports } from "./revision-file.js";
import { tablesFileExports } from "./tables-file.js";

/** Every fixed name a revision exports besides the schema's own. */
export const fixedExports: readonly string[] = [...methodsFileExports, ...revisionFileExports, ...tablesFileExports];

export interface TypeExportNames {
  guard: string;
  validator: string;
}

/** The guard and validator name of every schema type, unique among everything index.ts exports. */
export function typeExportNames(
  model: Pick<RevisionModel, "declarations" | "constants">,
): Map<string, TypeExportNames> {
  const reserved = new Set([
    ...fixedExports,
    ...model.declarations.map((d) => d.name),
    ...model.constants.map((c) => c.name),
  ]);
  const wanted = model.declarations.map((d) => ({
    type: d.name,
    guard: `is${d.name}`,
    validator: `validate${d.name}`,
  }));
  // Plain names first, so that a suffixed name never takes another type's plain one.
  const taken = new Set([
    ...reserved,
    ...wanted.flatMap((w) => [w.guard, w.validator]).filter((n) => !reserved.has(n)),
  ]);
  const unique = (plain: string): string => {
    if (!reserved.has(plain)) return plain;
    let name = `${plain}Type`;
    for (let n = 2; taken.has(name); n++) name = `${plain}Type${n}`;
    taken.add(name);
    return name;
  };
  return new Map(wanted.map((w) => [w.type, { guard: unique(w.guard), validator: unique(w.validator) }]));
}
