// Which module each revision's check functions are printed in. Revisions
// repeat most of their types, so most check functions are the same from one
// revision to the next. A function that consecutive revisions have alike (its
// text, and everything it calls alike too) is printed once, in
// checks/<first>--<last>.ts for that run of revisions; a function only one
// revision has is printed in the revision's own checks.ts, which also
// re-exports the shared modules that hold its other checks. So a process
// serving one revision loads only check functions that revision has, and one
// serving several loads and warms each shared function once.
//
// The newest revision is the one that moves (a draft re-pinned as upstream
// changes it). The functions of the revision before it that it does not have
// alike are printed as if it had them (a run ending just before the newest
// ends at the newest): re-pinning it then writes its own checks.ts only, the
// functions it changed (the changed type's check and the checks that call it,
// which name what they call), and nothing moves between the other modules. A
// process serving the newest revision loads those earlier versions too, at
// most what it changed; its own checks.ts exports its own versions, which
// take precedence over a re-exported one of the same name.
import { byCodeUnit } from "../model/order.js";
import { printCheckFunctions, type CheckCatalog, type CheckText } from "./check-functions.js";
import { GeneratedFile } from "./printer.js";

/** The folder of the modules several revisions share, beside the revisions' folders. */
export const sharedChecksFolder = "checks";

/** A module of check functions: a revision's own checks.ts, or one that revisions first..last share. */
interface CheckModule {
  readonly first: number;
  readonly last: number;
  readonly functions: [string, CheckText][];
}

/**
 * The check files of `catalogs` (in revision order): each revision's
 * checks.ts, which exports every check function of the revision, and the
 * modules in checks/ that hold the functions several of them have alike.
 */
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
    const own = module.first === module.last;
    const header = own
      ? catalogs[module.first]!.header
      : {
          source: `MCP schema revisions ${catalogs[module.first]!.revision} to ${catalogs[module.last]!.revision}`,
          details: ["Check functions these revisions share, each printed once (see their checks.ts)."],
        };
    const file = new GeneratedFile(key, header);
    const from = (target: string) =>
      own ? `../${target.replace(/\.ts$/, ".js")}` : `./${target.slice(sharedChecksFolder.length + 1, -3)}.js`;
    // A callee lives in a module whose span holds this one's; the span's first revision names which.
    for (const [, fn] of module.functions) {
      for (const callee of fn.callees) {
        const [first, last] = spans[module.first]!.get(callee)!;
        const target = path(moduleOf(first, last));
        if (target !== key) file.importValue(from(target), callee);
      }
    }
    if (own) {
      const shared = [...modules]
        .filter(([, m]) => m.first !== m.last && m.first <= module.first && module.first <= m.last)
        .map(([target]) => target)
        .sort(byCodeUnit);
      if (shared.length > 0) file.print(shared.map((target) => `export * from "${from(target)}";`).join("\n"));
    }
    printCheckFunctions(file, module.functions);
    files.push(file);
  }
  return files;
}

/**
 * For each revision, each of its check functions' span: the first and last of
 * the consecutive revisions around it that have the function alike.
 */
function checkSpans(catalogs: readonly CheckCatalog[]): Map<string, [number, number]>[] {
  const alikeWithPrevious = catalogs.map((catalog, i) =>
    i === 0 ? new Set<string>() : sameChecks(catalogs[i - 1]!, catalog),
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

/** The functions of `current` that are the same in `previous`, and so is everything they call. */
export function sameChecks(previous: CheckCatalog, current: CheckCatalog): Set<string> {
  const shared = new Set<string>();
  for (const [name, fn] of current.functions) if (previous.functions.get(name)?.text === fn.text) shared.add(name);
  // Only with everything it calls: drop the rest until none is left to drop (recursive types call themselves).
  for (let dropped = true; dropped;) {
    dropped = false;
    for (const name of shared) {
      if (current.functions.get(name)!.callees.some((callee) => !shared.has(callee))) {
        shared.delete(name);
        dropped = true;
      }
    }
  }
  return shared;
}
