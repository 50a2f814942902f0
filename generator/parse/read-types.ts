// Schema types' members and type expressions → the model's TypeNode: one
// reader per construct a schema type may use (properties, index signatures,
// keywords, literals, references, `typeof` of a const, unions, intersections,
// arrays, tuples, object literals, Array<T> and Record<K, T>); anything
// else is reported with its location and a stable code, never mapped to
// `unknown`. Which declarations hold them is parse-schema.ts's.
import type {
  IndexSignatureDeclaration,
  JSDocableNode,
  PropertySignature,
  TypeElementTypes,
  TypeNode as TsTypeNode,
} from "ts-morph";
import type {
  Constant,
  Constraints,
  Doc,
  IndexSignature,
  KeywordName,
  ObjectType,
  Property,
  SourceLocation,
  TypeNode,
} from "../model/types.js";
import { ErrorCode } from "../diagnostics.js";
import { readConstraints } from "./annotations.js";
import { emptyDoc, parseJsDoc } from "./jsdoc.js";
import { Node, SyntaxKind } from "./ts-morph.js";

/** What reading a type needs of the schema being read (SchemaReader, parse-schema.ts). */
export interface SchemaContext {
  /** Reports a problem at a node. */
  fail(node: Node, code: ErrorCode, message: string): void;
  /** Reports a warning at a node: something read and set aside, generation goes on. */
  warn(node: Node, code: ErrorCode, message: string): void;
  locationOf(node: Node): SourceLocation;
  /** A type reference by name, recorded for the check that it is declared; the name it stands for. */
  refer(name: string, location: SourceLocation): string;
  /** A const declared in the schema (consts are read before types). */
  constant(name: string): Constant | undefined;
}

const keywords: Partial<Record<SyntaxKind, KeywordName>> = {
  [SyntaxKind.AnyKeyword]: "any",
  [SyntaxKind.BooleanKeyword]: "boolean",
  [SyntaxKind.NeverKeyword]: "never",
  [SyntaxKind.NumberKeyword]: "number",
  [SyntaxKind.ObjectKeyword]: "object",
  [SyntaxKind.StringKeyword]: "string",
  [SyntaxKind.UndefinedKeyword]: "undefined",
  [SyntaxKind.UnknownKeyword]: "unknown",
};

/** Built-in generic types the parser rewrites into model nodes (see TypeNode). */
const builtinGenerics = new Set(["Array", "Record"]);

export class TypeReader {
  constructor(private readonly schema: SchemaContext) {}

  readMembers(members: TypeElementTypes[]): Pick<ObjectType, "properties" | "indexSignature"> {
    const properties: Property[] = [];
    let indexSignature: IndexSignature | undefined;
    for (const member of members) {
      if (Node.isPropertySignature(member)) {
        const property = this.readProperty(member);
        if (properties.some((p) => p.name === property.name)) {
          this.schema.fail(member, ErrorCode.Duplicate, `property "${property.name}" is declared twice`);
        } else {
          properties.push(property);
        }
      } else if (Node.isIndexSignatureDeclaration(member)) {
        if (indexSignature) {
          this.schema.fail(member, ErrorCode.UnsupportedMember, `a type may have only one index signature`);
        } else {
          indexSignature = this.readIndexSignature(member);
        }
      } else {
        this.schema.fail(
          member,
          ErrorCode.UnsupportedMember,
          `${member.getKindName()} is not supported in a schema type (only properties and index signatures)`,
        );
      }
    }
    return { properties, ...(indexSignature ? { indexSignature } : {}) };
  }

  private readProperty(node: PropertySignature): Property {
    rejectModifiers(this.schema, node, []);
    const nameNode = node.getNameNode();
    let name: string;
    if (Node.isIdentifier(nameNode)) name = nameNode.getText();
    else if (Node.isStringLiteral(nameNode)) name = nameNode.getLiteralValue();
    else {
      this.schema.fail(
        nameNode,
        ErrorCode.UnsupportedMember,
        `property name ${nameNode.getText()} is not an identifier or a string`,
      );
      name = nameNode.getText();
    }
    const typeNode = node.getTypeNode();
    if (!typeNode) this.schema.fail(node, ErrorCode.UnsupportedMember, `property "${name}" has no type`);
    const doc = readDoc(node);
    const constraints = readAnnotations(this.schema, doc, node);
    return {
      name,
      optional: node.hasQuestionToken(),
      type: typeNode ? this.readType(typeNode) : { kind: "keyword", keyword: "any" },
      doc,
      location: this.schema.locationOf(node),
      ...(constraints ? { constraints } : {}),
    };
  }

