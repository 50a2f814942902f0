// The fields of two object types and the type of two type aliases, compared
// for the diff (diff.ts): fields added, removed, optional or not, their types,
// union members, index signatures, and the validation annotations at every
// place (constraints.ts). Recurses into inline objects and into references of
// different names; a type of the same name on both sides reports its own
// changes where it is declared.
import { printType } from "../emit/typescript.js";
import { objectView, type DeclarationIndex } from "../model/resolve.js";
import type { Constraints, Declaration, Property, TypeNode } from "../model/types.js";
import { flattenUnion, samePlace, sameShape, sameType } from "./compare-types.js";
import { aliasChain, annotationChanges, placeOf, placesOf, withAnnotations, type Annotations } from "./constraints.js";
import type { Add, DiffArea, FieldLocation } from "./entry.js";

/** Types are printed as TypeScript on one line, without their JSDoc. */
export const ts = (type: TypeNode) => printType(type, { docs: false }).replace(/\s+/g, " ").trim();

/** A type alias: its annotations, union members added or removed, or else the whole type changed. */
export function diffAlias(
  subject: string,
  da: Declaration & { kind: "alias" },
  ia: DeclarationIndex,
  db: Declaration & { kind: "alias" },
  ib: DeclarationIndex,
  add: Add,
): void {
  const location = { type: subject, fields: [] };
  // The alias's own annotations (`@maxLength` on `type ToolName = string`) are the type's: every use checks them.
  const [pa, pb] = placesOf(da.type, da.constraints, ia, db.type, db.constraints, ib);
  addAnnotationChanges(subject, "types", pa.annotations, pb.annotations, add, location);
  const [ta, tb] = [pa.type, pb.type];
  if (sameType(ta, ia, tb, ib)) return;
  if (unionMembersDiff(subject, "types", ta, ia, tb, ib, add, location, new Set([subject]))) return;
  const va = objectView(ta, ia);
  const vb = objectView(tb, ib);
  if (va && vb && ta.kind !== "reference" && tb.kind !== "reference") {
    diffObject(ta, ia, tb, ib, subject, "fields", add, new Set([subject]), location);
    return;
  }
  add({ area: "types", change: "changed", subject, aspect: "type", from: ts(ta), to: ts(tb), ...insideOnly(ta, tb) });
}

/** Constraint entries: annotations added, removed or changed at one place. */
function addAnnotationChanges(
  subject: string,
  area: DiffArea,
  a: Annotations,
  b: Annotations,
  add: Add,
  location: FieldLocation,
): void {
  for (const { change, from, to } of annotationChanges(a, b)) {
    add({
      area,
      change,
      subject,
      aspect: "constraint",
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      location,
    });
  }
}

/** A type change that the printed types do not show: the annotations of a place inside it differ. */
const insideOnly = (ta: TypeNode, tb: TypeNode) =>
  ts(ta) === ts(tb) ? { note: "constraints inside the type differ" } : {};

/**
 * A field added or removed, printed as TypeScript with its own annotations
 * (`@nullable` folded in); those of an alias it names are the alias's.
 */
function fieldText(p: Property, index: DeclarationIndex): string {
  const aliases = new Set(aliasChain(p.type, index).map(([name]) => name));
  const place = placeOf(p.type, p.constraints, index, aliases);
  return withAnnotations(ts(place.type), place.annotations);
}

/**
 * Both sides unions (or one a single member): report members added and
 * removed instead of the whole type. False when that does not describe it.
 */
function unionMembersDiff(
  subject: string,
  area: DiffArea,
  ta: TypeNode,
  ia: DeclarationIndex,
  tb: TypeNode,
  ib: DeclarationIndex,
  add: Add,
  location: FieldLocation,
  visiting: Set<string>,
): boolean {
  // A union spelled through an alias (content: ContentBlock) is compared member by member.
  const ma = flattenUnion(ta, ia);
  const mb = flattenUnion(tb, ib);
  if (ma.length < 2 && mb.length < 2) return false;
  // Members are matched by shape; a member whose constraints changed is the same member, changed inside.
  const removed = ma.filter((x) => !mb.some((y) => sameShape(x, ia, y, ib)));
  const added = mb.filter((y) => !ma.some((x) => sameShape(x, ia, y, ib)));
  // Worth listing when what stays is the bulk of it; otherwise it is a new type.
  const bothUnions = ma.length > 1 && mb.length > 1;
  if (removed.length + added.length >= Math.max(ma.length, mb.length) && !bothUnions) return false;
  for (const m of removed) add({ area, change: "removed", subject, aspect: "member", from: ts(m), location });
  for (const m of added) add({ area, change: "added", subject, aspect: "member", to: ts(m), location });
  for (const x of ma) {
    const y = mb.find((m) => sameShape(x, ia, m, ib));
    if (y && !samePlace(x, ia, y, ib)) diffFieldType(subject, area, x, ia, y, ib, add, visiting, location);
  }
  return true;
}

