// spec/surface/<rev>.json: the reviewable surface of a revision. Facts only
// (names, kinds, directions, fields), no upstream prose, so that a spec bump
// reads as a small diff in review.
import { byCodeUnit } from "../model/order.js";
import type { Declaration, RevisionModel } from "../model/types.js";

export function surfaceOf(model: RevisionModel): string {
  const surface = {
    revision: model.revision,
    schemaSha256: model.source.sha256,
    facts: model.facts,
    methods: Object.fromEntries(
      model.methods.map((m) => [
        m.name,
        {
          kind: m.kind,
          direction: m.direction + (m.inputRequest ? " (input request)" : ""),
          type: m.type,
          params: m.params ? (m.params.name ?? "inline") + (m.params.required ? "" : "?") : null,
          ...(m.result ? { result: m.result.name, resultFrom: m.result.source } : {}),
          capability: m.capability ? `${m.capability.holder}:${m.capability.path.join(".")}` : null,
        },
      ]),
    ),
    constants: Object.fromEntries(model.constants.map((c) => [c.name, c.value])),
    types: Object.fromEntries(model.declarations.map((d) => [d.name, typeSurface(d)])),
  };
  return `${JSON.stringify(surface, null, 2)}\n`;
}

/** An interface as its fields ("name" or "name?"), own and inherited, sorted; an alias as "alias". */
function typeSurface(declaration: Declaration): string[] | string {
  if (declaration.kind === "alias") return "alias";
  const fields = declaration.resolved.properties.map((p) => p.name + (p.optional ? "?" : "")).sort(byCodeUnit);
  if (declaration.resolved.indexSignature) fields.push(`[${declaration.resolved.indexSignature.keyType}]`);
  return fields;
}
