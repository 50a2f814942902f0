// generated/<rev>/checks.ts: one check function per schema type, plus one per
// anonymous type that needs its own (an inline object, an array, a union that
// is not a simple test). A check is (v, f) => boolean over plain JSON values;
// see runtime/validation.ts for the contract and the validation decisions.
//
// The emitted code is straight-line: typeof tests, property reads, a switch on
// the discriminant of a tagged union, a loop per array. Simple types (string,
// "a" | "b", string | null, an alias of those) are tested inline; everything
// else is a call; which types those are, and what else a check reads of a type
// through its aliases, is check-types.ts's.
//
// The functions themselves (their registry, imports and printing) are
// check-functions.ts's; which module each of a revision's functions is printed
// in, its own checks.ts or one it shares with other revisions, check-sharing.ts's.
import { indexDeclarations, type DeclarationIndex } from "../model/resolve.js";
import type { Constraints, Declaration, IndexSignature, Property, RevisionModel, TypeNode } from "../model/types.js";
import { CheckFunctions, membersCheckPrefix, type CheckCatalog } from "./check-functions.js";
import { CheckTypes, literal, type InlineTest, type Literal } from "./check-types.js";
import type { FileHeader, GeneratedFile } from "./printer.js";
import { printType } from "./typescript.js";

/** The check function of a schema type. */
export const checkName = (type: string): string => `c${type}`;

/** Property names a plain `object[name]` read would find on Object.prototype. */
const prototypeNames = new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__"]);

export class CheckEmitter {
  private readonly index: DeclarationIndex;
  private readonly functions: CheckFunctions;
  private readonly types: CheckTypes;
  /** Hint (where an anonymous type stands) → its function's name. */
  private readonly anonymous = new Map<string, string>();
  /** Interface → the function checking the members it declares (null: they take any value). */
  private readonly members = new Map<string, string | null>();

  constructor(
    private readonly model: Pick<RevisionModel, "declarations">,
    private readonly file: GeneratedFile,
    /**
     * For an extension: `model` holds its base revision's declarations too, the
     * extension emits only its own (`own`), and checks of the others are
     * imported from the base revision's checks module.
     */
    private readonly extension?: { readonly own: ReadonlySet<string>; readonly baseChecks: string },
  ) {
    this.index = indexDeclarations(model.declarations);
    this.functions = new CheckFunctions(file);
    this.types = new CheckTypes(this.index, (name) => this.runtime(name));
  }

  /** Emits the check of every declaration (an extension's own), and of every anonymous type they need. */
  emitDeclarations(): void {
    for (const declaration of this.model.declarations) {
      if (this.extension && !this.extension.own.has(declaration.name)) continue;
      this.functions.declare(checkName(declaration.name), declaration.name, () => this.declarationBody(declaration));
    }
  }

  /** The check of a declared type, imported from the base revision when an extension refers to one of its types. */
  private checkOf(type: string): string {
    if (this.extension && !this.extension.own.has(type))
      return this.file.importValue(this.extension.baseChecks, checkName(type));
    return this.functions.called(checkName(type));
  }

  /** Every function emitted so far, for check-sharing.ts to lay out (a revision's). */
  catalog(revision: string, header: FileHeader): CheckCatalog {
    return this.functions.catalog(revision, header);
  }

  /** Prints everything emitted so far into the file (an extension's). */
  flush(): void {
    this.functions.flush();
  }

  /**
   * The name of a function checking `type`. A reference is its declaration's
   * check; any other type gets a function named after `hint`, where it stands.
   */
  functionFor(type: TypeNode, hint: string): string {
    if (type.kind === "reference") return this.checkOf(type.name);
    const existing = this.anonymous.get(hint);
    if (existing) return this.functions.called(existing);
    let name = `c${hint.replace(/[^\w$]/g, "_")}`;
    for (let n = 2; this.functions.has(name) || this.index.has(name.slice(1)); n++)
      name = `c${hint.replace(/[^\w$]/g, "_")}_${n}`;
    this.anonymous.set(hint, name);
    this.functions.called(name);
    this.functions.declare(name, `${hint.replace(/\$/g, ".")}: ${abbreviate(printType(type))}`, () =>
      this.bodyFor(type, hint),
    );
    return name;
  }

