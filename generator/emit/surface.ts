// spec/surface/<rev>.json: the reviewable surface of a revision. Facts only
// (names, kinds, directions, fields), no upstream prose, so that a spec bump
// reads as a small diff in review. Validation annotations (`@maxLength`,
// `@pattern`, ...) are facts too: they change what a validator accepts.
import { annotationsOf } from "../diff/constraints.js";
import { byCodeUnit } from "../model/order.js";
import type { Constraints, Declaration, RevisionModel, TypeNode } from "../model/types.js";

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
    constraints: constraintsOf(model.declarations),
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

/**
 * The annotations of every place that has some, by path: "ToolName" (an alias),
 * "Tool.name" (a field, where it is declared), "CompleteResult.completion.values"
 * (inside an inline object), "[]" for array items, "[key]" for an index signature.
 */
function constraintsOf(declarations: readonly Declaration[]): Record<string, string[]> {
  const found = new Map<string, string[]>();
  const note = (path: string, c: Constraints | undefined) => {
    const tags = [...annotationsOf(c).values()];
    if (tags.length === 0) return;
    const known = found.get(path) ?? [];
    found.set(path, [...known, ...tags.filter((t) => !known.includes(t))]);
  };
  const walk = (type: TypeNode, path: string): void => {
    switch (type.kind) {
      case "object":
        for (const p of type.properties) {
          note(`${path}.${p.name}`, p.constraints);
          walk(p.type, `${path}.${p.name}`);
        }
        if (type.indexSignature) walk(type.indexSignature.type, `${path}[key]`);
        return;
      case "array":
        return walk(type.element, `${path}[]`);
      case "tuple":
        return type.elements.forEach((e, i) => walk(e, `${path}[${i}]`));
      case "union":
      case "intersection":
        return type.members.forEach((m) => walk(m, path));
      default:
        return; // a reference's places are listed under its own name
    }
  };
  for (const d of declarations) {
    if (d.kind === "alias") {
      note(d.name, d.constraints);
      walk(d.type, d.name);
    } else {
      walk(
        { kind: "object", properties: d.properties, ...(d.indexSignature ? { indexSignature: d.indexSignature } : {}) },
        d.name,
      );
    }
  }
  return Object.fromEntries([...found].sort(([a], [b]) => byCodeUnit(a, b)));
}
