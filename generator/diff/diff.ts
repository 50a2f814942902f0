// The difference between two revision models, as a flat list of entries. Pure.
// The renderers (./format.ts) and the shim generator read it; `mcpgen diff`
// prints it. Entries are sorted by id (code unit order), so the JSON form is
// stable. When two types are the same, and which type was renamed, is
// compare-types.ts's; how the fields of two types and two aliases differ,
// fields.ts's; which validation annotations apply where, constraints.ts's.
// An entry is a change of what a validator accepts (or of a fact of the
// protocol): docs, comments, formatting and declaration order make none.
import { byCodeUnit } from "../model/order.js";
import { indexDeclarations, objectView, type DeclarationIndex } from "../model/resolve.js";
import { guessRenames, ref, sameDeclaration } from "./compare-types.js";
import type { Add, DiffEntry, RevisionDiff } from "./entry.js";
import { diffAlias, diffObject, ts } from "./fields.js";
import type { Declaration, MethodModel, RevisionModel } from "../model/types.js";

export type { DiffArea, DiffEntry, FieldLocation, RevisionDiff } from "./entry.js";

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
  const value = entry.to ?? entry.from ?? "";
  // A constraint's value is its annotation, "@maxLength 128": the keyword identifies it.
  const which =
    entry.aspect === "member" ? `:${value}` : entry.aspect === "constraint" ? `:${value.split(" ")[0]!.slice(1)}` : "";
  return `${entry.area}:${entry.subject}:${entry.aspect ?? ""}:${entry.change}${which}`;
}

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
    ["beforeInitialized", beforeInitialized(a), beforeInitialized(b)],
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

/** What each side may send before the handshake completes (basic/lifecycle#initialization): the router enforces it. */
function beforeInitialized(m: RevisionModel): string | undefined {
  const lists = m.facts.beforeInitialized;
  const list = (methods: readonly string[]) => (methods.length > 0 ? methods.join(", ") : "none");
  return lists && `client: ${list(lists.client)}; server: ${list(lists.server)}`;
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
  // Error codes the prose names and the schema has no constant for (resource not found): the
  // server answers with them, so a renumbering is a change a peer sees.
  const codesA = a.facts.errorCodes ?? {};
  const codesB = b.facts.errorCodes ?? {};
  for (const condition of [...new Set([...Object.keys(codesA), ...Object.keys(codesB)])]) {
    const [from, to] = [codesA[condition], codesB[condition]];
    if (from === to) continue;
    const values = {
      ...(from !== undefined ? { from: String(from) } : {}),
      ...(to !== undefined ? { to: String(to) } : {}),
    };
    const change = from === undefined ? "added" : to === undefined ? "removed" : "changed";
    add({
      area: "constants",
      change,
      subject: condition,
      aspect: "error code",
      ...values,
      ...(change === "changed" ? { note: "renumbered" } : {}),
    });
  }
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
      // An interface spelled as an alias of the same object type (or back) accepts the same values: no change.
      if (sameDeclaration(da, ia, db, ib)) continue;
      // Still an object type either way (and no alias annotation on it): what changed is its fields, one by one.
      const [va, vb] = [objectView(ref(da.name), ia), objectView(ref(db.name), ib)];
      const annotated = [da, db].some((d) => d.kind === "alias" && d.constraints !== undefined);
      if (va && vb && !annotated) {
        const location = { type: da.name, fields: [] };
        const inherits = { owner: [da.name, db.name], ancestors: [va.ancestors, vb.ancestors] } as const;
        diffObject(ref(da.name), ia, ref(db.name), ib, da.name, "fields", add, new Set([da.name]), location, inherits);
        continue;
      }
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
      diffAlias(da.name, da, ia, db, ib, add);
    }
  }
}

function extendsOf(d: Declaration & { kind: "interface" }): string {
  if (d.extends.length === 0) return "none";
  return d.extends
    .map((h) => (h.omit.length > 0 ? `Omit<${h.name}, ${h.omit.map((k) => JSON.stringify(k)).join(" | ")}>` : h.name))
    .join(", ");
}
