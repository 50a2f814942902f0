// schema.ts → ParsedSchema. One reader per TypeScript construct the MCP schema
// uses; anything else is reported with its location and a stable code, never
// mapped to `unknown`.
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";
import type {
  ImportDeclaration,
  IndexSignatureDeclaration,
  InterfaceDeclaration as TsInterface,
  JSDocableNode,
  PropertySignature,
  SourceFile,
  TypeAliasDeclaration as TsTypeAlias,
  TypeElementTypes,
  TypeNode as TsTypeNode,
  VariableStatement,
} from "ts-morph";
import { byCodeUnit } from "../model/order.js";
import type {
  Constant,
  Constraints,
  Doc,
  Heritage,
  ImportedName,
  IndexSignature,
  KeywordName,
  ObjectType,
  ParsedDeclaration,
  ParsedSchema,
  Property,
  SourceLocation,
  TypeNode,
} from "../model/types.js";
import { ErrorCode, SchemaError, problemAt, type LocatedDiagnostic } from "../diagnostics.js";
import { readConstraints } from "./annotations.js";
import { emptyDoc, parseJsDoc } from "./jsdoc.js";

// ts-morph is CommonJS. Imported as an ES module, Node first scans its source
// and what it re-exports for export names; require() does not.
const { Node, Project, SyntaxKind } = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;
type Node = TsMorph.Node;
type SyntaxKind = TsMorph.SyntaxKind;

export interface SchemaInput {
  /** The path to show in locations, e.g. "spec/2025-06-18/schema.ts". */
  file: string;
  text: string;
  /**
   * For an extension's schema: the revision it builds on. Its `import type { ... }`
   * from a relative module (the vendored base schema) then names that revision's
   * types; without it, an import is an unsupported statement.
   */
  base?: { readonly revision: string; readonly names: ReadonlySet<string> };
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

/**
 * Parses one schema.ts. Throws SchemaError listing every problem found.
 * A project per parse, dropped whole afterwards: creating one costs little
 * (no lib files), while removing a read file from a shared project made
 * ts-morph forget each node it had wrapped, a fifth of the parse.
 */
export function parseSchema(input: SchemaInput): ParsedSchema {
  const project = new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
  return new SchemaReader(input, project.createSourceFile("/schema.ts", input.text)).read();
}

class SchemaReader {
  private readonly problems: LocatedDiagnostic[] = [];
  /** Every type reference read, checked against the declared names at the end. */
  private readonly references: { name: string; location: SourceLocation }[] = [];
  private readonly constants = new Map<string, Constant>();
  /** An extension's imports of base types, by local name. */
  private readonly imported = new Map<string, ImportedName>();
  /** Local names of imports already refused (their uses are not reported again). */
  private readonly refusedImports = new Set<string>();

  constructor(
    private readonly input: SchemaInput,
    private readonly sourceFile: SourceFile,
  ) {}

  read(): ParsedSchema {
    this.readSyntaxErrors();
    if (this.problems.length > 0) throw new SchemaError(this.input.file, this.problems);

    // Constants and imports first: types refer to them.
    for (const statement of this.sourceFile.getStatements()) {
      if (Node.isVariableStatement(statement)) this.readConstant(statement);
      else if (Node.isImportDeclaration(statement) && this.input.base) this.readImport(statement, this.input.base);
    }
    const declarations: ParsedDeclaration[] = [];
    for (const statement of this.sourceFile.getStatements()) {
      if (Node.isInterfaceDeclaration(statement)) declarations.push(this.readInterface(statement));
      else if (Node.isTypeAliasDeclaration(statement)) declarations.push(this.readTypeAlias(statement));
      else if (Node.isImportDeclaration(statement) && this.input.base) continue;
      else if (!Node.isVariableStatement(statement)) {
        this.fail(
          statement,
          ErrorCode.UnsupportedStatement,
          `${statement.getKindName()} is not supported at the top level of a schema (only interfaces, type aliases and consts)`,
        );
      }
    }
    this.checkNames(declarations);
    if (this.problems.length > 0) throw new SchemaError(this.input.file, this.problems);
    const imports = [...this.imported.values()].sort((a, b) => byCodeUnit(a.local, b.local));
    return {
      file: this.input.file,
      declarations: declarations.sort((a, b) => byCodeUnit(a.name, b.name)),
      constants: [...this.constants.values()].sort((a, b) => byCodeUnit(a.name, b.name)),
      ...(imports.length > 0 ? { imports } : {}),
    };
  }

