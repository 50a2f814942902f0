// The validation annotations that apply at one place of a type, as the diff
// and spec/surface/*.json compare them. A value at a property is checked
// against the property's own annotations and those of every alias its type
// goes through (generator/emit/checks-file.ts applies both), so both count;
// an alias both sides go through reports its own changes, once, where it is
// declared. `@nullable` is folded into the type (`T | null`), as the checks
// do, so that it reads as the type change it is and is no change at all on a
// type that already admits null.
import type { DeclarationIndex } from "../model/resolve.js";
import type { Constraints, TypeNode } from "../model/types.js";

/** The annotations of one place, by keyword, in a fixed order; each value printed as schema.ts spells it. */
export type Annotations = ReadonlyMap<string, string>;

type NumberKey = "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum";
type CountKey = "minLength" | "maxLength" | "minItems" | "maxItems";

/** Printing order, and for each bound which of two values is the tighter one when both apply. */
const bounds: readonly [NumberKey | CountKey, "lower" | "upper"][] = [
  ["minimum", "lower"],
  ["exclusiveMinimum", "lower"],
  ["maximum", "upper"],
  ["exclusiveMaximum", "upper"],
  ["minLength", "lower"],
  ["maxLength", "upper"],
  ["minItems", "lower"],
  ["maxItems", "upper"],
];

/** What a place's type is compared as: `@nullable` folded in, and the annotations left. */
export interface Place {
  type: TypeNode;
  annotations: Annotations;
}

/**
 * The place of a value of `type` that carries `own` annotations (a property's,
 * an alias's), together with the aliases `type` goes through. Aliases named in
 * `shared` are left out: the other side goes through them too.
 */
export function placeOf(
  type: TypeNode,
  own: Constraints | undefined,
  index: DeclarationIndex,
  shared: ReadonlySet<string> = new Set(),
): Place {
  const sources = [own, ...aliasChain(type, index).flatMap(([name, c]) => (shared.has(name) ? [] : [c]))];
  const merged = merge(sources.filter((c): c is Constraints => c !== undefined));
  const nullable = merged.nullable === true && !admitsNull(type, index);
  delete merged.nullable;
  const folded: TypeNode = nullable ? { kind: "union", members: [type, { kind: "keyword", keyword: "null" }] } : type;
  return { type: folded, annotations: annotationsOf(merged) };
}

/** The places of two sides' values, leaving out the aliases both go through. */
export function placesOf(
  ta: TypeNode,
  ca: Constraints | undefined,
  ia: DeclarationIndex,
  tb: TypeNode,
  cb: Constraints | undefined,
  ib: DeclarationIndex,
): [Place, Place] {
  const names = (t: TypeNode, i: DeclarationIndex) => new Set(aliasChain(t, i).map(([name]) => name));
  const na = names(ta, ia);
  const shared = new Set([...names(tb, ib)].filter((n) => na.has(n)));
  return [placeOf(ta, ca, ia, shared), placeOf(tb, cb, ib, shared)];
}

/** The aliases a type goes through before it reaches a type that is not a reference to an alias, with their annotations. */
export function aliasChain(type: TypeNode, index: DeclarationIndex): [string, Constraints | undefined][] {
  const chain: [string, Constraints | undefined][] = [];
  let t = type;
  while (t.kind === "reference" && chain.length < 16) {
    const name = t.name;
    const d = index.get(name);
    if (d?.kind !== "alias" || chain.some(([seen]) => seen === name)) break;
    chain.push([d.name, d.constraints]);
    t = d.type;
  }
  return chain;
}

/** Whether null is already a value of the type (then `@nullable` changes nothing). */
export function admitsNull(type: TypeNode, index: DeclarationIndex, depth = 0): boolean {
  if (depth > 16) return false;
  if (type.kind === "keyword") return ["null", "any", "unknown"].includes(type.keyword);
  if (type.kind === "union") return type.members.some((m) => admitsNull(m, index, depth + 1));
  if (type.kind === "reference") {
    const d = index.get(type.name);
    return d?.kind === "alias" && admitsNull(d.type, index, depth + 1);
  }
  return false;
}

/** Annotations that all apply at once, as one set: the tighter of two bounds, every pattern and format. */
function merge(all: readonly Constraints[]): Constraints {
  const out: Constraints = {};
  const patterns = new Set<string>();
  const formats = new Set<string>();
  for (const c of all) {
    if (c.integer) out.integer = true;
    if (c.nullable) out.nullable = true;
    if (c.pattern !== undefined) patterns.add(c.pattern);
    if (c.format !== undefined) formats.add(c.format);
    for (const [key, side] of bounds) {
      const value = c[key];
      if (value === undefined) continue;
      const kept = out[key];
      out[key] = kept === undefined ? value : side === "lower" ? Math.max(kept, value) : Math.min(kept, value);
    }
  }
  // Several patterns (or formats) all apply; printed together, sorted, so the set compares as one value.
  if (patterns.size > 0) out.pattern = [...patterns].sort().join(" and ");
  if (formats.size > 0) out.format = [...formats].sort().join(" and ");
  return out;
}

/** A constraint set as annotations, keyword → the tag as schema.ts writes it ("@maxLength 128"). */
export function annotationsOf(c: Constraints | undefined): Annotations {
  const out = new Map<string, string>();
  if (!c) return out;
  if (c.integer) out.set("integer", "@TJS-type integer");
  if (c.nullable) out.set("nullable", "@nullable");
  for (const [key] of bounds) if (c[key] !== undefined) out.set(key, `@${key} ${c[key]}`);
  if (c.pattern !== undefined) out.set("pattern", `@pattern ${c.pattern}`);
  if (c.format !== undefined) out.set("format", `@format ${c.format}`);
  return out;
}

export function sameAnnotations(a: Annotations, b: Annotations): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

export interface AnnotationChange {
  keyword: string;
  change: "added" | "removed" | "changed";
  from?: string;
  to?: string;
}

/** Annotations added, removed or changed from `a` to `b`. */
export function annotationChanges(a: Annotations, b: Annotations): AnnotationChange[] {
  const keys = [...a.keys(), ...[...b.keys()].filter((k) => !a.has(k))];
  return keys.flatMap((keyword): AnnotationChange[] => {
    const from = a.get(keyword);
    const to = b.get(keyword);
    if (from === to) return [];
    if (from === undefined) return [{ keyword, change: "added", to }];
    if (to === undefined) return [{ keyword, change: "removed", from }];
    return [{ keyword, change: "changed", from, to }];
  });
}

/** Annotations appended to a printed type: "string (@maxLength 128)". */
export function withAnnotations(printed: string, annotations: Annotations): string {
  return annotations.size === 0 ? printed : `${printed} (${[...annotations.values()].join(", ")})`;
}
