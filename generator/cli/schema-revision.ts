// A revision the runtime package does not hold, made importable from its
// schema.ts (`validate --schema`): generated into a temporary folder, compiled
// there with TypeScript's transpiler and imported, the folder removed once
// loaded. Transpiling checks no types: the generator's output type-checks by
// construction (test/cli/generate.test.ts compiles it strictly).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as TsMorph from "ts-morph";
import { SchemaError, SchemaFailure, formatDiagnostic } from "../diagnostics.js";
import { outputsOf, revisionFiles } from "../emit/run.js";
import { buildModel } from "../generate.js";
import { SpecError } from "../lock/lock.js";
import type { Io } from "./io.js";
import { schemaFileSource } from "./sources.js";

const require = createRequire(import.meta.url);

export interface SchemaRevision<T> {
  module: T;
  /** The schema's warnings, `file:line:col: warning ...`. */
  warnings: string[];
}

/** Generates `schema` as revision `revision` (its checks all its own) and imports its index. */
export async function importSchemaRevision<T>(io: Io, schema: string, revision: string): Promise<SchemaRevision<T>> {
  const source = await schemaFileSource(io, schema, revision);
  let files;
  let warnings: string[];
  try {
    const model = buildModel(source);
    warnings = model.diagnostics.map((d) => formatDiagnostic(d, { file: source.file }));
    files = await outputsOf(revisionFiles(model));
  } catch (error) {
    if (error instanceof SchemaError) throw new SchemaFailure(error, source);
    throw error;
  }
  // Generated code imports the runtime's contract by its package name, which a temporary folder cannot
  // resolve: it is pointed at the very module the CLI loads, so that both share one copy.
  const runtime = (specifier: string) => {
    try {
      return pathToFileURL(require.resolve(specifier)).href;
    } catch (error) {
      throw new SpecError(`cannot load ${specifier}, which generated code imports: ${(error as Error).message}`);
    }
  };
  const { ts } = require("ts-morph") as typeof TsMorph;
  const dir = await mkdtemp(join(tmpdir(), "mcpgen-validate-"));
  try {
    await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
    for (const file of files) {
      const { outputText } = ts.transpileModule(file.content, {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
        fileName: file.path,
      });
      const path = join(dir, file.path.replace(/\.ts$/, ".js"));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(
        path,
        outputText.replace(
          /(from\s+)"(mcpgen\/[^"]+)"/g,
          (_, from: string, specifier: string) => `${from}"${runtime(specifier)}"`,
        ),
      );
    }
    const module = (await import(pathToFileURL(join(dir, revision, "index.js")).href)) as T;
    return { module, warnings };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