  /** The function checking a property's type (without its constraints), as the owner's check calls it. */
  functionForProperty(property: Property & { declaredIn?: string }, owner: string): string {
    return this.functionFor(property.type, this.propertyHint(property, owner));
  }

  private propertyHint(property: Property & { declaredIn?: string }, owner: string): string {
    return `${property.declaredIn || owner}$${property.name}`;
  }

  private declarationBody(declaration: Declaration): string[] {
    if (declaration.kind === "interface") {
      const { properties, indexSignature } = declaration.resolved;
      return this.objectBody(properties, indexSignature, declaration.name);
    }
    if (!declaration.constraints) return this.bodyFor(declaration.type, declaration.name);
    return [
      ...this.statements(declaration.type, "v", null, `${declaration.name}$type`, declaration.constraints),
      "return true;",
    ];
  }

  /** The body of a function checking `v` against `type`. */
  private bodyFor(type: TypeNode, hint: string): string[] {
    const inline = this.types.inlineTest(type);
    if (inline) return [...this.testStatements(inline, "v", null), "return true;"];
    switch (type.kind) {
      case "reference":
        return [`return ${this.checkOf(type.name)}(v, f);`];
      case "object":
        return this.objectBody(type.properties, type.indexSignature, hint);
      case "array":
        return this.arrayBody(type.element, hint);
      case "tuple":
        return this.tupleBody(type.elements, hint);
      case "union":
        return this.unionBody(type, hint);
      case "intersection":
        return [
          ...type.members.flatMap((member, i) => this.statements(member, "v", null, `${hint}$${i}`)),
          "return true;",
        ];
      default:
        throw new Error(`no check for ${type.kind}`); // keywords and literals are inline tests
    }
  }

  // --- objects and arrays ------------------------------------------------

  private objectBody(
    properties: readonly (Property & { declaredIn?: string })[],
    indexSignature: IndexSignature | undefined,
    owner: string,
  ): string[] {
    const lines = [
      `if (!${this.runtime("isObject")}(v)) return ${this.runtime("fail")}(f, "type", "must be an object");`,
    ];
    const body: string[] = [];
    /** Whether the body reads a value into `x` (a body of absent-property tests alone does not). */
    let readsValues = false;
    for (let i = 0; i < properties.length;) {
      const inherited = this.inheritedMembers(properties, i, owner);
      if (inherited) {
        // The members a base interface declares, checked by its function in the same order and with the same paths.
        const members = this.membersFunction(inherited.base);
        if (members) body.push(`if (!${members}(v, f)) return false;`);
        i += inherited.count;
        continue;
      }
      const property = this.propertyStatements(properties[i]!, owner);
      readsValues ||= property.reads;
      body.push(...property.lines);
      i++;
    }
    const declared = properties.map((p) => `case ${JSON.stringify(p.name)}:`);
    const skipDeclared = declared.length > 0 ? [`switch (k) {`, ...declared, `continue;`, `}`] : [];
    const type = indexSignature?.type;
    if (type?.kind === "keyword" && type.keyword === "never") {
      // `[key: string]: never` (Record<string, never>): no member besides the declared ones; no value to read.
      const loop = [
        `for (const k in v) {`,
        ...skipDeclared,
        `return ${this.runtime("failAt")}(f, k, "not", "must not be present");`,
        `}`,
      ];
      lines.push(...(readsValues ? ["let x: unknown;"] : []), ...body, ...loop, "return true;");
      return lines;
    }
    const values = type && this.statements(type, "x", "k", `${owner}$values`);
    if (values && values.length > 0) {
      readsValues = true;
      body.push(
        `for (const k in v) {`,
        ...skipDeclared,
        // JSON.parse makes "__proto__" an own property; a plain read would find the prototype.
        `x = k === "__proto__" ? ${this.runtime("ownProperty")}(v, k) : v[k];`,
        ...values,
        `}`,
      );
    }
    lines.push(...(readsValues ? ["let x: unknown;"] : []), ...body, "return true;");
    return lines;
  }

