// The plan of one adjacent step, in both directions, from the two revisions'
// diff and the reviewed shim overlay (generator/overlay/shims.ts). Every diff
// entry must be covered in each direction: by a generic rule of the converter
// (a field the target lacks is dropped, one it adds as optional is left out,
// a widening type passes through, ...), by a derived default (a literal, an
// empty array, an object of derivable fields), or by an overlay entry. What is
// covered by none is reported; for pinned revisions it stops generation.
import type { DefaultValue, MemberRule, StepPlan } from "mcpgen/runtime/codegen";
import { printType } from "../emit/typescript.js";
import type { DiffEntry, FieldLocation, RevisionDiff } from "../diff/diff.js";
import { compareRevisions } from "../model/revision-order.js";
import { codesChange, covers, entryFor, type Between, type ShimOverlay, type Step, type StepPair } from "./entries.js";
import { indexDeclarations, objectView, type DeclarationIndex } from "../model/resolve.js";
import type { RevisionModel, TypeNode } from "../model/types.js";
import { accepts } from "./accepts.js";

export type { Between, ShimOverlay } from "./entries.js";

export type Direction = "upgrade" | "downgrade";

/** How one diff entry is handled in one direction. */
export interface Coverage {
  id: string;
  direction: Direction;
  by: "generic" | "derived" | "overlay";
  how: string;
}

export interface Uncovered {
  id: string;
  direction: Direction;
  reason: string;
}

/** An overlay entry written for another pair of revisions, used for a step with an unpinned revision. */
export interface Borrowed {
  /** "defaults:Result.resultType", "members:AudioContent", ... */
  entry: string;
  direction: Direction;
  between: Between;
}

export interface PlannedStep {
  upgrade: StepPlan;
  downgrade: StepPlan;
  coverage: Coverage[];
  uncovered: Uncovered[];
  /** Overlay entries this step consulted ("defaults:Result.resultType", "members:AudioContent", ...). */
  used: Set<string>;
  /** Entries used on a guess: this step has a revision the lock does not pin. Each is a warning. */
  borrowed: Borrowed[];
}

export function planStep(
  older: RevisionModel,
  newer: RevisionModel,
  diff: RevisionDiff,
  overlay: ShimOverlay,
): PlannedStep {
  const used = new Set<string>();
  const coverage: Coverage[] = [];
  const uncovered: Uncovered[] = [];
  const borrowed: Borrowed[] = [];
  const plans = {
    upgrade: emptyPlan(older.revision, newer.revision),
    downgrade: emptyPlan(newer.revision, older.revision),
  };
  const pair: StepPair = {
    older: older.revision,
    newer: newer.revision,
    pinned: older.source.locked && newer.source.locked,
    facts: [older.facts, newer.facts],
  };
  for (const direction of ["upgrade", "downgrade"] as const) {
    const [source, target] = direction === "upgrade" ? [older, newer] : [newer, older];
    const lend = (entry: string, between: Between) => {
      if (!borrowed.some((b) => b.entry === entry && b.direction === direction))
        borrowed.push({ entry, direction, between });
    };
    const planner = new Planner(source, target, plans[direction], overlay, used, { ...pair, direction, lend });
    for (const entry of diff.entries) {
      const result = planner.cover(direction === "upgrade" ? entry : invert(entry));
      if ("reason" in result) uncovered.push({ id: entry.id, direction, reason: result.reason });
      else coverage.push({ id: entry.id, direction, ...result });
    }
    planner.finish();
  }
  return { ...plans, coverage, uncovered, used, borrowed };
}

function emptyPlan(from: string, to: string): StepPlan {
  return { from, to, defaults: {}, members: {}, narrowing: {}, hooks: {}, errorCodes: {}, renames: {} };
}

/** An entry as seen in the other direction: added ↔ removed, from ↔ to. */
function invert(entry: DiffEntry): DiffEntry {
  const change = entry.change === "added" ? "removed" : entry.change === "removed" ? "added" : entry.change;
  const inverted: DiffEntry = { ...entry, change };
  if (entry.from !== undefined) inverted.to = entry.from;
  else delete inverted.to;
  if (entry.to !== undefined) inverted.from = entry.to;
  else delete inverted.from;
  if (entry.change === "renamed") {
    inverted.subject = entry.to!;
    inverted.from = entry.to!;
    inverted.to = entry.from!;
  }
  return inverted;
}

