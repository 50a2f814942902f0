// How the types of two revision models compare, for the diff (diff.ts):
// structural equality across the two models (validation annotations
// included, or not: sameType, sameShape), a union's members through
// aliases, and the guess that a removed type was renamed to an added one with
// (nearly) the same fields.
import { byCodeUnit } from "../model/order.js";
import { objectView, type DeclarationIndex } from "../model/resolve.js";
import type { Constraints, Declaration, TypeNode } from "../model/types.js";
import { placesOf, sameAnnotations } from "./constraints.js";

/** A reference to a declared type. */
export const ref = (name: string): TypeNode => ({ kind: "reference", name });

/**
 * Structural equality of two types in their models, as a validator sees them:
 * same-named references are equal (the named type reports its own
 * differences); a reference equals an inline type it expands to; docs and
 * locations do not count; the annotations of every place inside (properties,
 * array items, members) do. The annotations of the place the two types are
 * at are the caller's (./constraints.ts placesOf).
 */
export function sameType(ta: TypeNode, ia: DeclarationIndex, tb: TypeNode, ib: DeclarationIndex): boolean {
  return compare(ta, ia, tb, ib, 0, true);
}

/** sameType without annotations: the same shape, whatever the constraints on it (for matching members and renames). */
export function sameShape(ta: TypeNode, ia: DeclarationIndex, tb: TypeNode, ib: DeclarationIndex): boolean {
  return compare(ta, ia, tb, ib, 0, false);
}

/**
 * sameType at a place that is not a property (a union member, an index
 * signature's values): the annotations of the aliases either side goes
 * through count too, those both go through excepted.
 */
export function samePlace(ta: TypeNode, ia: DeclarationIndex, tb: TypeNode, ib: DeclarationIndex): boolean {
  return comparePlaces(ta, undefined, ia, tb, undefined, ib, 0);
}

function comparePlaces(
  ta: TypeNode,
  ca: Constraints | undefined,
  ia: DeclarationIndex,
  tb: TypeNode,
  cb: Constraints | undefined,
  ib: DeclarationIndex,
  depth: number,
): boolean {
  const [pa, pb] = placesOf(ta, ca, ia, tb, cb, ib);
  return sameAnnotations(pa.annotations, pb.annotations) && compare(pa.type, ia, pb.type, ib, depth, true);
}

function compare(
  ta: TypeNode,
  ia: DeclarationIndex,
  tb: TypeNode,
  ib: DeclarationIndex,
  depth: number,
  strict: boolean,
): boolean {
  if (depth > 8) return true;
  if (ta.kind === "reference" && tb.kind === "reference" && ta.name === tb.name) return true;
  const same = (x: TypeNode, y: TypeNode, cx?: Constraints, cy?: Constraints) =>
    strict ? comparePlaces(x, cx, ia, y, cy, ib, depth + 1) : compare(x, ia, y, ib, depth + 1, false);
  if (ta.kind === "reference" || tb.kind === "reference") {
    const ea = ta.kind === "reference" ? expand(ta.name, ia) : ta;
    const eb = tb.kind === "reference" ? expand(tb.name, ib) : tb;
    if (!ea || !eb) return false;
    if (ta.kind === "reference" && tb.kind === "reference") return false; // different names
    return compare(ea, ia, eb, ib, depth + 1, strict);
  }
  switch (ta.kind) {
    case "keyword":
      return tb.kind === "keyword" && ta.keyword === tb.keyword;
    case "literal":
      return tb.kind === "literal" && ta.value === tb.value;
    case "array":
      return tb.kind === "array" && same(ta.element, tb.element);
    case "tuple":
      return (
        tb.kind === "tuple" &&
        ta.elements.length === tb.elements.length &&
        ta.elements.every((e, i) => same(e, tb.elements[i]!))
      );
    case "union":
    case "intersection":
      return (
        tb.kind === ta.kind &&
        ta.members.length === tb.members.length &&
        ta.members.every((m) => tb.members.some((n) => same(m, n))) &&
        tb.members.every((n) => ta.members.some((m) => same(m, n)))
      );
    case "object": {
      if (tb.kind !== "object" || ta.properties.length !== tb.properties.length) return false;
      const properties = ta.properties.every((p) => {
        const q = tb.properties.find((x) => x.name === p.name);
        return q !== undefined && q.optional === p.optional && same(p.type, q.type, p.constraints, q.constraints);
      });
      const sa = ta.indexSignature;
      const sb = tb.indexSignature;
      return properties && !sa === !sb && (!sa || !sb || same(sa.type, sb.type));
    }
  }
}

