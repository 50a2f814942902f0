// A corpus of messages for differential testing, built from a revision's model:
// valid seeds for every method's message and result (one per union member, with
// and without optional fields), and mutations of each seed (every property
// dropped, every value replaced by values of other JSON types and by the
// schema's own literals, unknown properties added, wrong items pushed into
// arrays). Shared by the validator and shim tests.
import { objectView, indexDeclarations, type DeclarationIndex } from "../../generator/model/resolve.js";
import type { Constraints, RevisionModel, TypeNode } from "../../generator/model/types.js";
import { patternExample } from "./pattern-example.js";

export interface Seed {
  /** The schema type the value is an instance of. */
  type: string;
  value: unknown;
  /** How the seed was made, for messages. */
  label: string;
}

export interface Mutation {
  type: string;
  value: unknown;
  /** e.g. "drop /params/name", "replace /id with null". */
  label: string;
}

interface SampleOptions {
  /** Which member every union takes: member (variant mod members). */
  variant: number;
  /** Whether optional properties and index-signature extras are filled in. */
  full: boolean;
}

const maxDepth = 5;

export class Sampler {
  private readonly index: DeclarationIndex;

  constructor(readonly model: RevisionModel) {
    this.index = indexDeclarations(model.declarations);
  }

  /** A value of the named type. */
  sampleOf(type: string, options: SampleOptions): unknown {
    return this.sample({ kind: "reference", name: type }, options, 0);
  }

  private sample(type: TypeNode, options: SampleOptions, depth: number, constraints?: Constraints): unknown {
    switch (type.kind) {
      case "keyword":
        switch (type.keyword) {
          case "string":
            return stringWithin(constraints);
          case "number":
            return numberWithin(constraints);
          case "boolean":
            return true;
          case "null":
            return null;
          case "object":
            return {};
          default:
            return { anything: "goes" }; // unknown, any
        }
      case "literal":
        return type.value;
      case "reference": {
        const declaration = this.index.get(type.name)!;
        if (declaration.kind === "alias")
          return this.sample(declaration.type, options, depth + 1, declaration.constraints);
        return this.objectSample(
          declaration.resolved.properties,
          declaration.resolved.indexSignature?.type,
          options,
          depth + 1,
        );
      }
      case "union": {
        const members = this.flatten(type);
        // Deep down, prefer a member that ends the recursion (JSONValue → string).
        const candidates = depth > maxDepth ? members.filter((m) => m.kind === "keyword" || m.kind === "literal") : [];
        const pool = candidates.length > 0 ? candidates : members;
        return this.sample(pool[options.variant % pool.length]!, options, depth + 1, constraints);
      }
      case "intersection":
        return Object.assign({}, ...type.members.map((m) => this.sample(m, options, depth + 1)));
      case "array":
        return depth > maxDepth ? [] : [this.sample(type.element, options, depth + 1)];
      case "tuple":
        return type.elements.map((e) => this.sample(e, options, depth + 1));
      case "object":
        return this.objectSample(type.properties, type.indexSignature?.type, options, depth + 1);
    }
  }

  private objectSample(
    properties: readonly { name: string; optional: boolean; type: TypeNode; constraints?: Constraints }[],
    indexType: TypeNode | undefined,
    options: SampleOptions,
    depth: number,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const p of properties) {
      if (p.optional && (!options.full || depth > maxDepth)) continue;
      // `a: never`: no value has the type, so a valid instance leaves the property out.
      if (p.type.kind === "keyword" && (p.type.keyword === "never" || p.type.keyword === "undefined")) continue;
      out[p.name] = this.sample(p.type, options, depth, p.constraints);
    }
    if (indexType && options.full && depth <= maxDepth) out["extraKey"] = this.sample(indexType, options, depth);
    return out;
  }

  private flatten(type: TypeNode & { kind: "union" }): TypeNode[] {
    return type.members.flatMap((m) => {
      const declaration = m.kind === "reference" ? this.index.get(m.name) : undefined;
      return declaration?.kind === "alias" && declaration.type.kind === "union" && !declaration.constraints
        ? this.flatten(declaration.type)
        : [m];
    });
  }

  /** The largest union reachable from a type: how many variants cover every member. */
  widestUnion(): number {
    let widest = 1;
    for (const declaration of this.model.declarations) {
      const visit = (type: TypeNode): void => {
        if (type.kind === "union") widest = Math.max(widest, this.flatten(type).length);
        if (type.kind === "union" || type.kind === "intersection") type.members.forEach(visit);
        if (type.kind === "array") visit(type.element);
        if (type.kind === "object") type.properties.forEach((p) => visit(p.type));
      };
      if (declaration.kind === "alias") visit(declaration.type);
      else declaration.resolved.properties.forEach((p) => visit(p.type));
    }
    return Math.min(widest, 8);
  }

  /** The object shape of a type, when it has one (for tests that want to know the fields). */
  shapeOf(type: string) {
    return objectView({ kind: "reference", name: type }, this.index);
  }
}