type Result = { by: Coverage["by"]; how: string } | { reason: string };

const generic = (how: string): Result => ({ by: "generic", how });

class Planner {
  private readonly si: DeclarationIndex;
  private readonly ti: DeclarationIndex;
  private readonly content: Set<string>;

  constructor(
    source: RevisionModel,
    private readonly target: RevisionModel,
    private readonly plan: StepPlan,
    private readonly overlay: ShimOverlay,
    private readonly used: Set<string>,
    private readonly step: Step,
  ) {
    this.si = indexDeclarations(source.declarations);
    this.ti = indexDeclarations(target.declarations);
    this.content = new Set([...contentTypes(source, this.si), ...contentTypes(target, this.ti)]);
    this.sourceMethods = new Map(source.methods.map((m) => [m.name, m]));
    this.messageTypes = new Set([...source.methods, ...target.methods].map((m) => m.type));
  }

  private readonly messageTypes: Set<string>;
  private readonly sourceMethods: Map<string, RevisionModel["methods"][number]>;

  cover(e: DiffEntry): Result {
    // A constraint (@maxLength, @pattern, ...) bounds values without changing their shape: nothing
    // to convert, and no rule could make a value fit (truncating a name changes what it names).
    if (e.aspect === "constraint")
      return generic("copied: a constraint changes no shape; the target's validator judges the value");
    switch (e.area) {
      case "envelope":
        return generic(
          `${e.aspect}: not message content; convert() works on single messages with each revision's envelope`,
        );
      case "constants":
        return generic("constants are not message content; an error code stays a number every revision accepts");
      case "methods":
        return this.method(e);
      case "types":
        return this.type(e);
      case "fields":
      case "capabilities":
        return this.field(e);
    }
  }

  /** Hooks and error codes do not answer to diff entries: they apply wherever they are declared. */
  finish(): void {
    const hooks: Record<string, string[]> = {};
    for (const hook of this.overlay.hooks) {
      if (!this.si.has(hook.type)) continue;
      (hooks[hook.type] ??= []).push(hook.rule);
      this.used.add(`hooks:${hook.type}:${hook.rule}`);
    }
    const errorCodes: Record<string, Record<string, number>> = {};
    for (const rule of this.overlay.errorCodes) {
      if (this.step.direction !== "upgrade" || !this.target.methods.some((m) => m.name === rule.method)) continue;
      if (!(this.step.pinned ? covers(this.step, rule.between) : codesChange(this.step, rule.code, rule.becomes)))
        continue;
      (errorCodes[rule.method] ??= {})[String(rule.code)] = rule.becomes;
      this.used.add(`errorCodes:${rule.method}:${rule.code}`);
    }
    Object.assign(this.plan, { hooks, errorCodes });
  }

  /** The overlay entry that answers `matches` for this step (see entries.ts). */
  private entry<T extends { between: Between }>(
    entries: readonly T[],
    matches: (e: T) => boolean,
    id: string,
  ): T | undefined {
    return entryFor(entries, matches, id, this.step);
  }

  private method(e: DiffEntry): Result {
    if (e.aspect === "guess") return generic("a guess of the model builder's, not message content");
    if (e.change === "added") return generic("a source message never has this method");
    if (e.change === "removed") return generic("not expressible: convert() throws ShimError naming the method");
    switch (e.aspect) {
      case "kind":
        return generic("a request where a notification is expected (or the reverse) is refused");
      case "inputRequest":
        return generic("params and results convert; a message form the target does not send is refused");
      case "result":
        return this.resultMembers(e.subject);
      case "params":
        return generic("converted field by field; the fields' own changes are entries of their own");
      default:
        return generic(`${e.aspect} does not change what a message carries`);
    }
  }

