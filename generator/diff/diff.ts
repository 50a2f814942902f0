// The difference between two revision models, as a flat list of entries. Pure.
// The renderers (./format.ts) and the shim generator read it; `mcpgen diff`
// prints it. Entries are sorted by id (code unit order), so the JSON form is
// stable. When two types are the same, and which type was renamed, is
// compare-types.ts's.
import { printType } from "../emit/typescript.js";
import { byCodeUnit } from "../model/order.js";
import { indexDeclarations, objectView, type DeclarationIndex } from "../model/resolve.js";
import { flattenUnion, guessRenames, ref, sameType } from "./compare-types.js";
import type { Declaration, MethodModel, RevisionModel, TypeNode } from "../model/types.js";

export type DiffArea = "envelope" | "methods" | "capabilities" | "constants" | "types" | "fields";

export interface DiffEntry {
  area: DiffArea;
  change: "added" | "removed" | "renamed" | "changed";
  /** What the entry is about: a type, "Type.field.sub", a method, "client.roots.listChanged", a constant. */
  subject: string;
  /** For "changed" and for union members: which aspect ("optional", "type", "member", "direction", "value", ...). */
  aspect?: string;
  /** The old value (removed entries, changed entries), printed: TypeScript for types. */
  from?: string;
  /** The new value (added entries, changed entries). */
  to?: string;
  /** A rename is inferred from similar fields: a guess, and said to be one. */
  guess?: boolean;
  note?: string;
  /** For fields, capabilities and union members: the type and the field path (names, "[]" for array items). Not part of the JSON form. */
  location?: FieldLocation;
  /** Stable identity: area, subject, aspect, change and the member or value for union members. */
  id: string;
}

export interface FieldLocation {
  type: string;
  fields: string[];
}

export interface RevisionDiff {
  from: string;
  to: string;
  entries: DiffEntry[];
}

/** Types are printed as TypeScript on one line, without their JSDoc. */
const ts = (type: TypeNode) => printType(type, { docs: false }).replace(/\s+/g, " ").trim();

export function diffRevisions(a: RevisionModel, b: RevisionModel): RevisionDiff {
  const entries: DiffEntry[] = [];
  const add = (entry: Omit<DiffEntry, "id">) => entries.push({ ...entry, id: idOf(entry) });
  const ia = indexDeclarations(a.declarations);
  const ib = indexDeclarations(b.declarations);

  diffEnvelope(a, b, add);
  diffMethods(a, b, add);
  diffConstants(a, b, add);
  diffCapabilities(ia, ib, add);
  diffTypes(a, ia, b, ib, add);
  diffGuesses(a, b, add);

  entries.sort((x, y) => byCodeUnit(x.id, y.id));
  return { from: a.revision, to: b.revision, entries };
}

function idOf(entry: Omit<DiffEntry, "id">): string {
  const member = entry.aspect === "member" ? `:${entry.to ?? entry.from}` : "";
  return `${entry.area}:${entry.subject}:${entry.aspect ?? ""}:${entry.change}${member}`;
}

type Add = (entry: Omit<DiffEntry, "id">) => void;

// --- envelope ---------------------------------------------------------------

function diffEnvelope(a: RevisionModel, b: RevisionModel, add: Add): void {
  const facts: [string, string | boolean | undefined, string | boolean | undefined][] = [
    ["protocolVersion", a.facts.protocolVersion, b.facts.protocolVersion],
    ["jsonrpcVersion", a.facts.jsonrpcVersion, b.facts.jsonrpcVersion],
    ["batching", a.facts.batching, b.facts.batching],
    ["lifecycle", a.facts.lifecycle, b.facts.lifecycle],
    ["inputRequests", a.facts.inputRequests, b.facts.inputRequests],
    ["request", a.facts.envelope.request, b.facts.envelope.request],
    ["notification", a.facts.envelope.notification, b.facts.envelope.notification],
    ["resultResponse", a.facts.envelope.resultResponse, b.facts.envelope.resultResponse],
    ["errorResponse", a.facts.envelope.errorResponse, b.facts.envelope.errorResponse],
    ["errorIdRequired", a.facts.envelope.errorIdRequired, b.facts.envelope.errorIdRequired],
  ];
  for (const [aspect, from, to] of facts) {
    if (from === to) continue;
    add({
      area: "envelope",
      change: "changed",
      subject: "JSON-RPC",
      aspect,
      from: String(from ?? "none"),
      to: String(to ?? "none"),
    });
  }
}

// --- guesses ----------------------------------------------------------------

/**
 * What the model builder assumed for one side and not the other (an overlay
 * entry applied or left out on a guess, for a revision the lock does not pin):
 * said in the diff, as a guess, so that no difference it causes passes for the
 * spec's.
 */
