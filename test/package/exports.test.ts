// Each entry of the packed mcpgen package exports at run time exactly the
// values its .d.ts declares: no chunk internals under short names beside its
// API, and nothing declared that the JavaScript lacks. The declared names are
// read with the TypeScript compiler API (type-only exports left out), the
// run-time names by importing every entry in a project that installed the
// tarball (with the optional peers, so that mcpgen/jwt and mcpgen/redis load).
// Slow: it packs the package and installs it with its peers into a new project (npm).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { beforeAll, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";
import { newProject, packPackages } from "./packs.js";

interface Entry {
  /** What a user imports: "mcpgen", "mcpgen/server", "mcpgen/2025-06-18", ... */
  specifier: string;
  /** Its declarations, under the installed package. */
  types: string;
}

let installed: string;
let entries: Entry[];

beforeAll(() => {
  const root = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8"));
  const version = (name: string) => root.devDependencies?.[name] ?? root.dependencies[name];
  const project = newProject([
    packPackages().runtime,
    ...["jose", "redis", "yaml"].map((name) => `${name}@${version(name)}`),
  ]);
  installed = join(project, "node_modules", "mcpgen");
  entries = entriesOf(installed);
}, 300_000);

/** Every subpath of the manifest's exports, the "./*" pattern expanded to each folder it matches. */
function entriesOf(dir: string): Entry[] {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    exports: Record<string, string | { types: string; default: string }>;
  };
  const found: Entry[] = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === "string") continue; // ./package.json
    const specifier = (name: string) => (name === "." ? "mcpgen" : `mcpgen/${name.slice(2)}`);
    if (!subpath.includes("*")) {
      found.push({ specifier: specifier(subpath), types: join(dir, target.types) });
      continue;
    }
    const [before, after] = target.types.split("*") as [string, string];
    const walk = (relative: string): void => {
      for (const child of readdirSync(join(dir, before, relative), { withFileTypes: true })) {
        if (!child.isDirectory()) continue;
        const name = relative === "" ? child.name : `${relative}/${child.name}`;
        if (existsSync(join(dir, before, name, after))) {
          found.push({ specifier: specifier(subpath.replace("*", name)), types: join(dir, before, name, after) });
        }
        walk(name);
      }
    };
    walk("");
  }
  return found.sort((a, b) => (a.specifier < b.specifier ? -1 : 1));
}

/**
 * The values each entry's declarations let a user's code use, by specifier:
 * of every name the module exports, those that `m.name` accepts as a value
 * after `import * as m` (types, and values exported with `export type`, fail).
 */
function declaredValues(list: readonly Entry[]): Record<string, string[]> {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [join(projectRoot, "node_modules", "@types")],
  };
  const declarations = ts.createProgram(
    list.map((e) => e.types),
    options,
  );
  const checker = declarations.getTypeChecker();
  const probes = list.map((entry, i) => {
    const source = declarations.getSourceFile(entry.types);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${entry.types}: not a module`);
    const names = checker.getExportsOfModule(module).map((s) => s.name);
    const path = join(installed, "..", "..", `probe-${i}.ts`);
    const text = [
      `import * as m from ${JSON.stringify(entry.specifier)};`,
      ...names.map((n) => `m[${JSON.stringify(n)}];`),
    ];
    writeFileSync(path, text.join("\n"));
    return { entry, names, path };
  });
  const program = ts.createProgram(
    probes.map((p) => p.path),
    options,
  );
  const declared: Record<string, string[]> = {};
  for (const { entry, names, path } of probes) {
    const file = program.getSourceFile(path)!;
    const refused = new Set(
      program.getSemanticDiagnostics(file).map((d) => file.getLineAndCharacterOfPosition(d.start!).line - 1),
    );
    declared[entry.specifier] = names.filter((_, i) => !refused.has(i)).sort();
  }
  return declared;
}

/** The names each entry's module exports when imported, by specifier. */
function exportedValues(list: readonly Entry[]): Record<string, string[]> {
  const script = `const out = {};
for (const specifier of ${JSON.stringify(list.map((e) => e.specifier))})
  out[specifier] = Object.keys(await import(specifier)).sort();
process.stdout.write(JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: join(installed, "..", ".."),
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as Record<string, string[]>;
}

test("every entry exports at run time exactly the values its .d.ts declares", () => {
  expect(entries.map((e) => e.specifier)).toEqual(
    expect.arrayContaining(["mcpgen", "mcpgen/runtime", "mcpgen/runtime/codegen", "mcpgen/http", "mcpgen/ext/tasks"]),
  );
  const declared = declaredValues(entries);
  // The walk found the declarations: a revision's entry declares its validators and method table.
  expect(declared["mcpgen/2025-06-18"]).toEqual(expect.arrayContaining(["methods", "validateMessage", "isTool"]));
  expect(exportedValues(entries)).toEqual(declared);
});
