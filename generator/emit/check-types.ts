// What a check reads of a type through its aliases (generated/<rev>/checks.ts,
// checks-file.ts): whether it is simple enough to test inline (string,
// "a" | "b", string | null, an alias of those) and the test; a union's members
// with aliased unions spread in; a tagged union's discriminant; the one JSON
// kind its values have; whether null passes.
import { objectView, type DeclarationIndex } from "../model/resolve.js";
import type { TypeNode } from "../model/types.js";

/** A simple type tested inline: `invalid(x)` is the JS condition true when x does not conform. */
export interface InlineTest {
  invalid: ((value: string) => string) | null; // null: anything conforms
  keyword: string;
  message: string;
}

export type Literal = string | number | boolean;

export class CheckTypes {
  constructor(
    private readonly index: DeclarationIndex,
    /** The name of a runtime helper in the file being emitted (imported on first use). */
    private readonly runtime: (name: string) => string,
  ) {}

  /** Members of a union, with members that are aliases of unions spread in. */
  flattenUnion(type: TypeNode & { kind: "union" }, seen = new Set<string>()): TypeNode[] {
    return type.members.flatMap((member) => {
      if (member.kind === "reference" && !seen.has(member.name)) {
        const declaration = this.index.get(member.name);
        if (declaration?.kind === "alias" && declaration.type.kind === "union" && !declaration.constraints) {
          seen.add(member.name);
          return this.flattenUnion(declaration.type, seen);
        }
      }
      return [member];
    });
  }

  /**
   * A property every member requires with literal values no two members share
   * (`type` of content blocks): then the value picks the one member to check,
   * which is equivalent to trying each.
   */
  discriminant(members: readonly TypeNode[]): { property: string; values: Literal[][] } | undefined {
    const shapes = members.map((m) => objectView(m, this.index));
    if (members.length < 2 || shapes.some((s) => s === undefined)) return undefined;
    for (const candidate of shapes[0]!.properties) {
      const values = shapes.map((shape) => {
        const property = shape!.properties.find((p) => p.name === candidate.name);
        return property && !property.optional ? this.literals(property.type) : undefined;
      });
      if (values.some((v) => v === undefined)) continue;
      const all = values.flat() as Literal[];
      if (new Set(all).size === all.length) return { property: candidate.name, values: values as Literal[][] };
    }
    return undefined;
  }

  /** The literal values of a literal or a union of literals (through aliases), else undefined. */
  private literals(type: TypeNode): Literal[] | undefined {
    if (type.kind === "literal") return [type.value];
    if (type.kind === "union") {
      const parts = type.members.map((m) => this.literals(m));
      return parts.every((p) => p !== undefined) ? (parts.flat() as Literal[]) : undefined;
    }
    if (type.kind === "reference") {
      const declaration = this.index.get(type.name);
      return declaration?.kind === "alias" && !declaration.constraints ? this.literals(declaration.type) : undefined;
    }
    return undefined;
  }

  /** The JSON type of every value a type admits, when it is a single one. */
  jsonKind(type: TypeNode): "object" | "array" | undefined {
    if (type.kind === "object" || (type.kind === "keyword" && type.keyword === "object")) return "object";
    if (type.kind === "array" || type.kind === "tuple") return "array";
    if (type.kind === "reference") {
      const declaration = this.index.get(type.name);
      if (declaration?.kind === "interface") return "object";
      if (declaration?.kind === "alias") return this.jsonKind(declaration.type);
    }
    if (type.kind === "intersection") return this.jsonKind(type.members[0]!);
    return undefined;
  }

  /** The inline test of a simple type, or undefined when the type needs a function. */
  inlineTest(type: TypeNode, seen = new Set<string>()): InlineTest | undefined {
    switch (type.kind) {
      case "keyword":
        switch (type.keyword) {
          case "any":
          case "unknown":
            return { invalid: null, keyword: "", message: "" };
          case "string":
          case "number":
          case "boolean":
            return {
              invalid: (x) => `typeof ${x} !== "${type.keyword}"`,
              keyword: "type",
              message: `must be ${type.keyword}`,
            };
          case "null":
            return { invalid: (x) => `${x} !== null`, keyword: "type", message: "must be null" };
          case "object":
            return {
              invalid: (x) => `!${this.runtime("isObject")}(${x})`,
              keyword: "type",
              message: "must be an object",
            };
          case "never":
          case "undefined":
            // A value that is present at all is wrong.
            return { invalid: () => "true", keyword: "not", message: "must not be present" };
        }
        break;
      case "literal":
        return {
          invalid: (x) => `${x} !== ${literal(type.value)}`,
          keyword: "const",
          message: `must be ${literal(type.value)}`,
        };
      case "reference": {
        const declaration = this.index.get(type.name);
        if (declaration?.kind !== "alias" || declaration.constraints || seen.has(type.name)) return undefined;
        return this.inlineTest(declaration.type, new Set([...seen, type.name]));
      }
      case "union":
        return this.inlineUnionTest(type, seen);
    }
    return undefined;
  }

