// Which module each revision's check functions are printed in. Revisions
// repeat most of their types, so most check functions are the same from one
// revision to the next. A function whose text consecutive revisions have alike
// is printed once, in checks/<first>--<last>.ts for that run of revisions; a
// function only one revision has is printed in the revision's own checks.ts.
//
// A function's text names what it calls, and what it calls may differ between
// those revisions (a caller of a changed type's check). So a shared module
// does not import its callees: it exports `checks()`, which makes its
// functions, and `link`, which binds the names they call to one revision's
// functions. Each revision's checks.ts makes its own set of every shared
// module it uses, exports the functions it takes from them, and links them to
// all of its functions. A change to a type then prints again that type's check
// alone, not the checks that call it; the price is that a process serving
// several revisions makes (and warms) each shared function once per revision.
// Inherited members are checked by their interface's function (checks-file.ts),
// so a change to a base interface's member does not reach the extending types.
//
// The newest revision is the one that moves (a draft re-pinned as upstream
// changes it). The functions of the revision before it that it does not have
// alike are printed as if it had them (a run ending just before the newest
// ends at the newest): re-pinning it then writes its own checks.ts only, the
// functions whose text it changed, and nothing moves between the other
// modules. A process serving the newest revision loads those earlier versions
// too, at most what it changed; its own versions replace them in what it
// exports and links.
import { byCodeUnit } from "../model/order.js";
import {
  checkTexts,
  importRuntime,
  membersCheckPrefix,
  membersCheckType,
  printCheckFunctions,
  type CheckCatalog,
  type CheckText,
} from "./check-functions.js";
import { GeneratedFile } from "./printer.js";

/** The folder of the modules several revisions share, beside the revisions' folders. */
export const sharedChecksFolder = "checks";

/** A module of check functions: a revision's own checks.ts, or one that revisions first..last share. */
interface CheckModule {
  readonly first: number;
  readonly last: number;
  readonly functions: [string, CheckText][];
}

export function checkFiles(catalogs: readonly CheckCatalog[]): GeneratedFile[] {
  const spans = checkSpans(catalogs);
  const newest = catalogs.length - 1;
  /** The module of a function of the run first..last. */
  const moduleOf = (first: number, last: number) => ({ first, last: last === newest - 1 ? newest : last });
  const path = (module: Pick<CheckModule, "first" | "last">) =>
    module.first === module.last
      ? `${catalogs[module.first]!.revision}/checks.ts`
      : `${sharedChecksFolder}/${catalogs[module.first]!.revision}--${catalogs[module.last]!.revision}.ts`;

  // Each function goes into the module of its span, printed in the order of the span's first revision.
  const modules = new Map<string, CheckModule>();
  catalogs.forEach((catalog, i) => {
    modules.set(path({ first: i, last: i }), { first: i, last: i, functions: [] });
    for (const [name, fn] of catalog.functions) {
      const [first, last] = spans[i]!.get(name)!;
      if (first !== i) continue; // printed with the span's first revision
      const module = moduleOf(first, last);
      const key = path(module);
      if (!modules.has(key)) modules.set(key, { ...module, functions: [] });
      modules.get(key)!.functions.push([name, fn]);
    }
  });

  const files: GeneratedFile[] = [];
  for (const [key, module] of [...modules].sort(([a], [b]) => byCodeUnit(a, b))) {
    if (module.first !== module.last) {
      const [first, last] = [catalogs[module.first]!.revision, catalogs[module.last]!.revision];
      const file = new GeneratedFile(key, {
        source: `MCP schema revisions ${first} to ${last}`,
        details: ["Check functions these revisions share, each printed once (see their checks.ts)."],
      });
      printSharedModule(file, module.functions, `${first} to ${last}`);
      files.push(file);
      continue;
    }
    const file = new GeneratedFile(key, catalogs[module.first]!.header);
    const shared = [...modules]
      .filter(([, m]) => m.first !== m.last && m.first <= module.first && module.first <= m.last)
      .sort(([a], [b]) => byCodeUnit(a, b));
    if (shared.length > 0)
      printSharedInstances(
        file,
        shared.map(([target, m]) => ({
          path: target,
          first: catalogs[m.first]!.revision,
          last: catalogs[m.last]!.revision,
          functions: m.functions,
        })),
        module.functions.map(([name]) => name),
      );
    printCheckFunctions(file, module.functions);
    files.push(file);
  }
  return files;
}