  /** The statements checking one property of `v`, and whether they read its value into `x`. */
  private propertyStatements(
    property: Property & { declaredIn?: string },
    owner: string,
  ): { lines: string[]; reads: boolean } {
    const key = JSON.stringify(property.name);
    if (this.types.mustBeAbsent(property.type)) {
      // `a: never` (or `a?: never`): no JSON value has that type, so the property must be
      // absent, required or not (typescript-json-schema leaves it out of properties and required).
      const test = `if (${this.read("v", property.name)} !== undefined) return ${this.runtime("failAt")}(f, ${key}, "not", "must not be present");`;
      return { lines: [test], reads: false };
    }
    const checks = this.statements(property.type, "x", key, this.propertyHint(property, owner), property.constraints);
    // An optional property that takes any value (unknown) has nothing to check: not even read.
    if (property.optional && checks.length === 0) return { lines: [], reads: false };
    const read = `x = ${this.read("v", property.name)};`;
    return property.optional
      ? { lines: [read, `if (x !== undefined) {`, ...checks, `}`], reads: true }
      : {
          lines: [read, `if (x === undefined) return ${this.runtime("failMissing")}(f, ${key});`, ...checks],
          reads: true,
        };
  }

  /**
   * When the properties from `start` on are every member an interface
   * declares, unchanged and in its order (inherited, none overridden nor
   * omitted): that interface and how many they are. Extending types then
   * call one function for them, so a change to a base interface's member
   * changes that function and the base's check, not every extending type's.
   */
  private inheritedMembers(
    properties: readonly (Property & { declaredIn?: string })[],
    start: number,
    owner: string,
  ): { base: string; count: number } | undefined {
    const base = properties[start]!.declaredIn;
    if (!base || base === owner || (this.extension && !this.extension.own.has(base))) return undefined;
    const declaration = this.index.get(base);
    if (declaration?.kind !== "interface") return undefined;
    const own = declaration.properties;
    const alike = own.every(
      (p, k) => properties[start + k]?.declaredIn === base && properties[start + k]!.name === p.name,
    );
    return own.length > 0 && alike ? { base, count: own.length } : undefined;
  }

  /** The function checking the members `base` declares itself, on a value known to be an object; none when they take any value. */
  private membersFunction(base: string): string | undefined {
    let name = this.members.get(base);
    if (name === undefined) {
      name = `${membersCheckPrefix}${base}`;
      const declaration = this.index.get(base) as Declaration & { kind: "interface" };
      const properties = declaration.resolved.properties.filter((p) => p.declaredIn === base);
      this.functions.declare(name, `The members ${base} declares, for the types that extend it`, () => {
        const statements = properties.map((property) => this.propertyStatements(property, base));
        const reads = statements.some((s) => s.reads) ? ["let x: unknown;"] : [];
        return [...reads, ...statements.flatMap((s) => s.lines), "return true;"];
      });
      if (this.functions.checksNothing(name)) {
        this.functions.retract(name);
        name = null;
      }
      this.members.set(base, name);
    }
    return name === null ? undefined : this.functions.called(name);
  }

  private arrayBody(element: TypeNode, hint: string): string[] {
    const lines = [`if (!Array.isArray(v)) return ${this.runtime("fail")}(f, "type", "must be an array");`];
    const checks = this.statements(element, "x", "i", `${hint}$item`);
    if (checks.length > 0)
      lines.push(`for (let i = 0; i < v.length; i++) {`, `const x: unknown = v[i];`, ...checks, `}`);
    lines.push("return true;");
    return lines;
  }

