// The check functions of one revision as they are built (checks-file.ts
// writes their bodies): each function's text, the check functions it calls and
// the runtime names it uses. The catalog of them is
// what check-sharing.ts lays out into modules, and printCheckFunctions prints
// any selection of them into a file, with the constants and imports it needs:
// as exported function declarations, or as the methods of an object literal
// (a shared module's, check-sharing.ts). The text is the same in both but for
// `export function ` before the name, so what is compared is the method form.
import { byCodeUnit } from "../model/order.js";
import { codegen, type FileHeader, type GeneratedFile } from "./printer.js";

/** A check function: its doc comment, signature (ending in "{") and body, one statement a line. */
interface CheckFunction {
  comment: string;
  signature: string;
  body: string[];
}

/**
 * A check function as it is printed and compared: its whole text (a one-line
 * doc comment, then `name(v: ..., f: ...): boolean {`, the body and `}`;
 * patterns spelled out as `new RegExp(...)`), the check functions it calls
 * and the runtime names it uses.
 */
export interface CheckText {
  readonly text: string;
  readonly callees: readonly string[];
  readonly runtime: readonly string[];
}

/** A revision's check functions, in the order they are printed, and the header of its checks.ts. */
export interface CheckCatalog {
  readonly revision: string;
  readonly header: FileHeader;
  readonly functions: ReadonlyMap<string, CheckText>;
}

/**
 * The prefix of a function that checks the members one interface declares, on
 * a value its caller found to be an object (checks-file.ts): its first
 * parameter is typed so.
 */
export const membersCheckPrefix = "membersOf";

/** The type of a function checking an object's members, spelled where a module names one it calls. */
export const membersCheckType = "(v: Record<string, unknown>, f: Failure | null) => boolean";

export class CheckFunctions {
  /** Function name → its parts (null while its body is built), in the order created. */
  private readonly functions = new Map<string, CheckFunction | null>();
  /** Function name → the check functions its body calls. */
  private readonly callees = new Map<string, Set<string>>();
  /** Function name → the runtime names it uses, imported when it is printed. */
  private readonly runtimeNames = new Map<string, Set<string>>();
  /** The functions whose bodies are being built, innermost last. */
  private readonly building: string[] = [];

  constructor(private readonly file: GeneratedFile) {}

  has(name: string): boolean {
    return this.functions.has(name);
  }

  /** Takes back a function that turned out to check nothing (nothing may call it yet). */
  retract(name: string): void {
    this.functions.delete(name);
    this.callees.delete(name);
    this.runtimeNames.delete(name);
  }

  /** Whether the function's body checks nothing but returns true. */
  checksNothing(name: string): boolean {
    const fn = this.functions.get(name);
    return fn !== null && fn !== undefined && fn.body.length === 1 && fn.body[0] === "return true;";
  }

  /**
   * Adds a function. Its slot is taken before the body is built, so that a
   * declaration is printed before the anonymous functions its body creates.
   */
  declare(name: string, comment: string, body: () => string[]): void {
    this.functions.set(name, null);
    this.callees.set(name, new Set());
    this.runtimeNames.set(name, new Set());
    this.building.push(name);
    const failure = this.runtime("Failure");
    const lines = body();
    this.building.pop();
    this.functions.set(name, {
      comment: `/** ${comment.replace(/\*\//g, "*\\/")} */`,
      // A function checking the members of a value its caller found to be an object says so in its type.
      signature: `${name}(v: ${name.startsWith(membersCheckPrefix) ? "Record<string, unknown>" : "unknown"}, f: ${failure} | null): boolean {`,
      body: lines,
    });
  }

  /** Records that the function being built calls `name`. */
  called(name: string): string {
    const caller = this.building[this.building.length - 1];
    if (caller !== undefined) this.callees.get(caller)!.add(name);
    return name;
  }

  /** A runtime name, imported once a function that uses it is printed. */
  runtime(name: string): string {
    const user = this.building[this.building.length - 1];
    if (user === undefined) return this.importRuntime(name);
    this.runtimeNames.get(user)!.add(name);
    return name;
  }

  /** A pattern's RegExp, spelled out in the text; printCheckFunctions makes it a constant of the module. */
  pattern(source: string): string {
    return regExpOf(source);
  }

  /** Every function so far (call once every function is declared). */
  catalog(revision: string, header: FileHeader): CheckCatalog {
    const functions = new Map<string, CheckText>();
    for (const [name, fn] of this.functions as Map<string, CheckFunction>) {
      functions.set(name, {
        text: [fn.comment, fn.signature, ...fn.body, "}"].join("\n"),
        callees: [...this.callees.get(name)!].sort(byCodeUnit),
        runtime: [...this.runtimeNames.get(name)!].sort(byCodeUnit),
      });
    }
    return { revision, header, functions };
  }

  /** Prints every function into the file. */
  flush(): void {
    printCheckFunctions(this.file, [...this.catalog("", { source: "", details: [] }).functions]);
  }

  private importRuntime(name: string): string {
    return importRuntime(this.file, name);
  }
}

/** A pattern's RegExp as the texts spell it; a JSON string in a text never matches spelledRegExp (its quotes are escaped). */
const regExpOf = (source: string) => `new RegExp(${JSON.stringify(source)}, "u")`;
const spelledRegExp = /new RegExp\(("(?:[^"\\]|\\.)*"), "u"\)/g;

/**
 * Prints check functions into a file, in the order given: first a constant
 * for each pattern they test (compiled once, when the module loads; named in
 * the order the functions use them), then the functions, as exported
 * declarations; the runtime names they use are imported. Imports of the check
 * functions they call from other modules are the caller's.
 */
export function printCheckFunctions(file: GeneratedFile, functions: readonly (readonly [string, CheckText])[]): void {
  for (const text of checkTexts(file, functions)) {
    const [comment, ...rest] = text.split("\n");
    file.print([comment, `export function ${rest.join("\n")}`].join("\n"));
  }
}

/**
 * The texts of check functions for a file (as methods: see CheckText), after
 * printing a constant for each pattern they test (compiled once, when the
 * module loads; named in the order the functions use them) and importing the
 * runtime names they use.
 */
export function checkTexts(file: GeneratedFile, functions: readonly (readonly [string, CheckText])[]): string[] {
  const constants = new Map<string, string>();
  const texts = functions.map(([, fn]) =>
    fn.text.replace(spelledRegExp, (_, source: string) => {
      const pattern = JSON.parse(source) as string;
      let name = constants.get(pattern);
      if (name === undefined) constants.set(pattern, (name = `pattern${constants.size}`));
      return name;
    }),
  );
  for (const [pattern, name] of [...constants].sort(([a], [b]) => byCodeUnit(a, b)))
    file.print(`const ${name} = ${regExpOf(pattern)};`);
  for (const [, fn] of functions) for (const name of fn.runtime) importRuntime(file, name);
  return texts;
}

export function importRuntime(file: GeneratedFile, name: string): string {
  return name === "Failure" || name === "Check" ? file.importType(codegen, name) : file.importValue(codegen, name);
}
