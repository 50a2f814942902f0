// Applies `extends` chains: each interface gets the properties it inherits, with
// own members winning, `Omit<Base, ...>` keys removed and the declaring interface
// recorded. Also answers "what properties does this type have?" for any type
// expression that denotes an object (see objectView).
import { ErrorCode, SchemaError, problemAt, type LocatedDiagnostic } from "../diagnostics.js";
import type {
  Declaration,
  IndexSignature,
  InterfaceDeclaration,
  ParsedDeclaration,
  ParsedInterface,
  ParsedSchema,
  ResolvedProperty,
  ResolvedShape,
  TypeNode,
} from "./types.js";

export type DeclarationIndex = ReadonlyMap<string, Declaration>;

/** Resolves every interface of a parsed schema. Throws SchemaError on a cycle or a base that is not an object type. */
export function resolveDeclarations(schema: ParsedSchema): Declaration[] {
  const parsed = new Map(schema.declarations.map((d) => [d.name, d]));
  const resolved = new Map<string, ResolvedShape>();
  const visiting: string[] = [];
  const problems: LocatedDiagnostic[] = [];

  const resolveInterface = (declaration: ParsedInterface): ResolvedShape => {
    const done = resolved.get(declaration.name);
    if (done) return done;
    if (visiting.includes(declaration.name)) {
      const cycle = [...visiting.slice(visiting.indexOf(declaration.name)), declaration.name].join(" → ");
      problems.push(
        problemAt(ErrorCode.ExtendsCycle, `${declaration.name} inherits from itself (${cycle})`, declaration.location),
      );
      return { properties: [], ancestors: [] };
    }
    visiting.push(declaration.name);
    const properties: ResolvedProperty[] = declaration.properties.map((p) => ({ ...p, declaredIn: declaration.name }));
    let indexSignature = declaration.indexSignature;
    const ancestors: string[] = [];
    for (const heritage of declaration.extends) {
      const base = shapeOfParsed(parsed.get(heritage.name));
      if (!base) {
        problems.push(
          problemAt(
            ErrorCode.UnsupportedHeritage,
            `${declaration.name} extends ${heritage.name}, which is not an interface or an object type`,
            heritage.location,
          ),
        );
        continue;
      }
      for (const name of [heritage.name, ...base.ancestors]) if (!ancestors.includes(name)) ancestors.push(name);
      for (const property of base.properties) {
        if (heritage.omit.includes(property.name)) continue;
        if (!properties.some((p) => p.name === property.name)) properties.push(property);
      }
      indexSignature ??= base.indexSignature;
    }
    visiting.pop();
    const shape: ResolvedShape = { properties, ancestors, ...(indexSignature ? { indexSignature } : {}) };
    resolved.set(declaration.name, shape);
    return shape;
  };

  /** The shape a declaration contributes as a base: an interface's, or an alias to an object type's. */
  const shapeOfParsed = (declaration: ParsedDeclaration | undefined): ResolvedShape | undefined => {
    if (!declaration) return undefined;
    if (declaration.kind === "interface") return resolveInterface(declaration);
    return objectShape(declaration.type, (name) => shapeOfParsed(parsed.get(name)));
  };

  const declarations = schema.declarations.map((declaration): Declaration => {
    if (declaration.kind === "alias") return declaration;
    return { ...declaration, resolved: resolveInterface(declaration) } satisfies InterfaceDeclaration;
  });
  if (problems.length > 0) throw new SchemaError(schema.file, problems);
  return declarations;
}

/**
 * The properties of a type expression that denotes an object: an object literal,
 * a reference to an interface or to an alias of one, or an intersection of such.
 * Undefined for anything else (unions, primitives, arrays...).
 */
export function objectView(type: TypeNode, index: DeclarationIndex): ResolvedShape | undefined {
  return objectShape(type, (name) => {
    const declaration = index.get(name);
    if (!declaration) return undefined;
    return declaration.kind === "interface" ? declaration.resolved : objectView(declaration.type, index);
  });
}

function objectShape(
  type: TypeNode,
  shapeOfName: (name: string) => ResolvedShape | undefined,
): ResolvedShape | undefined {
  switch (type.kind) {
    case "object":
      return {
        properties: type.properties.map((p) => ({ ...p, declaredIn: "" })),
        ancestors: [],
        ...(type.indexSignature ? { indexSignature: type.indexSignature } : {}),
      };
    case "reference":
      return shapeOfName(type.name);
    case "intersection": {
      const properties: ResolvedProperty[] = [];
      const ancestors: string[] = [];
      let indexSignature: IndexSignature | undefined;
      for (const member of type.members) {
        const shape = objectShape(member, shapeOfName);
        if (!shape) return undefined;
        if (member.kind === "reference") ancestors.push(member.name);
        for (const property of shape.properties) {
          const i = properties.findIndex((p) => p.name === property.name);
          if (i === -1) properties.push(property);
          else properties[i] = meet(properties[i]!, property);
        }
        ancestors.push(...shape.ancestors.filter((a) => !ancestors.includes(a)));
        indexSignature ??= shape.indexSignature;
      }
      return { properties, ancestors, ...(indexSignature ? { indexSignature } : {}) };
    }
    default:
      return undefined;
  }
}

/**
 * A property two members of an intersection both declare: a value must satisfy
 * both, so it is required if either requires it, and its type is the narrower
 * one when one contains the other (a literal within its primitive type, anything
 * within unknown), else the intersection of the two.
 */
function meet(first: ResolvedProperty, second: ResolvedProperty): ResolvedProperty {
  const type = narrower(first.type, second.type) ?? narrower(second.type, first.type);
  return {
    ...second,
    optional: first.optional && second.optional,
    type: type ?? { kind: "intersection", members: [first.type, second.type] },
  };
}

/** `b` when it lies within `a`, by the simple rules meet() needs; undefined otherwise. */
function narrower(a: TypeNode, b: TypeNode): TypeNode | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return b;
  if (a.kind === "keyword" && (a.keyword === "unknown" || a.keyword === "any")) return b;
  if (a.kind === "keyword" && b.kind === "literal" && typeof b.value === a.keyword) return b;
  return undefined;
}

export function indexDeclarations(declarations: readonly Declaration[]): DeclarationIndex {
  return new Map(declarations.map((d) => [d.name, d]));
}

/** A property of an object type, by name, or undefined. */
export function propertyOf(type: TypeNode, name: string, index: DeclarationIndex): ResolvedProperty | undefined {
  return objectView(type, index)?.properties.find((p) => p.name === name);
}

/**
 * The declarations a union alias lists, following aliases of unions
 * (`type A = B | C; type B = D | E` gives D, E, C).
 */
export function unionMembers(name: string, index: DeclarationIndex): string[] {
  const out: string[] = [];
  const visit = (type: TypeNode): void => {
    if (type.kind === "union") type.members.forEach(visit);
    else if (type.kind === "reference") {
      const target = index.get(type.name);
      if (target?.kind === "alias" && target.type.kind === "union") visit(target.type);
      else if (!out.includes(type.name)) out.push(type.name);
    }
  };
  const declaration = index.get(name);
  if (declaration?.kind === "alias") visit(declaration.type);
  return out;
}