  /** A union of JSON primitive types and literals: one combined test. */
  private inlineUnionTest(type: TypeNode & { kind: "union" }, seen: Set<string>): InlineTest | undefined {
    const kinds = new Set<string>();
    const literals: Literal[] = [];
    const members = this.flattenUnion(type);
    for (const member of members) {
      if (member.kind === "literal") literals.push(member.value);
      else if (member.kind === "keyword") {
        if (member.keyword === "any" || member.keyword === "unknown")
          return { invalid: null, keyword: "", message: "" };
        if (!["string", "number", "boolean", "null", "object"].includes(member.keyword)) return undefined;
        kinds.add(member.keyword);
      } else {
        const nested = member.kind === "reference" ? this.literalsOrKinds(member, seen) : undefined;
        if (!nested) return undefined;
        nested.literals.forEach((l) => literals.push(l));
        nested.kinds.forEach((k) => kinds.add(k));
      }
    }
    const kept = literals.filter((l) => !kinds.has(typeof l));
    const orderedKinds = [...kinds]; // as the schema lists them: "number or null" for `number | null`
    const accept = (x: string) => [
      ...orderedKinds.map((k) =>
        k === "null"
          ? `${x} === null`
          : k === "object"
            ? `${this.runtime("isObject")}(${x})`
            : `typeof ${x} === "${k}"`,
      ),
      ...kept.map((l) => `${x} === ${literal(l)}`),
    ];
    if (orderedKinds.length === 0) {
      return {
        invalid: (x) => kept.map((l) => `${x} !== ${literal(l)}`).join(" && "),
        keyword: "enum",
        message: `must be one of ${kept.map(literal).join(", ")}`,
      };
    }
    const described = [...orderedKinds.map((k) => (k === "object" ? "an object" : k)), ...kept.map(literal)].join(
      " or ",
    );
    return { invalid: (x) => `!(${accept(x).join(" || ")})`, keyword: "type", message: `must be ${described}` };
  }

  /** For an alias of primitives and literals: its kinds and literals. */
  private literalsOrKinds(
    type: TypeNode & { kind: "reference" },
    seen: Set<string>,
  ): { kinds: string[]; literals: Literal[] } | undefined {
    const declaration = this.index.get(type.name);
    if (declaration?.kind !== "alias" || declaration.constraints || seen.has(type.name)) return undefined;
    const inner = declaration.type;
    const members = inner.kind === "union" ? this.flattenUnion(inner) : [inner];
    const kinds: string[] = [];
    const literals: Literal[] = [];
    for (const member of members) {
      if (member.kind === "literal") literals.push(member.value);
      else if (member.kind === "keyword" && ["string", "number", "boolean", "null", "object"].includes(member.keyword))
        kinds.push(member.keyword);
      else if (member.kind === "reference") {
        const nested = this.literalsOrKinds(member, new Set([...seen, type.name]));
        if (!nested) return undefined;
        kinds.push(...nested.kinds);
        literals.push(...nested.literals);
      } else return undefined;
    }
    return { kinds, literals };
  }

  /** Whether no JSON value has the type (`never`, `undefined`, or an alias of them): a property of it must be absent. */
  mustBeAbsent(type: TypeNode, seen = new Set<string>()): boolean {
    if (type.kind === "keyword") return type.keyword === "never" || type.keyword === "undefined";
    if (type.kind !== "reference" || seen.has(type.name)) return false;
    const declaration = this.index.get(type.name);
    return declaration?.kind === "alias" && this.mustBeAbsent(declaration.type, new Set([...seen, type.name]));
  }

  admitsNull(type: TypeNode): boolean {
    if (type.kind === "keyword") return ["null", "any", "unknown"].includes(type.keyword);
    if (type.kind === "union") return type.members.some((m) => this.admitsNull(m));
    if (type.kind === "reference") {
      const declaration = this.index.get(type.name);
      return declaration?.kind === "alias" && this.admitsNull(declaration.type);
    }
    return false;
  }
}

/** A literal value as JavaScript source. */
export function literal(value: Literal): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