  /**
   * `import type { A, B as C } from "./base.js"` in an extension's schema: each
   * name must be a type its base revision declares. Only type-only named
   * imports from a relative module stand for the base; anything else is refused.
   */
  private readImport(node: ImportDeclaration, base: NonNullable<SchemaInput["base"]>): void {
    const specifier = node.getModuleSpecifierValue();
    const clause = node.getImportClause();
    // Uses of a refused import are not reported again.
    for (const element of node.getNamedImports())
      this.refusedImports.add(element.getAliasNode()?.getText() ?? element.getName());
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) {
      this.fail(
        node,
        ErrorCode.UnknownImport,
        `import from "${specifier}": an extension imports only its base revision's schema, by a relative path`,
      );
      return;
    }
    if (!clause || clause.getDefaultImport() || clause.getNamespaceImport()) {
      this.fail(
        node,
        ErrorCode.UnknownImport,
        `only named imports (import type { A, B as C }) of the base revision's types are supported`,
      );
      return;
    }
    for (const element of node.getNamedImports()) {
      if (!clause.isTypeOnly() && !element.isTypeOnly()) {
        this.fail(element, ErrorCode.UnknownImport, `import of ${element.getName()} must be type-only (import type)`);
        continue;
      }
      const name = element.getName();
      const local = element.getAliasNode()?.getText() ?? name;
      const location = this.locationOf(element);
      if (!base.names.has(name)) {
        this.problems.push(
          problemAt(
            ErrorCode.UnknownImport,
            `type ${name} is not declared in the base revision ${base.revision}`,
            location,
          ),
        );
        continue;
      }
      if (this.imported.has(local)) {
        this.problems.push(problemAt(ErrorCode.Duplicate, `${local} is imported twice`, location));
        continue;
      }
      this.refusedImports.delete(local);
      this.imported.set(local, { name, local, location });
    }
  }

  /** A type reference by name: recorded for the final check; an imported alias becomes the base's name. */
  private refer(name: string, location: SourceLocation): string {
    const imported = this.imported.get(name);
    if (!this.refusedImports.has(name)) this.references.push({ name: imported?.name ?? name, location });
    return imported?.name ?? name;
  }

  private readSyntaxErrors(): void {
    const project = this.sourceFile.getProject();
    for (const diagnostic of project.getProgram().getSyntacticDiagnostics(this.sourceFile)) {
      const message = diagnostic.getMessageText();
      const text = typeof message === "string" ? message : message.getMessageText();
      this.problems.push(
        problemAt(ErrorCode.Syntax, `TS${diagnostic.getCode()}: ${text}`, this.locationAt(diagnostic.getStart() ?? 0)),
      );
    }
  }

  // --- declarations -------------------------------------------------------

  private readInterface(node: TsInterface): ParsedDeclaration {
    this.rejectTypeParameters(node);
    this.rejectModifiers(node, [SyntaxKind.ExportKeyword]);
    const body = this.readMembers(node.getMembers());
    const doc = this.readDoc(node);
    if (this.readAnnotations(doc, node) !== undefined) {
      this.fail(
        node,
        ErrorCode.UnsupportedAnnotation,
        `validation annotations on an interface are not supported; put them on its properties`,
      );
    }
    return {
      kind: "interface",
      name: node.getName(),
      exported: node.isExported(),
      doc,
      location: this.locationOf(node),
      extends: node.getExtends().map((clause) => this.readHeritage(clause)),
      properties: body.properties,
      ...(body.indexSignature ? { indexSignature: body.indexSignature } : {}),
    };
  }