  private readIndexSignature(node: IndexSignatureDeclaration): IndexSignature {
    rejectModifiers(this.schema, node, []);
    const keyType = node.getKeyTypeNode().getText();
    if (keyType !== "string" && keyType !== "number") {
      this.schema.fail(
        node,
        ErrorCode.UnsupportedMember,
        `index signature key type must be string or number, not ${keyType}`,
      );
    }
    const doc = readDoc(node);
    if (readAnnotations(this.schema, doc, node) !== undefined) {
      this.schema.fail(
        node,
        ErrorCode.UnsupportedAnnotation,
        `validation annotations on an index signature are not supported`,
      );
    }
    return {
      keyName: node.getKeyName(),
      keyType: keyType === "number" ? "number" : "string",
      type: this.readType(node.getReturnTypeNodeOrThrow()),
      doc,
    };
  }

  readType(node: TsTypeNode): TypeNode {
    const keyword = keywords[node.getKind()];
    if (keyword) return { kind: "keyword", keyword };
    if (Node.isLiteralTypeNode(node)) return this.readLiteralType(node);
    if (Node.isTypeReference(node)) return this.readTypeReference(node);
    if (Node.isTypeQuery(node)) return this.readTypeQuery(node);
    if (Node.isUnionTypeNode(node)) return { kind: "union", members: node.getTypeNodes().map((t) => this.readType(t)) };
    if (Node.isIntersectionTypeNode(node)) {
      return { kind: "intersection", members: node.getTypeNodes().map((t) => this.readType(t)) };
    }
    if (Node.isParenthesizedTypeNode(node)) return this.readType(node.getTypeNode());
    if (Node.isArrayTypeNode(node)) return { kind: "array", element: this.readType(node.getElementTypeNode()) };
    if (Node.isTupleTypeNode(node)) return this.readTuple(node);
    if (Node.isTypeLiteral(node)) return { kind: "object", ...this.readMembers(node.getMembers()) };
    return this.unsupportedType(node);
  }

  private readLiteralType(node: Node & { getLiteral(): Node }): TypeNode {
    const literal = node.getLiteral();
    if (literal.getKind() === SyntaxKind.NullKeyword) return { kind: "keyword", keyword: "null" };
    const value = literalValue(literal);
    if (value === undefined) return this.unsupportedType(node);
    return { kind: "literal", value };
  }

  private readTypeReference(node: Node & { getTypeName(): Node; getTypeArguments(): TsTypeNode[] }): TypeNode {
    const typeName = node.getTypeName();
    const name = typeName.getText();
    const args = node.getTypeArguments();
    if (!Node.isIdentifier(typeName)) {
      this.schema.fail(node, ErrorCode.UnsupportedType, `qualified name ${name} is not supported`);
      return { kind: "keyword", keyword: "never" };
    }
    if (name === "Array" && args.length === 1) return { kind: "array", element: this.readType(args[0]!) };
    if (name === "Record" && args.length === 2) return this.readRecord(node, args[0]!, args[1]!);
    if (args.length > 0 || builtinGenerics.has(name)) {
      this.schema.fail(
        node,
        ErrorCode.UnsupportedType,
        `generic type ${node.getText()} is not supported (only Array<T> and Record<K, T>)`,
      );
      return { kind: "keyword", keyword: "never" };
    }
    return { kind: "reference", name: this.schema.refer(name, this.schema.locationOf(node)) };
  }