/** A string its constraints admit: its @pattern's example, base64 for "byte", a URI for "uri", within its lengths. */
function stringWithin(constraints: Constraints | undefined): string {
  if (constraints?.pattern !== undefined) return patternExample(constraints.pattern, constraints.minLength);
  const text =
    constraints?.format === "byte" ? "aGVsbG8=" : constraints?.format === "uri" ? "https://example.com/x" : "text";
  const min = constraints?.minLength ?? 0;
  const max = constraints?.maxLength ?? Infinity;
  if (text.length >= min && text.length <= max) return text;
  return "x".repeat(Math.min(Math.max(min, 1), max));
}

function numberWithin(constraints: Constraints | undefined): number {
  const min = constraints?.minimum ?? constraints?.exclusiveMinimum;
  const max = constraints?.maximum ?? constraints?.exclusiveMaximum;
  if (min !== undefined && max !== undefined) return (min + max) / 2;
  if (min !== undefined) return min + 1;
  if (max !== undefined) return max - 1;
  // An integer: schema.json types many `number` fields as integer (#2698), and a
  // seed must be valid for both validators; the mutations try non-integers.
  return 1;
}

/** Valid seeds for every method of a revision: its message type and its result type. */
export function methodSeeds(model: RevisionModel): Seed[] {
  const sampler = new Sampler(model);
  const types = new Set<string>();
  for (const method of model.methods) {
    types.add(method.type);
    if (method.result) types.add(method.result.response ?? method.result.name);
  }
  types.add(model.facts.envelope.errorResponse);
  const seeds: Seed[] = [];
  const seen = new Set<string>();
  for (const type of [...types].sort()) {
    for (let variant = 0; variant < sampler.widestUnion(); variant++) {
      for (const full of [false, true]) {
        const value = sampler.sampleOf(type, { variant, full });
        const key = `${type} ${JSON.stringify(value)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        seeds.push({ type, value, label: `${type} variant ${variant}${full ? " full" : ""}` });
      }
    }
  }
  return seeds;
}

const otherValues: unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  1.5,
  2,
  "",
  "x",
  "aGk=",
  "not base64!",
  [],
  [null],
  {},
  { x: 1 },
];

/** Every single-point mutation of a seed, deduplicated. */
export function mutations(seed: Seed, literals: readonly (string | number | boolean)[]): Mutation[] {
  const out: Mutation[] = [];
  const seen = new Set<string>([JSON.stringify(seed.value)]);
  const add = (value: unknown, label: string) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ type: seed.type, value, label });
  };
  const visit = (node: unknown, path: (string | number)[]) => {
    const where = "/" + path.join("/");
    for (const other of [...otherValues, ...(typeof node === "string" || typeof node === "number" ? literals : [])]) {
      if (JSON.stringify(other) !== JSON.stringify(node))
        add(replaceAt(seed.value, path, other), `replace ${where} with ${JSON.stringify(other)}`);
    }
    if (Array.isArray(node)) {
      for (const wrong of [null, "x", 1, {}, []])
        add(replaceAt(seed.value, path, [...node, wrong]), `push ${JSON.stringify(wrong)} into ${where}`);
      if (node.length > 0) add(replaceAt(seed.value, path, node.slice(1)), `remove the first item of ${where}`);
      node.forEach((item, i) => visit(item, [...path, i]));
    } else if (typeof node === "object" && node !== null) {
      const object = node as Record<string, unknown>;
      for (const key of Object.keys(object)) {
        const { [key]: _dropped, ...rest } = object;
        add(replaceAt(seed.value, path, rest), `drop ${where === "/" ? "" : where}/${key}`);
      }
      add(replaceAt(seed.value, path, { ...object, mcpgenUnknown: 1 }), `add an unknown property to ${where}`);
      add(
        replaceAt(seed.value, path, { ...object, mcpgenUnknown: { nested: [null] } }),
        `add an unknown object to ${where}`,
      );
      for (const [key, child] of Object.entries(object)) visit(child, [...path, key]);
    }
  };
  visit(seed.value, []);
  return out;
}

function replaceAt(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((item, i) => (i === head ? replaceAt(item, rest, value) : item));
  const object = root as Record<string, unknown>;
  return { ...object, [head!]: replaceAt(object[head as string], rest, value) };
}

/** Every string and number literal in a revision's schema, for mutations that swap one for another. */
export function schemaLiterals(model: RevisionModel): (string | number | boolean)[] {
  const found = new Set<string | number | boolean>();
  const visit = (type: TypeNode): void => {
    if (type.kind === "literal") found.add(type.value);
    if (type.kind === "union" || type.kind === "intersection") type.members.forEach(visit);
    if (type.kind === "array") visit(type.element);
    if (type.kind === "tuple") type.elements.forEach(visit);
    if (type.kind === "object") {
      type.properties.forEach((p) => visit(p.type));
      if (type.indexSignature) visit(type.indexSignature.type);
    }
  };
  for (const declaration of model.declarations) {
    if (declaration.kind === "alias") visit(declaration.type);
    else declaration.properties.forEach((p) => visit(p.type));
  }
  return [...found].sort((a, b) => String(a).localeCompare(String(b)));
}
