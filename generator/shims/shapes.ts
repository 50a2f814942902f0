// Model → the shapes the runtime converter walks (runtime/shims.ts): every
// type's shape with interfaces flattened, and each method's params and result.
// A field's owner is where it is declared ("Result", or "RequestParams._meta"
// for a field of an inline type); defaults in step plans are keyed by it.
import { indexDeclarations, propertyOf, type DeclarationIndex } from "../model/resolve.js";
import type { Property, ResolvedProperty, RevisionModel, TypeNode } from "../model/types.js";
import type { FieldShape, Shape } from "mcpgen/runtime/codegen";

export interface ModelShapes {
  types: Record<string, Shape>;
  params: Record<string, FieldShape>;
  results: Record<string, FieldShape>;
}

/** Models are not changed once built: a model's shapes are built once (its step plans read them too). */
const built = new WeakMap<RevisionModel, ModelShapes>();

export function shapesOf(model: RevisionModel): ModelShapes {
  let shapes = built.get(model);
  if (!shapes) built.set(model, (shapes = buildShapes(model)));
  return shapes;
}

function buildShapes(model: RevisionModel): ModelShapes {
  const index = indexDeclarations(model.declarations);
  const types: Record<string, Shape> = {};
  for (const d of model.declarations) {
    types[d.name] =
      d.kind === "interface"
        ? objectShape(d.resolved.properties, d.resolved.indexSignature?.type, d.name)
        : toShape(d.type, d.name);
  }
  const params: Record<string, FieldShape> = {};
  const results: Record<string, FieldShape> = {};
  for (const m of model.methods) {
    const property = propertyOf({ kind: "reference", name: m.type }, "params", index);
    if (property) {
      const field = `${property.declaredIn || m.type}.params`;
      params[m.name] = { field, shape: toShape(property.type, field) };
    }
    if (m.result) {
      const field = resultField(m.result.response, index);
      results[m.name] = { field, shape: toShape(m.result.type, field) };
    }
  }
  return { types, params, results };
}

/** A result's field key: the response type's `result` field, or "result" where the schema declares no response type. */
function resultField(response: string | undefined, index: DeclarationIndex): string {
  const property = response ? propertyOf({ kind: "reference", name: response }, "result", index) : undefined;
  return property ? `${property.declaredIn || response}.result` : "result";
}

/** A type as a shape; fields of inline object types are owned by `owner`. */
export function toShape(type: TypeNode, owner: string): Shape {
  switch (type.kind) {
    case "keyword":
      return { kind: "keyword", keyword: type.keyword };
    case "literal":
      return { kind: "literal", value: type.value };
    case "reference":
      return { kind: "reference", name: type.name };
    case "union":
    case "intersection":
      return { kind: type.kind, members: type.members.map((m) => toShape(m, owner)) };
    case "array":
      return { kind: "array", element: toShape(type.element, `${owner}[]`) };
    case "tuple":
      return { kind: "tuple", elements: type.elements.map((e, i) => toShape(e, `${owner}[${i}]`)) };
    case "object":
      return objectShape(type.properties, type.indexSignature?.type, owner);
  }
}

function objectShape(
  properties: readonly (Property | ResolvedProperty)[],
  indexType: TypeNode | undefined,
  owner: string,
): Shape {
  return {
    kind: "object",
    properties: properties.map((p) => {
      const fieldOwner = ("declaredIn" in p && p.declaredIn) || owner;
      return {
        name: p.name,
        optional: p.optional,
        type: toShape(p.type, `${fieldOwner}.${p.name}`),
        owner: fieldOwner,
      };
    }),
    ...(indexType ? { indexSignature: toShape(indexType, `${owner}[key]`) } : {}),
  };
}
