// The walk: one value converted along a source shape and a target shape,
// within one step (see runtime/shims.ts for what it drops, fills and maps).
import {
  DROP,
  ShimError,
  type DefaultValue,
  type FieldShape,
  type MemberRule,
  type RevisionShapes,
  type Shape,
  type ShimChange,
  type ShimTables,
  type StepPlan,
} from "./shim-data.js";
import { ANY, escape, fieldsOf, fits, is, isAny, membersOf, resolve, type Resolved } from "./shim-shapes.js";
import { isObject } from "./validation.js";

/** One value's walk along a source shape and a target shape, within one step. */
export class Walk {
  constructor(
    private readonly tables: ShimTables,
    private readonly plan: StepPlan,
    private readonly source: RevisionShapes,
    private readonly target: RevisionShapes,
    private readonly changes: ShimChange[],
    /** Pointer of the converted value within the message ("/params", "/result"). */
    private readonly base: string,
  ) {}

  /** The plan's default for a field the target requires and the value lacks; a ShimError when there is none. */
  defaulted(key: string, at: string): unknown {
    const fallback = this.plan.defaults[key];
    if (!fallback)
      throw new ShimError(
        `${key} is required in ${this.plan.to} and the ${this.plan.from} value has none`,
        this.plan.from,
        this.plan.to,
        this.base + at,
      );
    if ("refuse" in fallback) throw new ShimError(fallback.refuse, this.plan.from, this.plan.to, this.base + at);
    const value = this.materialize(fallback);
    this.change("defaulted", `${key} is required in ${this.plan.to}: set to ${JSON.stringify(value)}`, at);
    return value;
  }

  /** Converts a message's params or result. */
  convertField(value: unknown, from: FieldShape | undefined, to: FieldShape | undefined): unknown {
    return this.convert(value, from?.shape ?? ANY, to?.shape ?? ANY, "", to?.field ?? "");
  }

  /**
   * Converts a value of shape `from` (source) to shape `to` (target). `field`
   * is the target field key the value is for, which narrowing rules go by.
   */
  convert(value: unknown, from: Shape, to: Shape, at: string, field = ""): unknown {
    const source = this.resolve(from, this.source);
    const target = this.resolve(to, this.target);
    if (source.shape.kind === "union" && target.shape.kind !== "union") {
      // A union reaching a single type: as a union conversion whose target has one member.
      return this.union(value, source, [target], at, field);
    }
    let current = value;
    for (const hook of source.name ? (this.plan.hooks[source.name] ?? []) : [])
      current = this.rule(hook, current, at, source.name);
    const narrowing = field ? this.plan.narrowing[field] : undefined;
    if (narrowing) {
      const fitsAlready = fits(current, target.shape, this.target);
      if (!fitsAlready) return this.memberRule(narrowing, field, current, at);
    }
    if (isAny(target.shape)) return current;
    switch (target.shape.kind) {
      case "union":
        return this.union(current, source, this.members(target.shape, this.target), at, field);
      case "object":
        return this.object(current, source.shape, target.shape, at, field);
      case "array":
        return this.array(current, source.shape, target.shape, at, field);
      default:
        return this.leaf(current, source, target, at);
    }
  }

  private union(
    value: unknown,
    source: Resolved,
    targetMembers: readonly Resolved[],
    at: string,
    field: string,
  ): unknown {
    const sourceMembers = source.shape.kind === "union" ? this.members(source.shape, this.source) : [source];
    const member = memberOf(sourceMembers, value, this.source) ?? sourceMembers[0]!;
    // The same member by name (or renamed), else a member that takes the value as it is.
    const name = member.name && (this.plan.renames[member.name] ?? member.name);
    const counterpart = (name ? named(targetMembers, name) : undefined) ?? memberOf(targetMembers, value, this.target);
    if (counterpart) return this.convert(value, byName(member), byName(counterpart), at, field);
    const key = member.name ?? JSON.stringify(value);
    return this.memberRule(this.plan.members[key], key, value, at);
  }

