// Whether every value of one type is a value of another: a conservative
// structural check on the model, used to tell a type change the converter can
// pass through (widening) from one that needs a rule (narrowing).
import { objectView, type DeclarationIndex } from "../model/resolve.js";
import type { TypeNode } from "../model/types.js";

const ANY: TypeNode = { kind: "keyword", keyword: "unknown" };

/** True only when every JSON value of `source` (in its model) is a value of `target` (in its). */
export function accepts(
  target: TypeNode,
  ti: DeclarationIndex,
  source: TypeNode,
  si: DeclarationIndex,
  depth = 0,
): boolean {
  if (depth > 12) return true;
  const t = expand(target, ti);
  const s = expand(source, si);
  if (target.kind === "reference" && source.kind === "reference" && target.name === source.name) return true;
  if (isAny(t) || acceptsAllJson(t, ti)) return true;
  if (isAny(s)) return false;
  if (s.kind === "union") return s.members.every((m) => accepts(target, ti, m, si, depth + 1));
  if (t.kind === "union") return t.members.some((m) => accepts(m, ti, source, si, depth + 1));
  switch (t.kind) {
    case "keyword":
      if (s.kind === "keyword") return s.keyword === t.keyword;
      if (s.kind === "literal") return typeof s.value === t.keyword;
      return t.keyword === "object" && objectView(s, si) !== undefined;
    case "literal":
      return s.kind === "literal" && s.value === t.value;
    case "array":
      return s.kind === "array" && accepts(t.element, ti, s.element, si, depth + 1);
    case "object": {
      const sv = objectView(s, si) ?? (s.kind === "keyword" && s.keyword === "object" ? { properties: [] } : undefined);
      if (!sv) return false;
      for (const p of t.properties) {
        const q = sv.properties.find((x) => x.name === p.name);
        if (!q) {
          if (!p.optional) return false;
          continue;
        }
        if (!p.optional && q.optional) return false;
        if (!accepts(p.type, ti, q.type, si, depth + 1)) return false;
      }
      const index = t.indexSignature?.type;
      if (index && !isAny(index)) {
        // Source fields the target does not declare land in its index signature.
        const extra = sv.properties.filter((q) => !t.properties.some((p) => p.name === q.name));
        if (!extra.every((q) => accepts(index, ti, q.type, si, depth + 1))) return false;
        const sourceIndex = "indexSignature" in sv ? sv.indexSignature : undefined;
        if (sourceIndex && !accepts(index, ti, sourceIndex.type, si, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** References resolved to what they stand for (an interface as an object of its resolved fields). */
function expand(type: TypeNode, index: DeclarationIndex, seen = 0): TypeNode {
  if (type.kind !== "reference" || seen > 16) return type;
  const d = index.get(type.name);
  if (!d) return ANY;
  if (d.kind === "alias") return expand(d.type, index, seen + 1);
  return {
    kind: "object",
    properties: d.resolved.properties,
    ...(d.resolved.indexSignature ? { indexSignature: d.resolved.indexSignature } : {}),
  };
}

function isAny(type: TypeNode): boolean {
  return type.kind === "keyword" && (type.keyword === "unknown" || type.keyword === "any");
}

/**
 * A type every JSON value belongs to, like JSONValue = string | number |
 * boolean | null | JSONObject | JSONArray whose objects and arrays hold such
 * values again (assumed after a few levels: the type is recursive).
 */
function acceptsAllJson(type: TypeNode, index: DeclarationIndex, depth = 0): boolean {
  if (isAny(type)) return true;
  if (depth > 3) return true;
  if (type.kind !== "union") return false;
  const members = type.members.map((m) => expand(m, index));
  const all = (t: TypeNode) => acceptsAllJson(expand(t, index), index, depth + 1);
  const has = (keyword: string) => members.some((m) => m.kind === "keyword" && m.keyword === keyword);
  const anyObject = members.some(
    (m) =>
      m.kind === "object" && m.properties.length === 0 && m.indexSignature !== undefined && all(m.indexSignature.type),
  );
  const anyArray = members.some((m) => m.kind === "array" && all(m.element));
  return has("string") && has("number") && has("boolean") && has("null") && anyObject && anyArray;
}