  /**
   * `Record<K, V>` as TypeScript reads it: K `string` or `number` is an index
   * signature; a union with `string` in it is `string` (the literals add no key
   * `string` does not already admit: `Record<"name" | string, V>`); string
   * literals alone are required properties. Any other K is refused.
   */
  private readRecord(node: Node, keyNode: TsTypeNode, valueNode: TsTypeNode): TypeNode {
    const keys = Node.isUnionTypeNode(keyNode) ? keyNode.getTypeNodes() : [keyNode];
    const keywordsIn = new Set(keys.map((k) => k.getKind()));
    const literals = keys.map((k) => (Node.isLiteralTypeNode(k) ? literalValue(k.getLiteral()) : undefined));
    const onlyStringsAnd = (keyword: SyntaxKind) =>
      keys.every((k, i) => k.getKind() === keyword || typeof literals[i] === "string");
    const keyType =
      keywordsIn.has(SyntaxKind.StringKeyword) && onlyStringsAnd(SyntaxKind.StringKeyword)
        ? "string"
        : keys.length === 1 && keywordsIn.has(SyntaxKind.NumberKeyword)
          ? "number"
          : undefined;
    if (keyType) {
      return {
        kind: "object",
        properties: [],
        indexSignature: { keyName: "key", keyType, type: this.readType(valueNode), doc: emptyDoc() },
      };
    }
    if (literals.every((l) => typeof l === "string")) {
      const names = [...new Set(literals as string[])];
      const location = this.schema.locationOf(node);
      return {
        kind: "object",
        properties: names.map((name) => ({
          name,
          optional: false,
          type: this.readType(valueNode),
          doc: emptyDoc(),
          location,
        })),
      };
    }
    this.schema.fail(
      node,
      ErrorCode.UnsupportedType,
      `${node.getText()}: a Record's key type must be string, number, or string literals (with or without string)`,
    );
    return { kind: "keyword", keyword: "never" };
  }

  /** `typeof CONST`: the constant's literal type, remembering the constant for printing. */
  private readTypeQuery(node: Node & { getExprName(): Node }): TypeNode {
    const name = node.getExprName().getText();
    const constant = this.schema.constant(name);
    if (!constant) {
      this.schema.fail(node, ErrorCode.UnknownReference, `typeof ${name}: no const named ${name} in this schema`);
      return { kind: "keyword", keyword: "never" };
    }
    return { kind: "literal", value: constant.value, constant: name };
  }

  private readTuple(node: Node & { getElements(): TsTypeNode[] }): TypeNode {
    const elements: TypeNode[] = [];
    for (const element of node.getElements()) {
      if (Node.isNamedTupleMember(element) || Node.isOptionalTypeNode(element) || Node.isRestTypeNode(element)) {
        this.schema.fail(element, ErrorCode.UnsupportedType, `${element.getKindName()} in a tuple is not supported`);
      } else {
        elements.push(this.readType(element));
      }
    }
    return { kind: "tuple", elements };
  }

  private unsupportedType(node: Node): TypeNode {
    this.schema.fail(
      node,
      ErrorCode.UnsupportedType,
      `${node.getKindName()} is not supported in a schema type: "${abbreviate(node.getText())}"`,
    );
    return { kind: "keyword", keyword: "never" };
  }
}

/** The last JSDoc of a node, parsed (an empty one where it has none). */
export function readDoc(node: JSDocableNode & Node): Doc {
  const docs = node.getJsDocs();
  const last = docs[docs.length - 1];
  return last ? parseJsDoc(last.getText()) : emptyDoc();
}

/**
 * The validation annotations of a JSDoc; a tag that cannot be honoured is an
 * error at the node, one whose value cannot be read a warning there.
 */
export function readAnnotations(schema: SchemaContext, doc: Doc, node: Node): Constraints | undefined {
  const { constraints, problems, unreadable } = readConstraints(doc);
  for (const problem of problems) schema.fail(node, ErrorCode.UnsupportedAnnotation, problem);
  for (const { tag, message } of unreadable) {
    const docs = Node.isJSDocable(node) ? node.getJsDocs() : [];
    const at = docs[docs.length - 1]?.getTags().find((t) => t.getTagName() === tag);
    schema.warn(at ?? node, ErrorCode.UnreadableAnnotation, message);
  }
  return constraints;
}

/** Reports every modifier of `node` but the `allowed` ones. */
export function rejectModifiers(schema: SchemaContext, node: Node, allowed: SyntaxKind[]): void {
  if (!Node.isModifierable(node)) return;
  for (const modifier of node.getModifiers()) {
    if (!allowed.includes(modifier.getKind())) {
      schema.fail(modifier, ErrorCode.UnsupportedModifier, `modifier "${modifier.getText()}" is not supported`);
    }
  }
}

/** The value of a string, number (optionally negated) or boolean literal expression. */
export function literalValue(node: Node): string | number | boolean | undefined {
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  if (Node.isNumericLiteral(node)) return node.getLiteralValue();
  if (node.getKind() === SyntaxKind.TrueKeyword) return true;
  if (node.getKind() === SyntaxKind.FalseKeyword) return false;
  if (Node.isPrefixUnaryExpression(node) && node.getOperatorToken() === SyntaxKind.MinusToken) {
    const operand = node.getOperand();
    if (Node.isNumericLiteral(operand)) return -operand.getLiteralValue();
  }
  return undefined;
}

function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