  private tupleBody(elements: readonly TypeNode[], hint: string): string[] {
    const n = elements.length;
    const lines = [
      `if (!Array.isArray(v) || v.length !== ${n}) return ${this.runtime("fail")}(f, "type", "must be an array of ${n} items");`,
    ];
    elements.forEach((element, i) => {
      const checks = this.statements(element, `x${i}`, String(i), `${hint}$${i}`);
      if (checks.length > 0) lines.push(`const x${i}: unknown = v[${i}];`, ...checks);
    });
    lines.push("return true;");
    return lines;
  }

  // --- unions ------------------------------------------------------------

  private unionBody(type: TypeNode & { kind: "union" }, hint: string): string[] {
    const members = this.types.flattenUnion(type);
    const tag = this.types.discriminant(members);
    if (tag) return this.taggedUnionBody(members, tag, hint);

    const accepts = members.map((member, i) => {
      const inline = this.types.inlineTest(member);
      if (inline) return inline.invalid ? `!(${inline.invalid("v")})` : "true";
      return `${this.functionFor(member, `${hint}$${i}`)}(v, null)`;
    });
    const lines = [`if (${accepts.join(" || ")}) return true;`];
    // For a precise error, re-run the one member whose JSON type fits, if there is exactly one.
    const objectMembers = members.filter((m) => this.types.jsonKind(m) === "object");
    const arrayMembers = members.filter((m) => this.types.jsonKind(m) === "array");
    if (objectMembers.length === 1) {
      lines.push(
        `if (${this.runtime("isObject")}(v)) return ${this.functionFor(objectMembers[0]!, `${hint}$${members.indexOf(objectMembers[0]!)}`)}(v, f);`,
      );
    }
    if (arrayMembers.length === 1) {
      lines.push(
        `if (Array.isArray(v)) return ${this.functionFor(arrayMembers[0]!, `${hint}$${members.indexOf(arrayMembers[0]!)}`)}(v, f);`,
      );
    }
    const names = members.map((m) => abbreviate(printType(m), 40)).join(", ");
    lines.push(`return ${this.runtime("fail")}(f, "anyOf", ${JSON.stringify(`must match one of: ${names}`)});`);
    return lines;
  }

  private taggedUnionBody(
    members: readonly TypeNode[],
    tag: { property: string; values: Literal[][] },
    hint: string,
  ): string[] {
    const key = JSON.stringify(tag.property);
    const lines = [
      `if (!${this.runtime("isObject")}(v)) return ${this.runtime("fail")}(f, "type", "must be an object");`,
      `switch (${this.read("v", tag.property)}) {`,
    ];
    members.forEach((member, i) => {
      lines.push(
        ...tag.values[i]!.map((value) => `case ${literal(value)}:`),
        `return ${this.functionFor(member, `${hint}$${i}`)}(v, f);`,
      );
    });
    const all = tag.values.flat().map(literal).join(", ");
    lines.push(
      `default:`,
      `return ${this.read("v", tag.property)} === undefined ? ${this.runtime("failMissing")}(f, ${key}) : ${this.runtime("failAt")}(f, ${key}, "enum", ${JSON.stringify(`must be one of ${all}`)});`,
      `}`,
    );
    return lines;
  }

  // --- statements ------------------------------------------------------

  /**
   * Statements checking the value in variable `value` against `type` and its
   * constraints; each failing branch returns false. `segment` is the JS
   * expression of the value's path segment, or null when the value is `v`.
   */
  private statements(
    type: TypeNode,
    value: string,
    segment: string | null,
    hint: string,
    constraints?: Constraints,
  ): string[] {
    const checked =
      constraints?.nullable && !this.types.admitsNull(type)
        ? { kind: "union" as const, members: [type, { kind: "keyword" as const, keyword: "null" as const }] }
        : type;
    const inline = this.types.inlineTest(checked);
    const lines = inline
      ? this.testStatements(inline, value, segment)
      : [
          `if (!${this.functionFor(checked, hint)}(${value}, f)) return ${segment === null ? "false" : `${this.runtime("failNested")}(f, ${segment})`};`,
        ];
    if (constraints) lines.push(...this.constraintStatements(constraints, value, segment));
    return lines;
  }