  private type(e: DiffEntry): Result {
    const name = e.change === "renamed" ? e.from! : e.subject;
    if (e.change === "renamed") {
      (this.plan.renames as Record<string, string>)[e.from!] = e.to!;
      return generic(`renamed: union members named ${e.from} are matched to ${e.to}`);
    }
    if (!this.content.has(name)) return generic("not part of any message's params or result");
    if (e.aspect === "member")
      return e.change === "removed" ? this.member(e) : generic("every source member is still a member");
    if (e.aspect === "type") return this.narrowing(e);
    return generic(
      `${e.change === "changed" ? e.aspect : e.change}: the converter follows each revision's resolved fields`,
    );
  }

  private field(e: DiffEntry): Result {
    const location = e.location!;
    if (!this.content.has(location.type)) return generic("not part of any message's params or result");
    if (this.messageTypes.has(location.type) && location.fields[0] !== "params") {
      return generic("a field of the message itself (jsonrpc, id, method): convert() keeps the message's own");
    }
    if (e.aspect === "member")
      return e.change === "removed" ? this.member(e) : generic("every source member is still a member");
    if (e.change === "removed") {
      // Going up, a field the newer revision no longer declares where its object became open
      // (2026-07-28's Tool.outputSchema: { $schema?; [key: string]: unknown }) is data that still fits: kept.
      // Going down, a newer revision's own fields are dropped for the older peer, index signature or not.
      const upgrade = compareRevisions(this.plan.from, this.plan.to) < 0;
      if (!upgrade || !this.indexSignatureInTarget(location))
        return generic("dropped: the target does not have the field");
      // Named as the converter looks fields up: by the declaring owner ("RequestParams._meta.progressToken"),
      // which is not always the diff's path ("ListRootsRequest.params._meta.progressToken").
      const key = fieldAt(this.si, location)?.key ?? e.subject;
      (this.plan as { kept?: string[] }).kept = [...(this.plan.kept ?? []), key].sort();
      return generic("kept: the target's index signature takes it");
    }
    if (e.change === "added") {
      if (e.aspect === "optional") return generic("left out: the field is optional in the target");
      return this.requiredInTarget(location);
    }
    if (e.aspect === "optional")
      return e.to === "required" ? this.requiredInTarget(location) : generic("optional in the target");
    if (e.aspect === "index signature") {
      if (e.to === "none") return generic("extra fields stay allowed: interfaces are open");
      return this.narrowing(e);
    }
    return this.narrowing(e);
  }

  /** Whether the object holding a field has an index signature in the target, where a field it no longer declares still fits. */
  private indexSignatureInTarget(location: FieldLocation): boolean {
    const holder: TypeNode | undefined =
      location.fields.length > 1
        ? fieldAt(this.ti, { ...location, fields: location.fields.slice(0, -1) })?.type
        : { kind: "reference", name: location.type };
    if (!holder) return false;
    return objectView(expandAlias(holder, this.ti), this.ti)?.indexSignature !== undefined;
  }

  /** A field the target requires that a source value may lack: a default must exist. */
  private requiredInTarget(location: FieldLocation): Result {
    const field = fieldAt(this.ti, location);
    if (!field)
      return { reason: `cannot find ${location.type}.${location.fields.join(".")} in ${this.target.revision}` };
    const value = this.defaultFor(field.key, field.type, new Set());
    if (!value)
      return {
        reason: `${field.key} is required in ${this.target.revision}; add a default (or a refusal) to generator/overlay/shims.ts`,
      };
    (this.plan.defaults as Record<string, DefaultValue>)[field.key] = value.value;
    return { by: value.by, how: `defaulted: ${field.key} = ${JSON.stringify(value.value)}` };
  }

  private defaultFor(
    key: string,
    type: TypeNode,
    seen: Set<string>,
  ): { value: DefaultValue; by: "derived" | "overlay" } | undefined {
    const declared = this.entry(this.overlay.defaults, (d) => d.field === key, `defaults:${key}`);
    if (declared) {
      this.used.add(`defaults:${key}`);
      return { value: declared.value, by: "overlay" };
    }
    const t = expandAlias(type, this.ti);
    if (t.kind === "literal") return { value: { value: t.value }, by: "derived" };
    if (t.kind === "array") return { value: { value: [] }, by: "derived" };
    const view = objectView(t, this.ti);
    if (!view || seen.has(key)) return undefined;
    const object: Record<string, DefaultValue> = {};
    let by: "derived" | "overlay" = "derived";
    for (const p of view.properties.filter((x) => !x.optional)) {
      const owner = p.declaredIn || key;
      const child = this.defaultFor(`${owner}.${p.name}`, p.type, new Set([...seen, key]));
      if (!child) return undefined;
      if (child.by === "overlay") by = "overlay";
      object[p.name] = child.value;
    }
    return { value: Object.keys(object).length === 0 ? { value: {} } : { object }, by };
  }