  /** `extends Name` or `extends Omit<Name, "key" | ...>`. */
  private readHeritage(clause: Node): Heritage {
    const location = this.locationOf(clause);
    if (!Node.isExpressionWithTypeArguments(clause)) {
      this.fail(clause, ErrorCode.UnsupportedHeritage, `unsupported extends clause`);
      return { name: "", omit: [], location };
    }
    const expression = clause.getExpression();
    const typeArguments = clause.getTypeArguments();
    if (Node.isIdentifier(expression) && typeArguments.length === 0) {
      return { name: this.refer(expression.getText(), location), omit: [], location };
    }
    if (Node.isIdentifier(expression) && expression.getText() === "Omit" && typeArguments.length === 2) {
      const [base, keys] = typeArguments as [TsTypeNode, TsTypeNode];
      const omit = this.readStringLiteralUnion(keys);
      if (Node.isTypeReference(base) && Node.isIdentifier(base.getTypeName()) && omit) {
        const name = this.refer(base.getTypeName().getText(), this.locationOf(base));
        return { name, omit: omit.sort(byCodeUnit), location };
      }
    }
    this.fail(
      clause,
      ErrorCode.UnsupportedHeritage,
      `unsupported extends clause "${clause.getText()}" (expected Name or Omit<Name, "key" | ...>)`,
    );
    return { name: "", omit: [], location };
  }

  private readStringLiteralUnion(node: TsTypeNode): string[] | undefined {
    const members = Node.isUnionTypeNode(node) ? node.getTypeNodes() : [node];
    const keys: string[] = [];
    for (const member of members) {
      if (!Node.isLiteralTypeNode(member)) return undefined;
      const literal = member.getLiteral();
      if (!Node.isStringLiteral(literal)) return undefined;
      keys.push(literal.getLiteralValue());
    }
    return keys;
  }

  private readTypeAlias(node: TsTypeAlias): ParsedDeclaration {
    this.rejectTypeParameters(node);
    this.rejectModifiers(node, [SyntaxKind.ExportKeyword]);
    const doc = this.readDoc(node);
    const constraints = this.readAnnotations(doc, node);
    return {
      kind: "alias",
      name: node.getName(),
      exported: node.isExported(),
      doc,
      location: this.locationOf(node),
      type: this.readType(node.getTypeNodeOrThrow()),
      ...(constraints ? { constraints } : {}),
    };
  }

  private readConstant(statement: VariableStatement): void {
    this.rejectModifiers(statement, [SyntaxKind.ExportKeyword]);
    const declarations = statement.getDeclarations();
    if (statement.getDeclarationKind() !== "const" || declarations.length !== 1) {
      this.fail(statement, ErrorCode.UnsupportedConst, `only single \`const\` declarations are supported`);
      return;
    }
    const declaration = declarations[0]!;
    const name = declaration.getName();
    const initializer = declaration.getInitializer();
    const value = initializer ? literalValue(initializer) : undefined;
    if (declaration.getTypeNode()) {
      this.fail(
        declaration,
        ErrorCode.UnsupportedConst,
        `const ${name} has a type annotation; \`typeof ${name}\` would not be its literal`,
      );
      return;
    }
    if (value === undefined) {
      this.fail(
        declaration,
        ErrorCode.UnsupportedConst,
        `const ${name} must be initialised with a string, number or boolean literal`,
      );
      return;
    }
    if (this.constants.has(name)) {
      this.fail(declaration, ErrorCode.Duplicate, `const ${name} is declared twice`);
      return;
    }
    this.constants.set(name, {
      name,
      exported: statement.isExported(),
      value,
      doc: this.readDoc(statement),
      location: this.locationOf(declaration),
    });
  }

  // --- members ------------------------------------------------------------