/** Fields of two object types, recursing into inline objects and into references of different names. */
export function diffObject(
  ta: TypeNode,
  ia: DeclarationIndex,
  tb: TypeNode,
  ib: DeclarationIndex,
  subject: string,
  area: DiffArea,
  add: Add,
  visiting: Set<string>,
  location: FieldLocation,
  /** For an interface: its name and ancestors on each side, to leave inherited changes to the base that declares them. */
  inherits?: {
    readonly owner: readonly [string, string];
    readonly ancestors: readonly [readonly string[], readonly string[]];
  },
): void {
  const va = objectView(ta, ia);
  const vb = objectView(tb, ib);
  if (!va || !vb) return;
  const pb = new Map(vb.properties.map((p) => [p.name, p]));
  const pa = new Map(va.properties.map((p) => [p.name, p]));
  const optional = (o: boolean) => (o ? "optional" : "required");
  const reportedByBase = (name: string) => {
    if (!inherits) return false;
    const p = pa.get(name);
    const q = pb.get(name);
    const [ownerA, ownerB] = inherits.owner;
    const [ancestorsA, ancestorsB] = inherits.ancestors;
    const baseA = p?.declaredIn && p.declaredIn !== ownerA ? p.declaredIn : undefined;
    const baseB = q?.declaredIn && q.declaredIn !== ownerB ? q.declaredIn : undefined;
    // Inherited from a base the type extends on both sides: the base reports the
    // change. A field gained or lost by a change of `extends` is the type's own.
    if (p && q) return baseA !== undefined && baseA === baseB;
    if (p) return baseA !== undefined && ancestorsB.includes(baseA);
    return baseB !== undefined && ancestorsA.includes(baseB);
  };
  const at = (field: string): FieldLocation => ({ type: location.type, fields: [...location.fields, field] });
  for (const p of va.properties) {
    if (reportedByBase(p.name)) continue;
    const q = pb.get(p.name);
    const path = `${subject}.${p.name}`;
    if (!q) {
      add({
        area,
        change: "removed",
        subject: path,
        aspect: optional(p.optional),
        from: fieldText(p, ia),
        location: at(p.name),
      });
      continue;
    }
    if (p.optional !== q.optional) {
      add({
        area,
        change: "changed",
        subject: path,
        aspect: "optional",
        from: optional(p.optional),
        to: optional(q.optional),
        location: at(p.name),
      });
    }
    diffFieldType(path, area, p.type, ia, q.type, ib, add, visiting, at(p.name), [p.constraints, q.constraints]);
  }
  for (const q of vb.properties) {
    if (pa.has(q.name) || reportedByBase(q.name)) continue;
    add({
      area,
      change: "added",
      subject: `${subject}.${q.name}`,
      aspect: optional(q.optional),
      to: fieldText(q, ib),
      location: at(q.name),
    });
  }
  const sa = va.indexSignature;
  const sb = vb.indexSignature;
  if (!sa !== !sb || (sa && sb && !sameShape(sa.type, ia, sb.type, ib))) {
    add({
      area,
      change: "changed",
      subject: `${subject}[key]`,
      aspect: "index signature",
      from: sa ? ts(sa.type) : "none",
      to: sb ? ts(sb.type) : "none",
      location: at("[key]"),
    });
  } else if (sa && sb && !samePlace(sa.type, ia, sb.type, ib)) {
    diffFieldType(`${subject}[key]`, area, sa.type, ia, sb.type, ib, add, visiting, at("[key]"));
  }
}

function diffFieldType(
  path: string,
  area: DiffArea,
  ta: TypeNode,
  ia: DeclarationIndex,
  tb: TypeNode,
  ib: DeclarationIndex,
  add: Add,
  visiting: Set<string>,
  location: FieldLocation,
  /** The property's own annotations on each side, when the place is a property. */
  own: [Constraints | undefined, Constraints | undefined] = [undefined, undefined],
): void {
  const [pa, pb] = placesOf(ta, own[0], ia, tb, own[1], ib);
  addAnnotationChanges(path, area, pa.annotations, pb.annotations, add, location);
  [ta, tb] = [pa.type, pb.type];
  if (sameType(ta, ia, tb, ib)) return;
  // A capability declared as a bare `object` that gained sub-capabilities (or lost
  // them): list the sub-capabilities rather than the whole type.
  const bare = (t: TypeNode) => t.kind === "keyword" && t.keyword === "object";
  const declared = bare(ta) ? objectView(tb, ib) : objectView(ta, ia);
  if (area === "capabilities" && bare(ta) !== bare(tb) && declared && declared.properties.length > 0) {
    const none: TypeNode = { kind: "object", properties: [] };
    diffObject(bare(ta) ? none : ta, ia, bare(tb) ? none : tb, ib, path, area, add, visiting, location);
    return;
  }
  // Two object types of which at least one is written inline (params: {...} became
  // params: CallToolRequestParams): compare their fields rather than their names.
  const objects = objectView(ta, ia) && objectView(tb, ib);
  const sameName = ta.kind === "reference" && tb.kind === "reference" && ta.name === tb.name;
  if (objects && !sameName) {
    const names = [ta, tb].flatMap((t) => (t.kind === "reference" ? [t.name] : []));
    if (names.some((n) => visiting.has(n))) return;
    diffObject(ta, ia, tb, ib, path, area, add, new Set([...visiting, ...names]), location);
    return;
  }
  if (ta.kind === "array" && tb.kind === "array") {
    diffFieldType(`${path}[]`, area, ta.element, ia, tb.element, ib, add, visiting, {
      type: location.type,
      fields: [...location.fields, "[]"],
    });
    return;
  }
  if (unionMembersDiff(path, area, ta, ia, tb, ib, add, location, visiting)) return;
  add({
    area,
    change: "changed",
    subject: path,
    aspect: "type",
    from: ts(ta),
    to: ts(tb),
    ...insideOnly(ta, tb),
    location,
  });
}