  /**
   * A method whose result type changed (tools/call: CallToolResult became
   * CallToolResult | InputRequiredResult): every source member the target's
   * result does not accept needs a member rule.
   */
  private resultMembers(method: string): Result {
    const source = this.sourceMethods.get(method)?.result?.type;
    const target = this.target.methods.find((m) => m.name === method)?.result?.type;
    if (!source || !target) return generic("converted field by field");
    const missing = flatMembers(source, this.si).filter((m) => !accepts(target, this.ti, m, this.si));
    const hows: string[] = [];
    for (const member of missing) {
      const name = oneLine(member);
      const rule = this.entry(this.overlay.members, (m) => m.member === name, `members:${name}`);
      if (!rule)
        return {
          reason: `${method} results may be ${name}, which has no counterpart in ${this.target.revision}; add a member rule (or a refusal) to generator/overlay/shims.ts`,
        };
      this.used.add(`members:${name}`);
      (this.plan.members as Record<string, MemberRule>)[name] = rule.rule;
      hows.push(`${name}: ${"rule" in rule.rule ? `rule ${rule.rule.rule}` : `refused: ${rule.rule.refuse}`}`);
    }
    return hows.length > 0
      ? { by: "overlay", how: hows.join("; ") }
      : generic("every source result is a target result; its fields are entries of their own");
  }

  /** A union member or literal the target lacks. */
  private member(e: DiffEntry): Result {
    const member = e.from!;
    const place = e.area === "types" ? { type: e.subject, fields: [] } : e.location!;
    const targetType = place.fields.length === 0 ? aliasType(this.ti, place.type) : fieldAt(this.ti, place)?.type;
    const sourceType = place.fields.length === 0 ? aliasType(this.si, place.type) : fieldAt(this.si, place)?.type;
    const sourceMember = sourceType && flatMembers(sourceType, this.si).find((m) => oneLine(m) === member);
    if (targetType && sourceMember && accepts(targetType, this.ti, sourceMember, this.si)) {
      return generic(`${member} is still accepted by another member of the target's type`);
    }
    const rule = this.entry(this.overlay.members, (m) => m.member === member, `members:${member}`);
    if (!rule)
      return {
        reason: `${member} has no counterpart in ${this.target.revision}; add a member rule (or a refusal) to generator/overlay/shims.ts`,
      };
    this.used.add(`members:${member}`);
    (this.plan.members as Record<string, MemberRule>)[member] = rule.rule;
    return {
      by: "overlay",
      how: `${member}: ${"rule" in rule.rule ? `rule ${rule.rule.rule}` : `refused: ${rule.rule.refuse}`}`,
    };
  }

  /** A type change: passes through when the target accepts every source value, else needs a rule. */
  private narrowing(e: DiffEntry): Result {
    const place = e.location ?? { type: e.subject, fields: [] };
    const fields = place.fields[place.fields.length - 1] === "[key]" ? place.fields.slice(0, -1) : place.fields;
    const index = fields !== place.fields;
    const at = { type: place.type, fields };
    const whole: TypeNode = { kind: "reference", name: at.type };
    const target = fields.length === 0 ? whole : fieldAt(this.ti, at)?.type;
    const source = fields.length === 0 ? whole : fieldAt(this.si, at)?.type;
    // An object without an index signature is still open: its extra fields may hold anything.
    const unknown: TypeNode = { kind: "keyword", keyword: "unknown" };
    const pick = (t: TypeNode | undefined, i: DeclarationIndex) =>
      index && t ? (objectView(t, i)?.indexSignature?.type ?? unknown) : t;
    const [tt, st] = [pick(target, this.ti), pick(source, this.si)];
    if (tt && st && accepts(tt, this.ti, st, this.si))
      return generic("widening: every source value fits the target type");
    const field = fields.length === 0 ? at.type : (fieldAt(this.ti, at)?.key ?? `${at.type}.${fields.join(".")}`);
    const key = index ? `${field}[key]` : field;
    const rule = this.entry(this.overlay.narrowing, (n) => n.field === key, `narrowing:${key}`);
    if (!rule)
      return {
        reason: `${key} narrows from ${e.from} to ${e.to}; add a narrowing rule (or a refusal) to generator/overlay/shims.ts`,
      };
    this.used.add(`narrowing:${key}`);
    (this.plan.narrowing as Record<string, MemberRule>)[key] = rule.rule;
    return {
      by: "overlay",
      how: `narrowing ${key}: ${"rule" in rule.rule ? `rule ${rule.rule.rule}` : `refused: ${rule.rule.refuse}`}`,
    };
  }
}

