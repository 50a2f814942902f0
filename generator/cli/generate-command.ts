// `mcpgen generate`: schema.ts of each selected revision → generated/<rev>/ and
// spec/surface/<rev>.json, or with --check a list of the files that differ.
import { join, resolve } from "node:path";
import { SchemaError, formatDiagnostic } from "../diagnostics.js";
import { revisionOutput, rootIndexOutput, shimsOutput, surfaceOutput } from "../emit/run.js";
import type { OutputFile } from "../emit/printer.js";
import { buildExtension, buildModel, type SchemaSource } from "../generate.js";
import { extensionOutput } from "../emit/extension-files.js";
import { selectRevisions, SpecError } from "../lock/lock.js";
import type { RevisionModel } from "../model/types.js";
import { displayPath, listFiles, readOptional, replaceDirectory, writeFileCreatingDirs, type Io } from "./io.js";
import { pinnedExtensionSources, pinnedSources, schemaFileSource } from "./sources.js";
import { readLock, type SpecPaths } from "./spec-commands.js";

export interface GenerateOptions extends SpecPaths {
  revisions: string[];
  out: string;
  /** Where surface summaries go; undefined: none are written (a --schema run). */
  surface: string | undefined;
  schema?: string;
  check: boolean;
  quiet: boolean;
  json: boolean;
}

interface RevisionReport {
  revision: string;
  methods: number;
  types: number;
  files: number;
  ms: number;
  warnings: string[];
}

export async function generateCommand(io: Io, options: GenerateOptions): Promise<number> {
  const started = performance.now();
  const sources = await readSources(io, options);
  const reports: RevisionReport[] = [];
  const models: RevisionModel[] = [];
  const files: OutputFile[] = [];
  const surfaces: OutputFile[] = [];
  for (const source of sources) {
    const revisionStarted = performance.now();
    let model: RevisionModel;
    let revisionFiles: OutputFile[];
    try {
      model = buildModel(source);
      revisionFiles = await revisionOutput(model);
    } catch (error) {
      if (error instanceof SchemaError) throw new SchemaFailure(error, source);
      throw error;
    }
    models.push(model);
    files.push(...revisionFiles);
    if (options.surface !== undefined) surfaces.push(surfaceOutput(model));
    const report: RevisionReport = {
      revision: model.revision,
      methods: model.methods.length,
      types: model.declarations.length,
      files: revisionFiles.length,
      ms: Math.round(performance.now() - revisionStarted),
      warnings: model.diagnostics.map((d) => formatDiagnostic(d, { file: source.file })),
    };
    reports.push(report);
    if (!options.quiet && !options.json) {
      io.stderr(
        `${options.check ? "checked" : "generated"} ${report.revision.padEnd(12)} ${String(report.methods).padStart(3)} methods ${String(report.types).padStart(4)} types  ${report.ms} ms\n`,
      );
    }
    if (!options.json) for (const warning of report.warnings) io.stderr(`${warning}\n`);
  }
  // Extensions whose base revision was generated (none for a --schema run: nothing pins them to it).
  const extensionSources =
    options.schema === undefined
      ? await pinnedExtensionSources(
          io,
          options,
          await readLock(io, options),
          models.map((m) => m.revision),
        )
      : [];
  for (const source of extensionSources) {
    const extensionStarted = performance.now();
    const base = models.find((m) => m.revision === source.base)!;
    let extensionFiles: OutputFile[];
    let types: number;
    try {
      const model = buildExtension(source, base);
      types = model.declarations.length;
      extensionFiles = await extensionOutput(model, base);
    } catch (error) {
      if (error instanceof SchemaError) throw new SchemaFailure(error, source);
      throw error;
    }
    files.push(...extensionFiles);
    if (!options.quiet && !options.json)
      io.stderr(
        `${options.check ? "checked" : "generated"} ${`ext/${source.extension}`.padEnd(12)} ${String(types).padStart(17)} types  ${Math.round(performance.now() - extensionStarted)} ms (on ${source.base})\n`,
      );
  }
  const shims = await shimsOutput(models);
  files.push(...shims.files);
  if (!options.json)
    for (const warning of shims.warnings)
      io.stderr(`${formatDiagnostic(warning, { file: "generator/overlay/shims.ts" })}\n`);
  files.push(await rootIndexOutput(models, extensionSources));

  const totalMs = Math.round(performance.now() - started);
  if (options.check) {
    const differences = await compareOutput(io, options, files, surfaces);
    if (options.json)
      io.stdout(
        `${JSON.stringify({ ok: differences.length === 0, differences, revisions: reports, ms: totalMs }, null, 2)}\n`,
      );
    else if (differences.length > 0) {
      io.stderr(`mcpgen: generate --check: ${differences.length} file(s) differ from a fresh generation:\n`);
      for (const d of differences) io.stderr(`  ${d.status.padEnd(8)} ${d.path}\n`);
    } else if (!options.quiet) io.stderr(`up to date: ${files.length + surfaces.length} files in ${totalMs} ms\n`);
    return differences.length === 0 ? 0 : 1;
  }

  await writeOutput(options, files, surfaces);
  if (options.json)
    io.stdout(`${JSON.stringify({ out: displayPath(io, options.out), revisions: reports, ms: totalMs }, null, 2)}\n`);
  else if (!options.quiet)
    io.stderr(`generated ${models.length} revision(s) into ${displayPath(io, options.out)} in ${totalMs} ms\n`);
  return 0;
}