  private readMembers(members: TypeElementTypes[]): Pick<ObjectType, "properties" | "indexSignature"> {
    const properties: Property[] = [];
    let indexSignature: IndexSignature | undefined;
    for (const member of members) {
      if (Node.isPropertySignature(member)) {
        const property = this.readProperty(member);
        if (properties.some((p) => p.name === property.name)) {
          this.fail(member, ErrorCode.Duplicate, `property "${property.name}" is declared twice`);
        } else {
          properties.push(property);
        }
      } else if (Node.isIndexSignatureDeclaration(member)) {
        if (indexSignature) {
          this.fail(member, ErrorCode.UnsupportedMember, `a type may have only one index signature`);
        } else {
          indexSignature = this.readIndexSignature(member);
        }
      } else {
        this.fail(
          member,
          ErrorCode.UnsupportedMember,
          `${member.getKindName()} is not supported in a schema type (only properties and index signatures)`,
        );
      }
    }
    return { properties, ...(indexSignature ? { indexSignature } : {}) };
  }

  private readProperty(node: PropertySignature): Property {
    this.rejectModifiers(node, []);
    const nameNode = node.getNameNode();
    let name: string;
    if (Node.isIdentifier(nameNode)) name = nameNode.getText();
    else if (Node.isStringLiteral(nameNode)) name = nameNode.getLiteralValue();
    else {
      this.fail(
        nameNode,
        ErrorCode.UnsupportedMember,
        `property name ${nameNode.getText()} is not an identifier or a string`,
      );
      name = nameNode.getText();
    }
    const typeNode = node.getTypeNode();
    if (!typeNode) this.fail(node, ErrorCode.UnsupportedMember, `property "${name}" has no type`);
    const doc = this.readDoc(node);
    const constraints = this.readAnnotations(doc, node);
    return {
      name,
      optional: node.hasQuestionToken(),
      type: typeNode ? this.readType(typeNode) : { kind: "keyword", keyword: "any" },
      doc,
      location: this.locationOf(node),
      ...(constraints ? { constraints } : {}),
    };
  }