/** The field at a location: its type and its key ("Owner.field", as runtime/shims.ts owners go). */
export function fieldAt(index: DeclarationIndex, location: FieldLocation): { key: string; type: TypeNode } | undefined {
  let type: TypeNode = { kind: "reference", name: location.type };
  let owner = location.type;
  let key = location.type;
  for (const field of location.fields) {
    if (type.kind === "reference") {
      const d = index.get(type.name);
      if (d?.kind === "alias") {
        owner = type.name;
        type = d.type;
      }
    }
    if (field === "[]") {
      const t = expandAlias(type, index);
      if (t.kind !== "array") return undefined;
      type = t.element;
      owner = `${key}[]`;
      continue;
    }
    const view = objectView(type, index);
    const property = view?.properties.find((p) => p.name === field);
    if (!property) return undefined;
    const fieldOwner = property.declaredIn || owner;
    key = `${fieldOwner}.${field}`;
    owner = key;
    type = property.type;
  }
  return { key, type };
}

function aliasType(index: DeclarationIndex, name: string): TypeNode | undefined {
  const d = index.get(name);
  return d?.kind === "alias" ? d.type : undefined;
}

function expandAlias(type: TypeNode, index: DeclarationIndex): TypeNode {
  let t = type;
  for (let i = 0; i < 16 && t.kind === "reference"; i++) {
    const d = index.get(t.name);
    if (d?.kind !== "alias") break;
    t = d.type;
  }
  return t;
}

function flatMembers(type: TypeNode, index: DeclarationIndex): TypeNode[] {
  const t = type.kind === "array" ? type.element : type;
  if (t.kind !== "union") return [t];
  return t.members.flatMap((m) => {
    const d = m.kind === "reference" ? index.get(m.name) : undefined;
    return d?.kind === "alias" && d.type.kind === "union" ? flatMembers(d.type, index) : [m];
  });
}

const oneLine = (type: TypeNode) => printType(type, { docs: false }).replace(/\s+/g, " ").trim();

/** Every type a method's params or result can contain, by name. */
function contentTypes(model: RevisionModel, index: DeclarationIndex): Set<string> {
  const found = new Set<string>();
  const visit = (type: TypeNode): void => {
    switch (type.kind) {
      case "reference": {
        if (found.has(type.name)) return;
        found.add(type.name);
        const d = index.get(type.name);
        if (d?.kind === "alias") visit(d.type);
        if (d?.kind === "interface") {
          d.resolved.properties.forEach((p) => visit(p.type));
          if (d.resolved.indexSignature) visit(d.resolved.indexSignature.type);
        }
        return;
      }
      case "union":
      case "intersection":
        type.members.forEach(visit);
        return;
      case "array":
        visit(type.element);
        return;
      case "tuple":
        type.elements.forEach(visit);
        return;
      case "object":
        type.properties.forEach((p) => visit(p.type));
        if (type.indexSignature) visit(type.indexSignature.type);
        return;
      default:
        return;
    }
  };
  for (const m of model.methods) {
    if (m.params) visit(m.params.type);
    if (m.result) visit(m.result.type);
    found.add(m.type);
    if (m.params) visit({ kind: "reference", name: m.type });
  }
  return found;
}
