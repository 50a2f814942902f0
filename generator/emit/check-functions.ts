// The check functions of one checks.ts as they are built (checks-file.ts
// writes their bodies): each function's text, the check functions it calls and
// the runtime names it uses, the pattern constants, and the printing. Printing
// can leave out the functions a revision imports from the one before it
// (check-sharing.ts); a function's runtime imports come with it.
import { byCodeUnit } from "../model/order.js";
import { codegen, type GeneratedFile } from "./printer.js";

/** A check function: its doc comment, signature (ending in "{") and body, one statement a line. */
interface CheckFunction {
  comment: string;
  signature: string;
  body: string[];
}

/**
 * A revision's check functions as the next revision's emitter compares them:
 * by name, the function's text (pattern constants spelled out) and the check
 * functions it calls.
 */
export interface CheckCatalog {
  readonly revision: string;
  readonly functions: ReadonlyMap<string, { readonly text: string; readonly callees: readonly string[] }>;
}

export class CheckFunctions {
  /** Function name → its parts (null while its body is built), in the order created. */
  private readonly functions = new Map<string, CheckFunction | null>();
  /** Function name → the check functions its body calls. */
  private readonly callees = new Map<string, Set<string>>();
  /** Function name → the runtime names it uses, imported when it is printed. */
  private readonly runtimeNames = new Map<string, Set<string>>();
  /** The functions whose bodies are being built, innermost last. */
  private readonly building: string[] = [];
  /** Pattern source → the name of its RegExp constant. */
  private readonly patterns = new Map<string, string>();

  constructor(private readonly file: GeneratedFile) {}

  has(name: string): boolean {
    return this.functions.has(name);
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
      signature: `export function ${name}(v: unknown, f: ${failure} | null): boolean {`,
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

  /** The name of the RegExp constant of a pattern. */
  pattern(source: string): string {
    let name = this.patterns.get(source);
    if (!name) {
      name = `pattern${this.patterns.size}`;
      this.patterns.set(source, name);
    }
    return name;
  }

  /** Every function so far, as the next revision's emitter compares them (call before flush). */
  catalog(revision: string): CheckCatalog {
    const spelled = (text: string) => text.replace(/\bpattern(\d+)\b/g, (name) => this.patternSource(name));
    const functions = new Map<string, { text: string; callees: readonly string[] }>();
    for (const [name, fn] of this.functions as Map<string, CheckFunction>) {
      functions.set(name, {
        text: spelled([fn.comment, fn.signature, ...fn.body].join("\n")),
        callees: [...this.callees.get(name)!].sort(byCodeUnit),
      });
    }
    return { revision, functions };
  }

  /**
   * Prints every function into the file; the functions in `shared` are
   * imported from that module and exported again instead.
   */
  flush(shared?: { readonly from: string; readonly names: ReadonlySet<string> }): void {
    const own = [...(this.functions as Map<string, CheckFunction>)].filter(([name]) => !shared?.names.has(name));
    const used = new Set(own.flatMap(([, { body }]) => body.join("\n").match(/\bpattern\d+\b/g) ?? []));
    for (const [pattern, name] of [...this.patterns].sort(([a], [b]) => byCodeUnit(a, b))) {
      if (used.has(name)) this.file.print(`const ${name} = new RegExp(${JSON.stringify(pattern)}, "u");`);
    }
    if (shared && shared.names.size > 0) {
      const names = [...shared.names].sort(byCodeUnit).map((name) => this.file.importValue(shared.from, name));
      this.file.print(`export { ${names.join(", ")} };`);
    }
    for (const [name] of own) for (const used of this.runtimeNames.get(name)!) this.importRuntime(used);
    for (const [, { comment, signature, body }] of own) this.file.print([comment, signature, ...body, "}"].join("\n"));
  }

  private patternSource(name: string): string {
    for (const [source, constant] of this.patterns)
      if (constant === name) return `new RegExp(${JSON.stringify(source)}, "u")`;
    return name;
  }

  private importRuntime(name: string): string {
    return name === "Failure" ? this.file.importType(codegen, name) : this.file.importValue(codegen, name);
  }
}