function diffGuesses(a: RevisionModel, b: RevisionModel, add: Add): void {
  const key = (g: { entry: string; subject: string }) => `${g.entry} ${g.subject}`;
  const [ga, gb] = [a.guesses ?? [], b.guesses ?? []];
  const sides = [
    [ga, new Set(gb.map(key)), "removed"],
    [gb, new Set(ga.map(key)), "added"],
  ] as const;
  for (const [guesses, other, change] of sides)
    for (const g of guesses) {
      if (other.has(key(g))) continue;
      const text = `a guess, ${g.entry}: ${g.note}`;
      add({
        area: g.about === "method" ? "methods" : "envelope",
        change,
        subject: g.about === "method" ? g.subject : `JSON-RPC ${g.subject}`,
        aspect: "guess",
        ...(change === "added" ? { to: text } : { from: text }),
        guess: true,
      });
    }
}

// --- methods ----------------------------------------------------------------

function methodSummary(m: MethodModel): string {
  return `${m.kind}, ${m.direction}${m.inputRequest ? ", inside InputRequiredResult" : ""}`;
}

function diffMethods(a: RevisionModel, b: RevisionModel, add: Add): void {
  const mb = new Map(b.methods.map((m) => [m.name, m]));
  const ma = new Map(a.methods.map((m) => [m.name, m]));
  for (const m of a.methods)
    if (!mb.has(m.name)) add({ area: "methods", change: "removed", subject: m.name, from: methodSummary(m) });
  for (const m of b.methods)
    if (!ma.has(m.name)) add({ area: "methods", change: "added", subject: m.name, to: methodSummary(m) });
  for (const m of a.methods) {
    const n = mb.get(m.name);
    if (!n) continue;
    const aspects: [string, string, string][] = [
      ["kind", m.kind, n.kind],
      ["direction", m.direction, n.direction],
      ["inputRequest", String(m.inputRequest), String(n.inputRequest)],
      ["params", paramsOf(m, a, n, b), paramsOf(n, b, m, a)],
      ["result", m.result ? ts(m.result.type) : "none", n.result ? ts(n.result.type) : "none"],
      ["capability", capability(m), capability(n)],
    ];
    for (const [aspect, from, to] of aspects) {
      if (from !== to) add({ area: "methods", change: "changed", subject: m.name, aspect, from, to });
    }
  }
}

/**
 * A method's params as the diff compares them: whether they are required, and
 * their type only when it is not an object on both sides (the fields of object
 * params are compared where they are declared, so params: {...} becoming
 * params: CallToolRequestParams is not a change by itself).
 */
function paramsOf(m: MethodModel, model: RevisionModel, other: MethodModel, otherModel: RevisionModel): string {
  if (!m.params) return "none";
  const required = m.params.required ? "required" : "optional";
  const objects =
    other.params &&
    objectView(m.params.type, indexDeclarations(model.declarations)) &&
    objectView(other.params.type, indexDeclarations(otherModel.declarations));
  return objects ? `${required} object` : `${required} ${ts(m.params.type)}`;
}

function capability(m: MethodModel): string {
  return m.capability ? `${m.capability.holder}:${m.capability.path.join(".")}` : "none";
}

// --- constants --------------------------------------------------------------

function diffConstants(a: RevisionModel, b: RevisionModel, add: Add): void {
  const cb = new Map(b.constants.map((c) => [c.name, c]));
  const ca = new Map(a.constants.map((c) => [c.name, c]));
  const show = (v: string | number | boolean) => JSON.stringify(v);
  for (const c of a.constants) {
    const n = cb.get(c.name);
    if (!n) add({ area: "constants", change: "removed", subject: c.name, from: show(c.value) });
    else if (n.value !== c.value) {
      const renumbered = typeof c.value === "number" && typeof n.value === "number";
      add({
        area: "constants",
        change: "changed",
        subject: c.name,
        aspect: "value",
        from: show(c.value),
        to: show(n.value),
        ...(renumbered ? { note: "renumbered" } : {}),
      });
    }
  }
  for (const c of b.constants)
    if (!ca.has(c.name)) add({ area: "constants", change: "added", subject: c.name, to: show(c.value) });
}

// --- capabilities -----------------------------------------------------------

const capabilityTypes = [
  ["client", "ClientCapabilities"],
  ["server", "ServerCapabilities"],
] as const;

function diffCapabilities(ia: DeclarationIndex, ib: DeclarationIndex, add: Add): void {
  for (const [side, type] of capabilityTypes) {
    if (!ia.has(type) || !ib.has(type)) continue;
    diffObject(ref(type), ia, ref(type), ib, side, "capabilities", add, new Set(), { type, fields: [] });
  }
}

// --- types and fields -------------------------------------------------------