/** A SchemaError with the source it came from, so the CLI can print code frames. */
export class SchemaFailure extends Error {
  constructor(
    readonly error: SchemaError,
    readonly source: Pick<SchemaSource, "file" | "text">,
  ) {
    super(error.message);
  }

  format(): string {
    return this.error.diagnostics
      .map((d) => formatDiagnostic(d, { file: this.source.file, text: this.source.text }))
      .join("\n\n");
  }
}

async function readSources(io: Io, options: GenerateOptions): Promise<SchemaSource[]> {
  if (options.schema !== undefined) {
    const [revision, ...extra] = options.revisions;
    if (revision === undefined || extra.length > 0)
      throw new SpecError("--schema needs exactly one --rev NAME to call the revision");
    return [await schemaFileSource(io, options.schema, revision)];
  }
  const lock = await readLock(io, options);
  return pinnedSources(
    io,
    options,
    lock,
    selectRevisions(lock, options.revisions).map((r) => r.name),
  );
}

/** Each folder of the output (a revision's, shims/) is replaced whole; root files are written. */
async function writeOutput(options: GenerateOptions, files: OutputFile[], surfaces: OutputFile[]): Promise<void> {
  for (const folder of outputFolders(files)) {
    const prefix = `${folder}/`;
    await replaceDirectory(
      join(options.out, folder),
      files
        .filter((f) => f.path.startsWith(prefix))
        .map((f) => ({ path: f.path.slice(prefix.length), content: f.content })),
    );
  }
  for (const file of files.filter((f) => !f.path.includes("/")))
    await writeFileCreatingDirs(join(options.out, file.path), file.content);
  if (options.surface !== undefined) {
    for (const file of surfaces) await writeFileCreatingDirs(join(options.surface, file.path), file.content);
  }
}

function outputFolders(files: readonly OutputFile[]): string[] {
  return [...new Set(files.filter((f) => f.path.includes("/")).map((f) => f.path.split("/")[0]!))];
}

interface Difference {
  path: string;
  status: "missing" | "changed" | "extra";
}

/** Every expected file that is missing or different on disk, and every stray file in a generated folder. */
async function compareOutput(
  io: Io,
  options: GenerateOptions,
  files: OutputFile[],
  surfaces: OutputFile[],
): Promise<Difference[]> {
  const expected = [
    ...files.map((f) => ({ path: join(options.out, f.path), content: f.content })),
    ...(options.surface === undefined
      ? []
      : surfaces.map((f) => ({ path: join(options.surface!, f.path), content: f.content }))),
  ];
  const differences: Difference[] = [];
  for (const file of expected) {
    const actual = await readOptional(file.path);
    if (actual === undefined) differences.push({ path: displayPath(io, file.path), status: "missing" });
    else if (Buffer.compare(Buffer.from(actual), Buffer.from(file.content)) !== 0) {
      differences.push({ path: displayPath(io, file.path), status: "changed" });
    }
  }
  const expectedPaths = new Set(expected.map((f) => resolve(f.path)));
  for (const folder of outputFolders(files)) {
    const dir = join(options.out, folder);
    for (const path of await listFiles(dir)) {
      const full = resolve(dir, path);
      if (!expectedPaths.has(full)) differences.push({ path: displayPath(io, full), status: "extra" });
    }
  }
  return differences;
}