/** Two declarations of one name that accept the same values, whichever their kinds. */
export function sameDeclaration(da: Declaration, ia: DeclarationIndex, db: Declaration, ib: DeclarationIndex): boolean {
  const own = (d: Declaration) => (d.kind === "alias" ? d.constraints : undefined);
  const [ea, eb] = [expand(da.name, ia), expand(db.name, ib)];
  return ea !== undefined && eb !== undefined && comparePlaces(ea, own(da), ia, eb, own(db), ib, 0);
}

/** The type a name stands for: an alias's type, an interface's resolved fields as an object. */
function expand(name: string, index: DeclarationIndex): TypeNode | undefined {
  const d = index.get(name);
  if (!d) return undefined;
  if (d.kind === "alias") return d.type;
  return {
    kind: "object",
    properties: d.resolved.properties,
    ...(d.resolved.indexSignature ? { indexSignature: d.resolved.indexSignature } : {}),
  };
}

/** The members of a union, through aliases of unions; a single member for anything else. */
export function flattenUnion(type: TypeNode, index: DeclarationIndex, depth = 0): TypeNode[] {
  if (depth > 8) return [type];
  if (type.kind === "reference") {
    const d = index.get(type.name);
    return d?.kind === "alias" && d.type.kind === "union" ? flattenUnion(d.type, index, depth + 1) : [type];
  }
  return type.kind === "union" ? type.members.flatMap((m) => flattenUnion(m, index, depth + 1)) : [type];
}

/**
 * Removed and added types whose fields have the same names and types (or
 * nearly: three quarters of the union of both): renamed, probably. Field types
 * count, so requests that share only id/jsonrpc/method/params are not matched.
 */
export function guessRenames(
  removed: readonly Declaration[],
  ia: DeclarationIndex,
  added: readonly Declaration[],
  ib: DeclarationIndex,
): Map<string, { to: string; note: string }> {
  const candidates: { from: string; to: string; score: number; shared: string[] }[] = [];
  for (const r of removed) {
    const fr = objectView(ref(r.name), ia)?.properties ?? [];
    if (fr.length < 2) continue;
    for (const n of added) {
      const fn = objectView(ref(n.name), ib)?.properties ?? [];
      // A field with the same name and type counts 1; only its optionality changed, 1/2.
      let matched = 0;
      const shared: string[] = [];
      for (const p of fr) {
        const q = fn.find((x) => x.name === p.name && sameShape(p.type, ia, x.type, ib));
        if (!q) continue;
        matched += q.optional === p.optional ? 1 : 0.5;
        shared.push(p.name);
      }
      const score = matched / new Set([...fr, ...fn].map((p) => p.name)).size;
      if (score >= 0.75) candidates.push({ from: r.name, to: n.name, score, shared });
    }
  }
  candidates.sort((x, y) => y.score - x.score || byCodeUnit(x.from, y.from) || byCodeUnit(x.to, y.to));
  const out = new Map<string, { to: string; note: string }>();
  const taken = new Set<string>();
  for (const c of candidates) {
    if (out.has(c.from) || taken.has(c.to)) continue;
    const how = c.score === 1 ? "same fields" : `${Math.round(c.score * 100)}% alike, fields`;
    out.set(c.from, { to: c.to, note: `${how}: ${c.shared.sort(byCodeUnit).join(", ")}` });
    taken.add(c.to);
  }
  return out;
}
