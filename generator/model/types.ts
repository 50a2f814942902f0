// The model: plain, JSON-serialisable data describing one protocol revision.
// Nothing here refers to ts-morph; every later stage (emitters, validators, the
// diff, the shims) reads only these types.
//
// Direction and capability requirements belong to the runtime contract that the
// generated tables are typed against; the model uses the same definitions.
import type { CapabilityRequirement, Direction } from "mcpgen/runtime";

export type { CapabilityRequirement, Direction };

/** A position in a schema file, 1-based like an editor shows it. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** A JSDoc comment: the description and its block tags, in source order. */
export interface Doc {
  /** The description, one string with "\n" between lines, inline tags kept verbatim. */
  text: string;
  tags: DocTag[];
}

export interface DocTag {
  /** The tag name without "@", e.g. "category", "TJS-type", "nullable". */
  name: string;
  /** The text after the tag name, trimmed; "" for a bare tag such as `@internal`. */
  text: string;
}

export type KeywordName =
  "any" | "boolean" | "never" | "null" | "number" | "object" | "string" | "undefined" | "unknown";

/**
 * A type expression. The parser normalises spellings that mean the same thing:
 * `Array<T>` becomes an array, `Record<string, V>` an object with an index
 * signature, `(T)` is T. Everything else keeps the shape it has in schema.ts.
 */
export type TypeNode =
  KeywordType | LiteralType | ReferenceType | UnionType | IntersectionType | ArrayType | TupleType | ObjectType;

export interface KeywordType {
  kind: "keyword";
  keyword: KeywordName;
}

export interface LiteralType {
  kind: "literal";
  value: string | number | boolean;
  /** Set when the schema wrote `typeof CONST`: the constant's name. */
  constant?: string;
}

/** A reference to another declaration of the same schema, by name. */
export interface ReferenceType {
  kind: "reference";
  name: string;
}

export interface UnionType {
  kind: "union";
  members: TypeNode[];
}

export interface IntersectionType {
  kind: "intersection";
  members: TypeNode[];
}

export interface ArrayType {
  kind: "array";
  element: TypeNode;
}

export interface TupleType {
  kind: "tuple";
  elements: TypeNode[];
}

export interface ObjectType {
  kind: "object";
  properties: Property[];
  indexSignature?: IndexSignature;
}

export interface Property {
  name: string;
  optional: boolean;
  type: TypeNode;
  doc: Doc;
  location: SourceLocation;
  /** Validation annotations from the property's JSDoc, when it has any. */
  constraints?: Constraints;
}

/**
 * Validation annotations schema.ts writes as JSDoc tags for its JSON Schema
 * generator (typescript-json-schema): they are part of the schema. Each applies
 * only to values of its JSON type (minimum to numbers, format to strings, ...).
 */
export interface Constraints {
  /** `@TJS-type integer`: numbers must be integers. */
  integer?: boolean;
  /** `@nullable`: null is accepted besides the declared type. */
  nullable?: boolean;
  /** `@format`: only "byte" (base64) is asserted; other formats are annotations (see runtime/validation.ts). */
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  /** A regular expression (ECMAScript, unicode mode) strings must match. */
  pattern?: string;
}

export interface IndexSignature {
  /** The parameter name as written (`key` in `[key: string]: T`); kept for printing. */
  keyName: string;
  keyType: "string" | "number";
  type: TypeNode;
  doc: Doc;
}

/** `extends Base` or `extends Omit<Base, "a" | "b">`, as declared. */
export interface Heritage {
  name: string;
  omit: string[];
  location: SourceLocation;
}

export interface InterfaceDeclaration {
  kind: "interface";
  name: string;
  exported: boolean;
  doc: Doc;
  location: SourceLocation;
  /** The parents as written, in declaration order. */
  extends: Heritage[];
  /** Own members only, in declaration order. */
  properties: Property[];
  indexSignature?: IndexSignature;
  /** Own and inherited members with the `extends` chain applied (see model/resolve.ts). */
  resolved: ResolvedShape;
}

