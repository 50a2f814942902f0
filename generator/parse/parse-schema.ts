// schema.ts → ParsedSchema. One reader per TypeScript construct the MCP schema
// uses; anything else is reported with its location and a stable code, never
// mapped to `unknown`. Here the top level: interfaces, type aliases, consts, an
// extension's imports of its base revision's types, and the check that every
// name is declared once and every reference declared; the types inside them
// are read-types.ts's.
import type {
  ImportDeclaration,
  InterfaceDeclaration as TsInterface,
  SourceFile,
  TypeAliasDeclaration as TsTypeAlias,
  TypeNode as TsTypeNode,
  VariableStatement,
} from "ts-morph";
import { byCodeUnit } from "../model/order.js";
import type {
  Constant,
  Heritage,
  ImportedName,
  ParsedDeclaration,
  ParsedSchema,
  SourceLocation,
} from "../model/types.js";
import { ErrorCode, SchemaError, problemAt, type LocatedDiagnostic } from "../diagnostics.js";
import { Node, Project, SyntaxKind } from "./ts-morph.js";
import {
  literalValue,
  readAnnotations,
  readDoc,
  rejectModifiers,
  TypeReader,
  type SchemaContext,
} from "./read-types.js";

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

class SchemaReader implements SchemaContext {
  private readonly problems: LocatedDiagnostic[] = [];
  private readonly warnings: LocatedDiagnostic[] = [];
  /** Every type reference read, checked against the declared names at the end. */
  private readonly references: { name: string; location: SourceLocation }[] = [];
  private readonly constants = new Map<string, Constant>();
  /** An extension's imports of base types, by local name. */
  private readonly imported = new Map<string, ImportedName>();
  /** Local names of imports already refused (their uses are not reported again). */
  private readonly refusedImports = new Set<string>();
  /** Members and type expressions. */
  private readonly types = new TypeReader(this);

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
      // A stray `;` (`interface A { ... };`) is an empty statement: it declares nothing.
      else if (Node.isEmptyStatement(statement)) continue;
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
      ...(this.warnings.length > 0 ? { warnings: this.warnings } : {}),
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

  constant(name: string): Constant | undefined {
    return this.constants.get(name);
  }

  /** A type reference by name: recorded for the final check; an imported alias becomes the base's name. */
  refer(name: string, location: SourceLocation): string {
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
    rejectModifiers(this, node, [SyntaxKind.ExportKeyword]);
    const body = this.types.readMembers(node.getMembers());
    const doc = readDoc(node);
    if (readAnnotations(this, doc, node) !== undefined) {
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
    rejectModifiers(this, node, [SyntaxKind.ExportKeyword]);
    const doc = readDoc(node);
    const constraints = readAnnotations(this, doc, node);
    return {
      kind: "alias",
      name: node.getName(),
      exported: node.isExported(),
      doc,
      location: this.locationOf(node),
      type: this.types.readType(node.getTypeNodeOrThrow()),
      ...(constraints ? { constraints } : {}),
    };
  }

  private readConstant(statement: VariableStatement): void {
    rejectModifiers(this, statement, [SyntaxKind.ExportKeyword]);
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
      doc: readDoc(statement),
      location: this.locationOf(declaration),
    });
  }

  // --- shared checks ------------------------------------------------------

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

  fail(node: Node, code: ErrorCode, message: string): void {
    this.problems.push(problemAt(code, message, this.locationOf(node)));
  }

  warn(node: Node, code: ErrorCode, message: string): void {
    this.warnings.push({ ...problemAt(code, message, this.locationOf(node)), severity: "warning" });
  }

  locationOf(node: Node): SourceLocation {
    return this.locationAt(node.getStart());
  }

  private locationAt(position: number): SourceLocation {
    // The compiler's own lookup uses its cached line starts; ts-morph's
    // getLineAndColumnAtPos scans the text from the start on every call.
    const { line, character } = this.sourceFile.compilerNode.getLineAndCharacterOfPosition(position);
    return { file: this.input.file, line: line + 1, column: character + 1 };
  }
}