/**
 * A shared module: a function making the module's check functions, as the
 * methods of an object, and binding the names they call (each other's too) to
 * the versions of the revision that made them (link). So a function is
 * printed once for the run of revisions that have its text alike, whether or
 * not what it calls is alike too; each revision's checks.ts makes and links
 * its own set.
 */
function printSharedModule(file: GeneratedFile, functions: readonly [string, CheckText][], revisions: string): void {
  const texts = checkTexts(file, functions);
  const callees = calleesOf(functions);
  const check = callees.length > 0 ? importRuntime(file, "Check") : "";
  const typeOf = (name: string) => {
    if (!name.startsWith(membersCheckPrefix)) return check;
    importRuntime(file, "Failure");
    return membersCheckType;
  };
  file.print(
    [
      `/** The check functions of revisions ${revisions}, each revision's own set, to be linked to the checks it calls in that revision. */`,
      `export function checks() {`,
      ...(callees.length > 0 ? [`let ${callees.map((name) => `${name}: ${typeOf(name)}`).join(", ")};`] : []),
      `const functions = {`,
      texts.map((text) => `${text},`).join("\n\n"),
      `};`,
      callees.length > 0
        ? `return { functions, link(checks: { ${callees.map((name) => `${name}: ${typeOf(name)}`).join("; ")} }): void { ({ ${callees.join(", ")} } = checks); } };`
        : `return { functions };`,
      `}`,
    ].join("\n"),
  );
}

/**
 * A revision's checks.ts makes its set of each shared module it uses, exports
 * the functions it takes from them (all but those it has its own version of:
 * the newest revision's changes), and links them to every check function of
 * the revision.
 */
function printSharedInstances(
  file: GeneratedFile,
  shared: readonly { path: string; first: string; last: string; functions: readonly [string, CheckText][] }[],
  own: readonly string[],
): void {
  const ownNames = new Set(own);
  const id = (module: (typeof shared)[number]) => `${module.first}__${module.last}`.replace(/[^\w$]/g, "_");
  const lines: string[] = [];
  for (const module of shared) {
    const make = file.importValue(`../${module.path.replace(/\.ts$/, ".js")}`, "checks", `make_${id(module)}`);
    lines.push(`const shared_${id(module)} = ${make}();`);
  }
  for (const module of shared) {
    const taken = module.functions.map(([name]) => name).filter((name) => !ownNames.has(name));
    if (taken.length > 0) lines.push(`export const { ${taken.join(", ")} } = shared_${id(module)}.functions;`);
  }
  const every = [...shared.map((module) => `...shared_${id(module)}.functions`), ...own].join(", ");
  lines.push(`const revisionChecks = { ${every} };`);
  for (const module of shared)
    if (calleesOf(module.functions).length > 0) lines.push(`shared_${id(module)}.link(revisionChecks);`);
  file.print(lines.join("\n"));
}

/**
 * For each revision, each of its check functions' span: the first and last of
 * the consecutive revisions around it that have the function alike.
 */
function checkSpans(catalogs: readonly CheckCatalog[]): Map<string, [number, number]>[] {
  const alikeWithPrevious = catalogs.map((catalog, i) =>
    i === 0 ? new Set<string>() : sameTexts(catalogs[i - 1]!, catalog),
  );
  const firsts = new Array<Map<string, number>>(catalogs.length);
  catalogs.forEach((catalog, i) => {
    firsts[i] = new Map();
    for (const name of catalog.functions.keys())
      firsts[i]!.set(name, alikeWithPrevious[i]!.has(name) ? firsts[i - 1]!.get(name)! : i);
  });
  const spans = new Array<Map<string, [number, number]>>(catalogs.length);
  for (let i = catalogs.length - 1; i >= 0; i--) {
    spans[i] = new Map();
    for (const name of catalogs[i]!.functions.keys()) {
      const last = alikeWithPrevious[i + 1]?.has(name) ? spans[i + 1]!.get(name)![1] : i;
      spans[i]!.set(name, [firsts[i]!.get(name)!, last]);
    }
  }
  return spans;
}

/** The functions of `current` whose text is the same in `previous` (what they call may differ). */
function sameTexts(previous: CheckCatalog, current: CheckCatalog): Set<string> {
  const alike = new Set<string>();
  for (const [name, fn] of current.functions) if (previous.functions.get(name)?.text === fn.text) alike.add(name);
  return alike;
}

/** The names `functions` call, each once. */
function calleesOf(functions: readonly [string, CheckText][]): string[] {
  return [...new Set(functions.flatMap(([, fn]) => fn.callees))].sort(byCodeUnit);
}
