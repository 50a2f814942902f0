// How the types of two revision models compare, for the diff (diff.ts):
// structural equality across the two models, a union's members through
// aliases, and the guess that a removed type was renamed to an added one with
// (nearly) the same fields.
import { byCodeUnit } from "../model/order.js";
import { objectView, type DeclarationIndex } from "../model/resolve.js";
import type { Declaration, TypeNode } from "../model/types.js";

/** A reference to a declared type. */
export const ref = (name: string): TypeNode => ({ kind: "reference", name });

/**
 * Structural equality of two types in their models: same-named references are
 * equal (the named type reports its own differences); a reference equals an
 * inline type it expands to; docs and locations do not count.
 */
export function sameType(ta: TypeNode, ia: DeclarationIndex, tb: TypeNode, ib: DeclarationIndex, depth = 0): boolean {
  if (depth > 8) return true;
  if (ta.kind === "reference" && tb.kind === "reference" && ta.name === tb.name) return true;
  if (ta.kind === "reference" || tb.kind === "reference") {
    const ea = ta.kind === "reference" ? expand(ta.name, ia) : ta;
    const eb = tb.kind === "reference" ? expand(tb.name, ib) : tb;
    if (!ea || !eb) return false;
    if (ta.kind === "reference" && tb.kind === "reference") return false; // different names
    return sameType(ea, ia, eb, ib, depth + 1);
  }
  switch (ta.kind) {
    case "keyword":
      return tb.kind === "keyword" && ta.keyword === tb.keyword;
    case "literal":
      return tb.kind === "literal" && ta.value === tb.value;
    case "array":
      return tb.kind === "array" && sameType(ta.element, ia, tb.element, ib, depth + 1);
    case "tuple":
      return (
        tb.kind === "tuple" &&
        ta.elements.length === tb.elements.length &&
        ta.elements.every((e, i) => sameType(e, ia, tb.elements[i]!, ib, depth + 1))
      );
    case "union":
    case "intersection":
      return (
        tb.kind === ta.kind &&
        ta.members.length === tb.members.length &&
        ta.members.every((m) => tb.members.some((n) => sameType(m, ia, n, ib, depth + 1))) &&
        tb.members.every((n) => ta.members.some((m) => sameType(m, ia, n, ib, depth + 1)))
      );
    case "object": {
      if (tb.kind !== "object" || ta.properties.length !== tb.properties.length) return false;
      const same = ta.properties.every((p) => {
        const q = tb.properties.find((x) => x.name === p.name);
        return q !== undefined && q.optional === p.optional && sameType(p.type, ia, q.type, ib, depth + 1);
      });
      const sa = ta.indexSignature;
      const sb = tb.indexSignature;
      return same && !sa === !sb && (!sa || !sb || sameType(sa.type, ia, sb.type, ib, depth + 1));
    }
  }
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
        const q = fn.find((x) => x.name === p.name && sameType(p.type, ia, x.type, ib));
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
