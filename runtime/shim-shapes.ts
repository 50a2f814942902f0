// Reading shapes: references followed, unions spread, fields by name, and
// whether a value fits a shape. Shapes are immutable data: every answer is cached.
import { isObject, pointer, test } from "./validation.js";
import type { RevisionShapes, Shape, ShapeProperty } from "./shim-data.js";

/** What following references needs of a revision: its types (the generator passes its own shapes). */
type Types = Pick<RevisionShapes, "types">;

/** What a revision's shapes are built from on their first read (generated/shims/<rev>.ts). */
export interface ShapeBuilders {
  readonly types: () => RevisionShapes["types"];
  readonly params: () => RevisionShapes["params"];
  readonly results: () => RevisionShapes["results"];
}

/**
 * A revision's shapes with its tables at once and its types, params and
 * results built on their first read (then plain data properties). Only a walk
 * reads them: a step's shortcut needs the checks alone. Both revisions'
 * shapes are ~300 KB of objects each, which a session whose conversions all
 * take the shortcut never needs.
 */
export function revisionShapes(
  tables: Omit<RevisionShapes, keyof ShapeBuilders>,
  build: ShapeBuilders,
): RevisionShapes {
  const shapes = { ...tables } as RevisionShapes;
  for (const key of ["types", "params", "results"] as const) {
    Object.defineProperty(shapes, key, {
      configurable: true,
      enumerable: true,
      get() {
        const value = build[key]();
        Object.defineProperty(shapes, key, { value, enumerable: true, configurable: false, writable: false });
        return value;
      },
    });
  }
  return shapes;
}

/** Any value (what a field without a counterpart converts as). */
export const ANY: Shape = { kind: "keyword", keyword: "unknown" };

const fieldMaps = new WeakMap<Shape, Map<string, ShapeProperty>>();
const noFields = new Map<string, ShapeProperty>();

/** An object shape's fields by name (cached: shapes are immutable). */
export function fieldsOf(shape: (Shape & { kind: "object" }) | undefined): Map<string, ShapeProperty> {
  if (!shape) return noFields;
  let fields = fieldMaps.get(shape);
  if (!fields) fieldMaps.set(shape, (fields = new Map(shape.properties.map((p) => [p.name, p]))));
  return fields;
}

const unionMembers = new WeakMap<Types, WeakMap<Shape, Resolved[]>>();

/** A union's members, unions among them spread, each resolved (cached). */
export function membersOf(union: Shape & { kind: "union" }, revision: Types): Resolved[] {
  let cache = unionMembers.get(revision);
  if (!cache) unionMembers.set(revision, (cache = new WeakMap()));
  let members = cache.get(union);
  if (!members) {
    members = union.members.flatMap((m) => {
      const r = resolve(m, revision);
      return r.shape.kind === "union" ? membersOf(r.shape, revision) : [r];
    });
    cache.set(union, members);
  }
  return members;
}

export interface Resolved {
  shape: Shape;
  /** The last type name on the way (for union members and hooks). */
  name?: string;
}

/** Per revision, per shape object: what resolve() found. Shapes are immutable data, so this never goes stale. */
const resolved = new WeakMap<Types, WeakMap<Shape, Resolved>>();

/** Follows references; an intersection of object types becomes one object. */
export function resolve(shape: Shape, revision: Types): Resolved {
  let cache = resolved.get(revision);
  if (!cache) resolved.set(revision, (cache = new WeakMap()));
  let found = cache.get(shape);
  if (!found) cache.set(shape, (found = resolveUncached(shape, revision)));
  return found;
}

function resolveUncached(shape: Shape, revision: Types, seen = 0): Resolved {
  let name: string | undefined;
  let current = shape;
  while (current.kind === "reference" && seen++ < 64) {
    name = current.name;
    current = revision.types[current.name] ?? ANY;
  }
  if (current.kind === "intersection") {
    const parts = current.members.map((m) => resolve(m, revision).shape);
    if (parts.every((p) => p.kind === "object")) {
      const properties: ShapeProperty[] = [];
      let indexSignature: Shape | undefined;
      for (const part of parts as (Shape & { kind: "object" })[]) {
        for (const p of part.properties) if (!properties.some((q) => q.name === p.name)) properties.push(p);
        indexSignature ??= part.indexSignature;
      }
      current = { kind: "object", properties, ...(indexSignature ? { indexSignature } : {}) };
    }
  }
  return { shape: current, ...(name ? { name } : {}) };
}

export function isAny(shape: Shape): boolean {
  return shape.kind === "keyword" && (shape.keyword === "unknown" || shape.keyword === "any");
}

/** Whether a value is of a union member: by the generated check of a named type, else structurally. */
export function is(value: unknown, member: Resolved, revision: RevisionShapes): boolean {
  const check = member.name ? revision.checks[member.name] : undefined;
  return check ? test(check, value) : fits(value, member.shape, revision);
}

/** Whether a value already has a shape (structurally: for anonymous types; named ones go by their checks). */
export function fits(value: unknown, shape: Shape, revision: RevisionShapes, depth = 0): boolean {
  if (depth > 64) return true;
  const s = resolve(shape, revision).shape;
  switch (s.kind) {
    case "keyword":
      switch (s.keyword) {
        case "string":
        case "number":
        case "boolean":
          return typeof value === s.keyword;
        case "null":
          return value === null;
        case "object":
          return isObject(value);
        case "never":
        case "undefined":
          return false;
        default:
          return true;
      }
    case "literal":
      return value === s.value;
    case "union":
      for (const member of s.members) if (fits(value, member, revision, depth + 1)) return true;
      return false;
    case "intersection":
      for (const member of s.members) if (!fits(value, member, revision, depth + 1)) return false;
      return true;
    case "array":
      if (!Array.isArray(value)) return false;
      for (const item of value) if (!fits(item, s.element, revision, depth + 1)) return false;
      return true;
    case "tuple":
      if (!Array.isArray(value) || value.length !== s.elements.length) return false;
      for (let i = 0; i < s.elements.length; i++)
        if (!fits(value[i], s.elements[i]!, revision, depth + 1)) return false;
      return true;
    case "object": {
      if (!isObject(value)) return false;
      for (const p of s.properties) {
        const v = value[p.name];
        if (v === undefined ? !p.optional : !fits(v, p.type, revision, depth + 1)) return false;
      }
      if (!s.indexSignature) return true;
      for (const key of Object.keys(value))
        if (!declares(s, key) && !fits(value[key], s.indexSignature, revision, depth + 1)) return false;
      return true;
    }
    case "reference":
      return true;
  }
}

/** Whether the object shape declares a property `key`. */
function declares(shape: Shape & { kind: "object" }, key: string): boolean {
  for (const property of shape.properties) if (property.name === key) return true;
  return false;
}

/** One reference token of a JSON pointer. */
export function escape(key: string): string {
  return pointer([key]).slice(1);
}