function diffTypes(a: RevisionModel, ia: DeclarationIndex, b: RevisionModel, ib: DeclarationIndex, add: Add): void {
  const removed = a.declarations.filter((d) => !ib.has(d.name));
  const added = b.declarations.filter((d) => !ia.has(d.name));
  const renames = guessRenames(removed, ia, added, ib);
  for (const d of removed) {
    const rename = renames.get(d.name);
    if (rename)
      add({
        area: "types",
        change: "renamed",
        subject: d.name,
        from: d.name,
        to: rename.to,
        guess: true,
        note: rename.note,
      });
    else add({ area: "types", change: "removed", subject: d.name, from: d.kind });
  }
  const renamedTo = new Set([...renames.values()].map((r) => r.to));
  for (const d of added)
    if (!renamedTo.has(d.name)) add({ area: "types", change: "added", subject: d.name, to: d.kind });

  for (const da of a.declarations) {
    const db = ib.get(da.name);
    if (!db || capabilityTypes.some(([, name]) => name === da.name)) continue;
    if (da.kind !== db.kind) {
      add({ area: "types", change: "changed", subject: da.name, aspect: "kind", from: da.kind, to: db.kind });
      continue;
    }
    if (da.kind === "interface" && db.kind === "interface") {
      const from = extendsOf(da);
      const to = extendsOf(db);
      if (from !== to) add({ area: "types", change: "changed", subject: da.name, aspect: "extends", from, to });
      diffObject(
        ref(da.name),
        ia,
        ref(db.name),
        ib,
        da.name,
        "fields",
        add,
        new Set([da.name]),
        { type: da.name, fields: [] },
        {
          owner: [da.name, db.name],
          ancestors: [da.resolved.ancestors, db.resolved.ancestors],
        },
      );
    } else if (da.kind === "alias" && db.kind === "alias") {
      diffAlias(da.name, da.type, ia, db.type, ib, add);
    }
  }
}

function extendsOf(d: Declaration & { kind: "interface" }): string {
  if (d.extends.length === 0) return "none";
  return d.extends
    .map((h) => (h.omit.length > 0 ? `Omit<${h.name}, ${h.omit.map((k) => JSON.stringify(k)).join(" | ")}>` : h.name))
    .join(", ");
}

/** A type alias: union members added or removed, or else the whole type changed. */
function diffAlias(
  subject: string,
  ta: TypeNode,
  ia: DeclarationIndex,
  tb: TypeNode,
  ib: DeclarationIndex,
  add: Add,
): void {
  if (sameType(ta, ia, tb, ib)) return;
  const location = { type: subject, fields: [] };
  if (unionMembersDiff(subject, "types", ta, ia, tb, ib, add, location)) return;
  const va = objectView(ta, ia);
  const vb = objectView(tb, ib);
  if (va && vb && ta.kind !== "reference" && tb.kind !== "reference") {
    diffObject(ta, ia, tb, ib, subject, "fields", add, new Set([subject]), location);
    return;
  }
  add({ area: "types", change: "changed", subject, aspect: "type", from: ts(ta), to: ts(tb) });
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
): boolean {
  // A union spelled through an alias (content: ContentBlock) is compared member by member.
  const ma = flattenUnion(ta, ia);
  const mb = flattenUnion(tb, ib);
  if (ma.length < 2 && mb.length < 2) return false;
  const removed = ma.filter((x) => !mb.some((y) => sameType(x, ia, y, ib)));
  const added = mb.filter((y) => !ma.some((x) => sameType(x, ia, y, ib)));
  // Worth listing when what stays is the bulk of it; otherwise it is a new type.
  const bothUnions = ma.length > 1 && mb.length > 1;
  if (removed.length + added.length >= Math.max(ma.length, mb.length) && !bothUnions) return false;
  for (const m of removed) add({ area, change: "removed", subject, aspect: "member", from: ts(m), location });
  for (const m of added) add({ area, change: "added", subject, aspect: "member", to: ts(m), location });
  return true;
}

/** Fields of two object types, recursing into inline objects and into references of different names. */
function diffObject(
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
  inherits?: { owner: [string, string]; ancestors: [readonly string[], readonly string[]] },
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
        from: ts(p.type),
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
    diffFieldType(path, area, p.type, ia, q.type, ib, add, visiting, at(p.name));
  }
  for (const q of vb.properties) {
    if (pa.has(q.name) || reportedByBase(q.name)) continue;
    add({
      area,
      change: "added",
      subject: `${subject}.${q.name}`,
      aspect: optional(q.optional),
      to: ts(q.type),
      location: at(q.name),
    });
  }
  const sa = va.indexSignature;
  const sb = vb.indexSignature;
  if (!sa !== !sb || (sa && sb && !sameType(sa.type, ia, sb.type, ib))) {
    add({
      area,
      change: "changed",
      subject: `${subject}[key]`,
      aspect: "index signature",
      from: sa ? ts(sa.type) : "none",
      to: sb ? ts(sb.type) : "none",
      location: at("[key]"),
    });
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
): void {
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
  if (unionMembersDiff(path, area, ta, ia, tb, ib, add, location)) return;
  add({ area, change: "changed", subject: path, aspect: "type", from: ts(ta), to: ts(tb), location });
}
