// Diagnostics: what the parser, the model builder and the emitters report, and
// the one error that stops generation. Only the CLI prints them.
import type { Diagnostic, SourceLocation } from "./model/types.js";

/**
 * Stable codes. They are part of the CLI's contract (scripts may match on
 * them): never renumber or reuse one.
 */
export const ErrorCode = {
  // schema.ts syntax the parser does not accept (generator/parse)
  /** schema.ts is not valid TypeScript. */
  Syntax: "E_SYNTAX",
  /** A top-level statement other than an interface, type alias or const. */
  UnsupportedStatement: "E_UNSUPPORTED_STATEMENT",
  /** A type expression the parser has no rule for (conditional, mapped, keyof, ...). */
  UnsupportedType: "E_UNSUPPORTED_TYPE",
  /** A member of an interface or object type other than a property or an index signature. */
  UnsupportedMember: "E_UNSUPPORTED_MEMBER",
  /** A modifier the model cannot represent (readonly, declare, default, ...). */
  UnsupportedModifier: "E_UNSUPPORTED_MODIFIER",
  /** Type parameters on a declaration. */
  Generic: "E_GENERIC",
  /** An `extends` clause other than `Name` or `Omit<Name, "a" | ...>`, or a base that is not an object type. */
  UnsupportedHeritage: "E_UNSUPPORTED_HERITAGE",
  /** A const whose initializer is not a string, number or boolean literal, or that has a type annotation. */
  UnsupportedConst: "E_UNSUPPORTED_CONST",
  /** A name used as a type that the schema does not declare. */
  UnknownReference: "E_UNKNOWN_REFERENCE",
  /** An extension's `import type` of a name its base revision does not declare, or an import of another form. */
  UnknownImport: "E_UNKNOWN_IMPORT",
  /** Two declarations, or two members of one type, with the same name. */
  Duplicate: "E_DUPLICATE",
  /** An interface that inherits from itself. */
  ExtendsCycle: "E_EXTENDS_CYCLE",
  /** A JSDoc validation annotation (@minimum, @format, @TJS-type, ...) that cannot be honoured where it stands. */
  UnsupportedAnnotation: "E_UNSUPPORTED_ANNOTATION",
  /** A JSDoc validation annotation whose value cannot be read (`@format: uri`): a warning, the tag is ignored. */
  UnreadableAnnotation: "E_UNREADABLE_ANNOTATION",

  // the method model and the overlay (generator/model)
  /** A required const (LATEST_PROTOCOL_VERSION, JSONRPC_VERSION) is missing. */
  MissingConstant: "E_MISSING_CONSTANT",
  /** JSONRPCMessage lacks one of the four message shapes (request, notification, result, error). */
  Envelope: "E_ENVELOPE",
  /** A method type is in none of the ClientRequest/ServerRequest/ClientNotification/ServerNotification unions. */
  MethodDirection: "E_METHOD_DIRECTION",
  /** A method is listed as both request and notification, or cannot be told apart. */
  MethodKind: "E_METHOD_KIND",
  /** Several types carry one method literal and no union singles one out. */
  MethodAmbiguous: "E_METHOD_AMBIGUOUS",
  /** A request whose result neither the schema nor the overlay gives. */
  NoResult: "E_NO_RESULT",
  /** An overlay entry names a method this revision does not have. */
  OverlayUnknownMethod: "E_OVERLAY_UNKNOWN_METHOD",
  /** An overlay entry names a type this revision does not declare. */
  OverlayUnknownType: "E_OVERLAY_UNKNOWN_TYPE",
  /** An overlay entry names a capability this revision does not declare. */
  OverlayUnknownCapability: "E_OVERLAY_UNKNOWN_CAPABILITY",
  /** An overlay result entry for a request whose result the schema already gives. */
  OverlayRedundant: "E_OVERLAY_REDUNDANT",
  /** Two overlay entries for one thing. */
  OverlayDuplicate: "E_OVERLAY_DUPLICATE",
  /** The overlay's lifecycle for a revision contradicts the schema. */
  OverlayLifecycle: "E_OVERLAY_LIFECYCLE",
  /** An overlay entry's range leaves out a pinned revision whose schema shows everything the entry names. */
  OverlayRange: "E_OVERLAY_RANGE",
  /** A revision the lock does not pin: which overlay entries apply is a guess its schema does not settle (a warning). */
  OverlayGuess: "E_OVERLAY_GUESS",

  // emitters (generator/emit)
  /** A schema declaration whose name the generator also exports. */
  NameCollision: "E_NAME_COLLISION",
  /** A diff entry between two revisions that neither a generic shim rule nor generator/overlay/shims.ts covers. */
  ShimUncovered: "E_SHIM_UNCOVERED",
  /** A step with a revision the lock does not pin uses a shim overlay entry written for another pair (a warning). */
  ShimBorrowed: "E_SHIM_BORROWED",
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A diagnostic that has a place in schema.ts. */
export type LocatedDiagnostic = Diagnostic & { location: SourceLocation };

/** Stops generation; carries every error found in one schema file, in file order. */
export class SchemaError extends Error {
  readonly diagnostics: Diagnostic[];

  constructor(
    /** The schema file the diagnostics are about. */
    readonly file: string,
    diagnostics: Diagnostic[],
  ) {
    const sorted = [...diagnostics].sort(
      (a, b) =>
        (a.location?.line ?? 0) - (b.location?.line ?? 0) || (a.location?.column ?? 0) - (b.location?.column ?? 0),
    );
    super(sorted.map((d) => formatDiagnostic(d, { file })).join("\n"));
    this.name = "SchemaError";
    this.diagnostics = sorted;
  }
}

/** An error diagnostic at a node of schema.ts. */
export function problemAt(code: ErrorCode, message: string, location: SourceLocation): LocatedDiagnostic {
  return { severity: "error", code, message, location };
}

/**
 * `file:line:col: error CODE: message`, then a code frame when the schema text
 * is given. Diagnostics without a location name the file alone.
 */
export function formatDiagnostic(diagnostic: Diagnostic, options: { file?: string; text?: string } = {}): string {
  const { location } = diagnostic;
  const where = location ? `${location.file}:${location.line}:${location.column}` : options.file;
  const line = `${where ? `${where}: ` : ""}${diagnostic.severity} ${diagnostic.code}: ${diagnostic.message}`;
  if (!location || options.text === undefined) return line;
  return `${line}\n${codeFrame(options.text, location.line, location.column)}`;
}

/** The lines around `line`, numbered, with a caret under `column` (both 1-based). */
export function codeFrame(text: string, line: number, column: number, context = 2): string {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop(); // the final newline ends a line; it starts none
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const gutter = String(n).padStart(width);
    const source = lines[n - 1] ?? "";
    out.push(`${n === line ? ">" : " "} ${gutter} | ${source}`.trimEnd());
    if (n === line) out.push(`  ${" ".repeat(width)} | ${" ".repeat(Math.max(0, column - 1))}^`);
  }
  return out.join("\n");
}

/** A SchemaError with the source it came from, so the CLI can print code frames. */
export class SchemaFailure extends Error {
  constructor(
    readonly error: SchemaError,
    readonly source: { readonly file: string; readonly text: string },
  ) {
    super(error.message);
  }

  format(): string {
    return this.error.diagnostics
      .map((d) => formatDiagnostic(d, { file: this.source.file, text: this.source.text }))
      .join("\n\n");
  }
}