  private readIndexSignature(node: IndexSignatureDeclaration): IndexSignature {
    this.rejectModifiers(node, []);
    const keyType = node.getKeyTypeNode().getText();
    if (keyType !== "string" && keyType !== "number") {
      this.fail(node, ErrorCode.UnsupportedMember, `index signature key type must be string or number, not ${keyType}`);
    }
    const doc = this.readDoc(node);
    if (this.readAnnotations(doc, node) !== undefined) {
      this.fail(
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

  // --- type expressions ---------------------------------------------------

  private readType(node: TsTypeNode): TypeNode {
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
      this.fail(node, ErrorCode.UnsupportedType, `qualified name ${name} is not supported`);
      return { kind: "keyword", keyword: "never" };
    }
    if (name === "Array" && args.length === 1) return { kind: "array", element: this.readType(args[0]!) };
    if (name === "Record" && args.length === 2) {
      const key = args[0]!.getText();
      if (key === "string" || key === "number") {
        return {
          kind: "object",
          properties: [],
          indexSignature: { keyName: "key", keyType: key, type: this.readType(args[1]!), doc: emptyDoc() },
        };
      }
    }
    if (args.length > 0 || builtinGenerics.has(name)) {
      this.fail(
        node,
        ErrorCode.UnsupportedType,
        `generic type ${node.getText()} is not supported (only Array<T> and Record<string, T>)`,
      );
      return { kind: "keyword", keyword: "never" };
    }
    return { kind: "reference", name: this.refer(name, this.locationOf(node)) };
  }

  /** `typeof CONST`: the constant's literal type, remembering the constant for printing. */
  private readTypeQuery(node: Node & { getExprName(): Node }): TypeNode {
    const name = node.getExprName().getText();
    const constant = this.constants.get(name);
    if (!constant) {
      this.fail(node, ErrorCode.UnknownReference, `typeof ${name}: no const named ${name} in this schema`);
      return { kind: "keyword", keyword: "never" };
    }
    return { kind: "literal", value: constant.value, constant: name };
  }

  private readTuple(node: Node & { getElements(): TsTypeNode[] }): TypeNode {
    const elements: TypeNode[] = [];
    for (const element of node.getElements()) {
      if (Node.isNamedTupleMember(element) || Node.isOptionalTypeNode(element) || Node.isRestTypeNode(element)) {
        this.fail(element, ErrorCode.UnsupportedType, `${element.getKindName()} in a tuple is not supported`);
      } else {
        elements.push(this.readType(element));
      }
    }
    return { kind: "tuple", elements };
  }

  private unsupportedType(node: Node): TypeNode {
    this.fail(
      node,
      ErrorCode.UnsupportedType,
      `${node.getKindName()} is not supported in a schema type: "${abbreviate(node.getText())}"`,
    );
    return { kind: "keyword", keyword: "never" };
  }

  // --- shared checks ------------------------------------------------------

  private readDoc(node: JSDocableNode & Node): Doc {
    const docs = node.getJsDocs();
    const last = docs[docs.length - 1];
    return last ? parseJsDoc(last.getText()) : emptyDoc();
  }

  /** The validation annotations of a JSDoc; a tag that cannot be honoured is an error at the node. */
  private readAnnotations(doc: Doc, node: Node): Constraints | undefined {
    const { constraints, problems } = readConstraints(doc);
    for (const problem of problems) this.fail(node, ErrorCode.UnsupportedAnnotation, problem);
    return constraints;
  }

  private rejectTypeParameters(node: TsInterface | TsTypeAlias): void {
    const parameters = node.getTypeParameters();
    if (parameters.length > 0) {
      this.fail(
        parameters[0]!,
        ErrorCode.Generic,
        `${node.getName()} has type parameters; generic schema types are not supported`,
      );
    }
  }

  private rejectModifiers(node: Node, allowed: SyntaxKind[]): void {
    if (!Node.isModifierable(node)) return;
    for (const modifier of node.getModifiers()) {
      if (!allowed.includes(modifier.getKind())) {
        this.fail(modifier, ErrorCode.UnsupportedModifier, `modifier "${modifier.getText()}" is not supported`);
      }
    }
  }

  private checkNames(declarations: ParsedDeclaration[]): void {
    const declared = new Map<string, SourceLocation>();
    for (const constant of this.constants.values()) declared.set(constant.name, constant.location);
    for (const imported of this.imported.values()) {
      declared.set(imported.local, imported.location);
      declared.set(imported.name, imported.location);
    }
    for (const declaration of declarations) {
      const previous = declared.get(declaration.name);
      if (previous) {
        this.problems.push(
          problemAt(
            ErrorCode.Duplicate,
            `${declaration.name} is already declared at line ${previous.line}`,
            declaration.location,
          ),
        );
      }
      declared.set(declaration.name, declaration.location);
    }
    const types = new Set([...declarations.map((d) => d.name), ...[...this.imported.values()].map((i) => i.name)]);
    for (const reference of this.references) {
      if (!types.has(reference.name)) {
        this.problems.push(
          problemAt(
            ErrorCode.UnknownReference,
            `type ${reference.name} is not declared in this schema`,
            reference.location,
          ),
        );
      }
    }
  }

  private fail(node: Node, code: ErrorCode, message: string): void {
    this.problems.push(problemAt(code, message, this.locationOf(node)));
  }

  private locationOf(node: Node): SourceLocation {
    return this.locationAt(node.getStart());
  }

  private locationAt(position: number): SourceLocation {
    // The compiler's own lookup uses its cached line starts; ts-morph's
    // getLineAndColumnAtPos scans the text from the start on every call.
    const { line, character } = this.sourceFile.compilerNode.getLineAndCharacterOfPosition(position);
    return { file: this.input.file, line: line + 1, column: character + 1 };
  }
}

/** The value of a string, number (optionally negated) or boolean literal expression. */
function literalValue(node: Node): string | number | boolean | undefined {
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
