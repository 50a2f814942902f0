// The places of each ledger class (./ledger.ts) in a schema.json, found by
// walking it beside the schema.ts model it was generated from: for a revision
// never seen before, whose places nobody has listed. Each class is a predicate
// on one place (what schema.ts admits there, what schema.json admits there),
// the same predicates the differential test checks the listed places with.
// Where mcpgen rejects what schema.json admits, the place also gets a
// correction: the node saying what schema.ts says, so that ajv can be asked
// again on schema.json read as schema.ts at that place (./agreement.ts).
import { indexDeclarations, objectView, type DeclarationIndex } from "../../generator/model/resolve.js";
import type { Constraints, RevisionModel, TypeNode } from "../../generator/model/types.js";
import type { LedgerClassId, LedgerPlaces } from "./ledger.js";
import type { SchemaJsonOracle } from "./oracle.js";

type JsonNode = Record<string, unknown>;

export interface Defects {
  /** Every place of every class, in file order. */
  places: LedgerPlaces;
  /** For a place where schema.json admits what schema.ts does not: the node that says what schema.ts says. */
  corrections: ReadonlyMap<string, unknown>;
}

/** Every place of every class in the oracle's schema.json. */
export function findDefects(model: RevisionModel, oracle: SchemaJsonOracle): Defects {
  const index = indexDeclarations(model.declarations);
  const found = new Map<LedgerClassId, string[]>();
  const corrections = new Map<string, unknown>();
  const add = (id: LedgerClassId, place: string, correction?: unknown) => {
    found.set(id, [...(found.get(id) ?? []), place]);
    if (correction !== undefined) corrections.set(place, correction);
  };
  const definitions = (oracle.schema[oracle.definitionsKey] ?? {}) as Record<string, JsonNode>;

  const visit = (type: TypeNode, constraints: Constraints | undefined, node: JsonNode, place: string): void => {
    // A $ref's defects are its definition's, found there.
    if (typeof node.$ref === "string" && Object.keys(node).every((k) => k === "$ref" || k === "description")) return;
    if (
      modelAdmitsFraction(index, type, constraints) &&
      !oracle.validateNode(node, 1.5) &&
      oracle.validateNode(node, 1)
    )
      add("number-as-integer", place);
    if (modelAdmitsNull(index, type, constraints) && !oracle.validateNode(node, null)) add("null-dropped", place);
    const kind = primitiveKind(type);
    if (kind && !jsonTypes(node).some((t) => t === kind || (kind === "number" && t === "integer")))
      add("type-spelled-differently", place, { type: kind });
    if (type.kind === "reference") return; // its own definition is walked
    const shape = objectView(type, index);
    if (!shape) return;
    const properties = (node.properties ?? {}) as Record<string, JsonNode>;
    for (const property of shape.properties) {
      const at = `${place}/properties/${pointerSegment(property.name)}`;
      if (mustBeAbsent(index, property.type)) {
        if (!Object.prototype.hasOwnProperty.call(properties, property.name)) add("never-property-omitted", at, false);
      } else if (Object.prototype.hasOwnProperty.call(properties, property.name)) {
        visit(property.type, property.constraints, properties[property.name]!, at);
      }
    }
    if (shape.indexSignature && typeof node.additionalProperties === "object" && node.additionalProperties !== null)
      visit(
        shape.indexSignature.type,
        undefined,
        node.additionalProperties as JsonNode,
        `${place}/additionalProperties`,
      );
  };

  for (const declaration of model.declarations) {
    const node = definitions[declaration.name];
    if (!node) continue;
    const place = `#/${oracle.definitionsKey}/${pointerSegment(declaration.name)}`;
    if (declaration.kind === "alias") visit(declaration.type, declaration.constraints, node, place);
    else {
      const { properties, indexSignature } = declaration.resolved;
      visit({ kind: "object", properties, ...(indexSignature ? { indexSignature } : {}) }, undefined, node, place);
    }
  }
  return { places: found, corrections };
}

/**
 * The oracle's schema.json read as schema.ts says at the places given (each
 * place's correction put there: `false` for a property that must be absent, a
 * type for a type spelled differently), for the classes whose disagreements
 * ajv shows by accepting: compiled only where one is met.
 */
export function correctedSchema(schema: object, corrections: ReadonlyMap<string, unknown>): object {
  const copy = structuredClone(schema) as JsonNode;
  for (const [place, correction] of corrections) {
    const segments = place.replace(/^#\//, "").split("/").map(unescapeSegment);
    const last = segments.pop()!;
    let node = copy;
    for (const segment of segments) node = (node[segment] ??= {}) as JsonNode;
    node[last] = correction;
  }
  return copy;
}

/** The JSON Schema type a schema.ts keyword stands for, for string, number and boolean. */
function primitiveKind(type: TypeNode): "string" | "number" | "boolean" | undefined {
  if (type.kind !== "keyword") return undefined;
  return type.keyword === "string" || type.keyword === "number" || type.keyword === "boolean"
    ? type.keyword
    : undefined;
}

/** The types a schema.json node states with `type` (none when it states none: a $ref, anyOf, const...). */
function jsonTypes(node: JsonNode): string[] {
  if (typeof node.type === "string") return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((t): t is string => typeof t === "string");
  return ["string", "number", "boolean"]; // no stated type: nothing to compare
}

/** Whether a schema.ts type admits a non-integer number. */
export function modelAdmitsFraction(index: DeclarationIndex, type: TypeNode, constraints?: Constraints): boolean {
  if (constraints?.integer) return false;
  switch (type.kind) {
    case "keyword":
      return ["number", "any", "unknown"].includes(type.keyword);
    case "union":
      return type.members.some((m) => modelAdmitsFraction(index, m));
    case "reference": {
      const declaration = index.get(type.name);
      return declaration?.kind === "alias" && modelAdmitsFraction(index, declaration.type, declaration.constraints);
    }
    default:
      return false;
  }
}

/** Whether a schema.ts type admits null (a union with null, @nullable, or an alias of one). */
export function modelAdmitsNull(index: DeclarationIndex, type: TypeNode, constraints?: Constraints): boolean {
  if (constraints?.nullable) return true;
  switch (type.kind) {
    case "keyword":
      return type.keyword === "null";
    case "union":
      return type.members.some((m) => modelAdmitsNull(index, m));
    case "reference": {
      const declaration = index.get(type.name);
      return declaration?.kind === "alias" && modelAdmitsNull(index, declaration.type, declaration.constraints);
    }
    default:
      return false;
  }
}

function mustBeAbsent(index: DeclarationIndex, type: TypeNode): boolean {
  if (type.kind === "keyword") return type.keyword === "never" || type.keyword === "undefined";
  const declaration = type.kind === "reference" ? index.get(type.name) : undefined;
  return declaration?.kind === "alias" && mustBeAbsent(index, declaration.type);
}

const pointerSegment = (name: string) => name.replace(/~/g, "~0").replace(/\//g, "~1");
const unescapeSegment = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");