  private testStatements(test: InlineTest, value: string, segment: string | null): string[] {
    if (!test.invalid) return [];
    return [`if (${test.invalid(value)}) return ${this.failure(segment, test.keyword, test.message)};`];
  }

  private constraintStatements(c: Constraints, x: string, segment: string | null): string[] {
    const lines: string[] = [];
    const rule = (condition: string, keyword: string, message: string) =>
      lines.push(`if (${condition}) return ${this.failure(segment, keyword, message)};`);
    const isNumber = `typeof ${x} === "number"`;
    const isString = `typeof ${x} === "string"`;
    if (c.integer) rule(`${isNumber} && !Number.isInteger(${x})`, "type", "must be integer");
    if (c.minimum !== undefined) rule(`${isNumber} && ${x} < ${c.minimum}`, "minimum", `must be >= ${c.minimum}`);
    if (c.maximum !== undefined) rule(`${isNumber} && ${x} > ${c.maximum}`, "maximum", `must be <= ${c.maximum}`);
    if (c.exclusiveMinimum !== undefined)
      rule(`${isNumber} && ${x} <= ${c.exclusiveMinimum}`, "exclusiveMinimum", `must be > ${c.exclusiveMinimum}`);
    if (c.exclusiveMaximum !== undefined)
      rule(`${isNumber} && ${x} >= ${c.exclusiveMaximum}`, "exclusiveMaximum", `must be < ${c.exclusiveMaximum}`);
    const length = () => `${this.runtime("codePointLength")}(${x})`;
    if (c.minLength !== undefined)
      rule(`${isString} && ${length()} < ${c.minLength}`, "minLength", `must have at least ${c.minLength} characters`);
    if (c.maxLength !== undefined)
      rule(`${isString} && ${length()} > ${c.maxLength}`, "maxLength", `must have at most ${c.maxLength} characters`);
    if (c.minItems !== undefined)
      rule(`Array.isArray(${x}) && ${x}.length < ${c.minItems}`, "minItems", `must have at least ${c.minItems} items`);
    if (c.maxItems !== undefined)
      rule(`Array.isArray(${x}) && ${x}.length > ${c.maxItems}`, "maxItems", `must have at most ${c.maxItems} items`);
    if (c.pattern !== undefined)
      rule(`${isString} && !${this.pattern(c.pattern)}.test(${x})`, "pattern", `must match pattern ${c.pattern}`);
    // Only "byte" is asserted; other formats are annotations (runtime/validation.ts).
    if (c.format === "byte")
      rule(`${isString} && !${this.runtime("isBase64")}(${x})`, "format", 'must be base64 (format "byte")');
    return lines;
  }

  // --- small printing helpers ---------------------------------------------

  private failure(segment: string | null, keyword: string, message: string): string {
    return segment === null
      ? `${this.runtime("fail")}(f, ${JSON.stringify(keyword)}, ${JSON.stringify(message)})`
      : `${this.runtime("failAt")}(f, ${segment}, ${JSON.stringify(keyword)}, ${JSON.stringify(message)})`;
  }

  /** Reads an own property; names Object.prototype also has go through ownProperty(). */
  private read(object: string, property: string): string {
    return prototypeNames.has(property)
      ? `${this.runtime("ownProperty")}(${object}, ${JSON.stringify(property)})`
      : `${object}[${JSON.stringify(property)}]`;
  }

  private pattern(source: string): string {
    return this.functions.pattern(source);
  }

  private runtime(name: string): string {
    return this.functions.runtime(name);
  }
}

function abbreviate(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

export function emitChecks(file: GeneratedFile, model: RevisionModel): CheckEmitter {
  const emitter = new CheckEmitter(model, file);
  emitter.emitDeclarations();
  return emitter;
}