export interface ResolvedShape {
  /** Own properties first in declaration order, then inherited ones in the order met. */
  properties: ResolvedProperty[];
  indexSignature?: IndexSignature;
  /** Every interface this one inherits from, nearest first, each once. */
  ancestors: string[];
}

export interface ResolvedProperty extends Property {
  /** The interface that declares the property (the type itself for own members). */
  declaredIn: string;
}

export interface TypeAliasDeclaration {
  kind: "alias";
  name: string;
  exported: boolean;
  doc: Doc;
  location: SourceLocation;
  type: TypeNode;
  /** Validation annotations from the alias's JSDoc, when it has any. */
  constraints?: Constraints;
}

export type Declaration = InterfaceDeclaration | TypeAliasDeclaration;

export interface Constant {
  name: string;
  exported: boolean;
  value: string | number | boolean;
  doc: Doc;
  location: SourceLocation;
}

/** An interface as the parser sees it, before model/resolve.ts applies its `extends` chain. */
export type ParsedInterface = Omit<InterfaceDeclaration, "resolved">;
export type ParsedDeclaration = ParsedInterface | TypeAliasDeclaration;

/** What parse() reads off one schema.ts: its declarations and constants, sorted by name. */
export interface ParsedSchema {
  file: string;
  declarations: ParsedDeclaration[];
  constants: Constant[];
  /**
   * An extension's `import type { ... }` of its base revision's types, by local
   * name (only when it has any). References in `declarations` already name the
   * base type, not the local alias.
   */
  imports?: ImportedName[];
  /** What the parser read past (an annotation it could not read), in file order, when anything. */
  warnings?: Diagnostic[];
}

/** One name an extension imports from its base revision. */
export interface ImportedName {
  /** The name in the base revision. */
  name: string;
  /** The name in the extension's schema (differs with `import type { Error as JSONRPCErrorObject }`). */
  local: string;
  location: SourceLocation;
}

/** How a fact about a method was established, so reviewers can see what was derived and what was declared. */
export type Provenance = "schema-union" | "response-type" | "category" | "naming" | "overlay";

export interface MethodModel {
  /** The JSON-RPC method name, e.g. "tools/call". */
  name: string;
  kind: "request" | "notification";
  /** The message type that carries the method literal, e.g. "CallToolRequest". */
  type: string;
  direction: Direction;
  directionSource: Provenance;
  /**
   * True when the request is never sent as a JSON-RPC message of its own but
   * travels inside InputRequiredResult.inputRequests (2026-07-28 onwards).
   */
  inputRequest: boolean;
  /** The resolved `params` property; absent when the message type has none. */
  params?: {
    /** The property's type. */
    type: TypeNode;
    /** The named params type when the schema names one (e.g. "CallToolRequestParams"). */
    name?: string;
    required: boolean;
  };
  /** Requests only. */
  result?: {
    /** The type a response's `result` carries; may be a union (e.g. with InputRequiredResult). */
    type: TypeNode;
    /** The method's own result declaration, e.g. "CallToolResult". */
    name: string;
    /** The JSONRPCResultResponse subtype the schema declares for the method, if any. */
    response?: string;
    source: Provenance;
  };
  capability?: CapabilityRequirement;
  /** The @category of the message type, without backticks. */
  category?: string;
  deprecated: boolean;
}