  private object(value: unknown, from: Shape, to: Shape & { kind: "object" }, at: string, field: string): unknown {
    if (!isObject(value)) return value;
    const fromShape = this.objectShape(from, this.source);
    const fromFields = fieldsOf(fromShape);
    const toFields = fieldsOf(to);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const targetField = toFields.get(key);
      const sourceField = fromFields.get(key);
      const child = `${at}/${escape(key)}`;
      if (targetField) {
        const converted = this.convert(
          value[key],
          sourceField?.type ?? fromShape?.indexSignature ?? ANY,
          targetField.type,
          child,
          `${targetField.owner}.${key}`,
        );
        if (converted !== DROP) out[key] = converted;
      } else if (sourceField && !(to.indexSignature && this.plan.kept?.includes(`${sourceField.owner}.${key}`))) {
        this.change("dropped", `${sourceField.owner}.${key} does not exist in ${this.plan.to}`, child);
      } else if (to.indexSignature) {
        // Not declared by the target: an index-signature entry (or a field the plan keeps, e.g.
        // 2025-11-25's Tool.outputSchema.type under 2026-07-28's open schema object).
        const converted = this.convert(
          value[key],
          sourceField?.type ?? fromShape?.indexSignature ?? ANY,
          to.indexSignature,
          child,
          `${field}[key]`,
        );
        if (converted !== DROP) out[key] = converted;
      } else {
        out[key] = value[key]; // an extension: interfaces are open
      }
    }
    for (const field of to.properties) {
      if (field.optional || out[field.name] !== undefined) continue;
      out[field.name] = this.defaulted(`${field.owner}.${field.name}`, `${at}/${escape(field.name)}`);
    }
    return out;
  }

  private array(value: unknown, from: Shape, to: Shape & { kind: "array" }, at: string, field: string): unknown {
    if (!Array.isArray(value)) return value;
    const fromShape = this.resolve(from, this.source).shape;
    const element = fromShape.kind === "array" ? fromShape.element : ANY;
    const out: unknown[] = [];
    for (const item of value) {
      const converted = this.convert(item, element, to.element, `${at}/${out.length}`, `${field}[]`);
      if (converted !== DROP) out.push(converted);
    }
    return out;
  }

  private leaf(value: unknown, source: Resolved, target: Resolved, at: string): unknown {
    if (fits(value, target.shape, this.target)) return value;
    const key = typeof value === "object" ? (source.name ?? "value") : JSON.stringify(value);
    return this.memberRule(this.plan.members[key], key, value, at);
  }

  private memberRule(rule: MemberRule | undefined, key: string, value: unknown, at: string): unknown {
    if (!rule)
      throw new ShimError(`${key} has no counterpart in ${this.plan.to}`, this.plan.from, this.plan.to, this.base + at);
    if ("refuse" in rule) throw new ShimError(rule.refuse, this.plan.from, this.plan.to, this.base + at);
    return this.rule(rule.rule, value, at);
  }

  private rule(name: string, value: unknown, at: string, type?: string): unknown {
    const rule = this.tables.rules[name];
    if (!rule) throw new Error(`mcpgen: the shim rule ${name} is not in runtime/shim-rules.ts`);
    return rule(value, {
      from: this.source,
      to: this.target,
      ...(type ? { type } : {}),
      path: this.base + at,
      change: (change, detail, below = "") => this.change(change, detail, at + below),
    });
  }

  private change(change: ShimChange["change"], detail: string, at: string): void {
    this.changes.push({ path: this.base + at, change, detail });
  }

  private materialize(value: DefaultValue): unknown {
    if ("value" in value) return JSON.parse(JSON.stringify(value.value)); // defaults are JSON values
    if ("context" in value) return this.target.protocolVersion;
    if ("refuse" in value) throw new ShimError(value.refuse, this.plan.from, this.plan.to, this.base);
    return Object.fromEntries(Object.entries(value.object).map(([k, v]) => [k, this.materialize(v)]));
  }

  private resolve(shape: Shape, revision: RevisionShapes): Resolved {
    return resolve(shape, revision);
  }

  private members(union: Shape & { kind: "union" }, revision: RevisionShapes): Resolved[] {
    return membersOf(union, revision);
  }

  private objectShape(shape: Shape, revision: RevisionShapes): (Shape & { kind: "object" }) | undefined {
    const r = resolve(shape, revision).shape;
    return r.kind === "object" ? r : undefined;
  }
}

/** The first of `members` that `value` is. */
function memberOf(members: readonly Resolved[], value: unknown, revision: RevisionShapes): Resolved | undefined {
  for (const member of members) if (is(value, member, revision)) return member;
  return undefined;
}

/** The member named `name`. */
function named(members: readonly Resolved[], name: string): Resolved | undefined {
  for (const member of members) if (member.name === name) return member;
  return undefined;
}

/** A member's shape, by name where it has one, so that hooks on the member's type run. */
function byName(member: Resolved): Shape {
  return member.name ? { kind: "reference", name: member.name } : member.shape;
}