/** Facts about a revision as a whole. */
export interface RevisionFacts {
  /** LATEST_PROTOCOL_VERSION of the schema. */
  protocolVersion: string;
  /** JSONRPC_VERSION of the schema. */
  jsonrpcVersion: string;
  /** Whether JSONRPCMessage admits arrays (JSON-RPC batches): 2025-03-26 only so far. */
  batching: boolean;
  /** Whether ClientCapabilities and ServerCapabilities have an `extensions` map (2026-07-28 onwards). */
  extensions: boolean;
  /**
   * "initialize": a stateful session opened by initialize / notifications/initialized.
   * "per-request": no handshake; every request carries version and capabilities in _meta.
   */
  lifecycle: "initialize" | "per-request";
  /** The union of requests that travel inside InputRequiredResult, when the revision has one. */
  inputRequests?: string;
  /**
   * For the "initialize" lifecycle: the methods each side may send before the
   * handshake completes, besides the handshake's own messages (from the overlay).
   */
  beforeInitialized?: { client: string[]; server: string[] };
  /**
   * JSON-RPC error codes of conditions the prose names and the schema has no
   * constant for, by condition (e.g. resourceNotFound), from the overlay.
   */
  errorCodes?: { [condition: string]: number };
  /** The members of JSONRPCMessage, by shape. */
  envelope: EnvelopeFacts;
}

/** The schema types of the four JSON-RPC message shapes, read off the JSONRPCMessage union. */
export interface EnvelopeFacts {
  /** Has `method` and `id`. */
  request: string;
  /** Has `method`, no `id`. */
  notification: string;
  /** Has `result`. */
  resultResponse: string;
  /** Has `error`. */
  errorResponse: string;
  /** Whether the error response's `id` is required (optional from 2025-11-25 on). */
  errorIdRequired: boolean;
}

export interface Diagnostic {
  severity: "error" | "warning";
  code: string;
  message: string;
  location?: SourceLocation;
}

export interface RevisionSource {
  /** The schema.ts file the model was read from, as given to the generator. */
  file: string;
  sha256: string;
  /** The upstream commit when the revision comes from the lock. */
  commit?: string;
  /** True when the revision is pinned in spec/revisions.json. */
  locked: boolean;
}

export interface RevisionModel {
  revision: string;
  source: RevisionSource;
  facts: RevisionFacts;
  declarations: Declaration[];
  constants: Constant[];
  /** Sorted by method name. */
  methods: MethodModel[];
  /** What the model builder could not settle. Errors stop generation; warnings are printed. */
  diagnostics: Diagnostic[];
  /**
   * What the model builder assumed for a revision the lock does not pin, where
   * its schema does not settle which overlay entries apply (each is also a
   * warning). Absent when there is nothing to say.
   */
  guesses?: OverlayGuess[];
}

/** An overlay entry applied, or left out, on a guess (see generator/model/overlay.ts). */
export interface OverlayGuess {
  /** The entry in generator/overlay/methods.ts, e.g. "capabilities[tasks/get]". */
  entry: string;
  /** Whether it is about one method or the revision as a whole. */
  about: "method" | "revision";
  /** The method, or the revision fact ("lifecycle", "inputRequests"). */
  subject: string;
  /** What was assumed, in words. */
  note: string;
}

/**
 * An extension (negotiated in `capabilities.extensions`): its own declarations,
 * resolved with its base revision's types in scope. Base types it uses stay the
 * base's (imported), never copied.
 */
export interface ExtensionModel {
  /** Folder and import name: generated/ext/<name>/, mcpgen/ext/<name>. */
  extension: string;
  /** The key in `capabilities.extensions`, e.g. "io.modelcontextprotocol/tasks". */
  identifier: string;
  /** The revision whose types it imports. */
  base: string;
  source: RevisionSource;
  /** The base types it imports, by local name. */
  imports: ImportedName[];
  /** Its own declarations, code-unit order. */
  declarations: Declaration[];
  constants: Constant[];
  /** Its methods, sorted by name: direction from the overlay, the capability its receiver must declare. */
  methods: MethodModel[];
  /** Base requests that may answer one of its types instead (from the overlay), by method. */
  augments: { [method: string]: string[] };
  /** Its requests whose Mcp-Name header carries a params field (Streamable HTTP), by method: the field. */
  nameHeaders: { [method: string]: string };
  /** Params members of its requests that the receiver checks entry by entry itself, by method (from the overlay). */
  selfChecked: { [method: string]: string[] };
  diagnostics: Diagnostic[];
}
