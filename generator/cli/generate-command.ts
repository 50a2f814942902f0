// `mcpgen generate`: schema.ts of each selected revision → generated/<rev>/ and
// spec/surface/<rev>.json, or with --check a list of the files that differ.
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { SchemaError, SchemaFailure, formatDiagnostic } from "../diagnostics.js";
import { outputsOf, revisionChecks, revisionFolder, rootIndexOutput, shimsOutput, surfaceOutput } from "../emit/run.js";
import { checkFiles, sharedChecksFolder } from "../emit/check-sharing.js";
import type { OutputFile } from "../emit/printer.js";
import { buildExtension, buildModel, type SchemaSource } from "../generate.js";
import { extensionOutput } from "../emit/extension-files.js";
import { selectRevisions, SpecError } from "../lock/lock.js";
import type { Diagnostic, ExtensionModel, RevisionModel } from "../model/types.js";
import { compareRevisions } from "../model/revision-order.js";
import { displayPath, listFiles, readOptional, replaceDirectory, writeFileCreatingDirs, type Io } from "./io.js";
import type { CheckCatalog } from "../emit/check-functions.js";
import type { GeneratedFile } from "../emit/printer.js";
import { pinnedExtensionSources, pinnedSources, schemaFileSource } from "./sources.js";
import { readLock, type SpecPaths } from "./spec-commands.js";

/** The output's folders that are not a revision's: what all revisions share. */
const SHARED_FOLDERS = ["shims", "ext", sharedChecksFolder] as const;

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

/** A revision's entry in --json output. */
interface RevisionReport {
  revision: string;
  methods: number;
  types: number;
  files: number;
  ms: number;
  warnings: string[];
}

/** One revision's or extension's progress line, and what its errors are reported against. */
interface Output {
  label: string;
  counts: string;
  note: string;
  /** Building its model and emitting its files (prettier's share is in the total). */
  ms: number;
  source: Pick<SchemaSource, "file" | "text">;
  /** Revisions only. */
  report?: RevisionReport;
  files: Promise<OutputFile[]>;
}

export async function generateCommand(io: Io, options: GenerateOptions): Promise<number> {
  const started = performance.now();
  const { sources, companions } = await readSources(io, options);
  const generated = await generateAll(io, options, sources, companions);
  const { outputs, models, files, surfaces } = generated;
  const reports = outputs.flatMap((output) => (output.report ? [output.report] : []));
  if (!options.json) {
    for (const output of outputs) {
      if (!options.quiet)
        io.stderr(
          `${options.check ? "checked" : "generated"} ${output.label.padEnd(12)} ${output.counts}  ${output.ms} ms${output.note}\n`,
        );
      for (const warning of output.report?.warnings ?? []) io.stderr(`${warning}\n`);
    }
    for (const warning of generated.shimWarnings)
      io.stderr(`${formatDiagnostic(warning, { file: "generator/overlay/shims.ts" })}\n`);
  }

  const totalMs = Math.round(performance.now() - started);
  if (options.check) {
    const differences = await compareOutput(io, options, generated, surfaces);
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

  await writeOutput(options, generated, surfaces);
  if (options.json)
    io.stdout(`${JSON.stringify({ out: displayPath(io, options.out), revisions: reports, ms: totalMs }, null, 2)}\n`);
  else if (!options.quiet)
    io.stderr(`generated ${models.length} revision(s) into ${displayPath(io, options.out)} in ${totalMs} ms\n`);
  return 0;
}

interface Generated {
  outputs: Output[];
  models: RevisionModel[];
  files: OutputFile[];
  /** The checks.ts of revisions already in the output: written alone, the rest of their folder left as it is. */
  companionChecks: OutputFile[];
  surfaces: OutputFile[];
  shimWarnings: Diagnostic[];
}

/**
 * Every revision's model and files, then the extensions', the shims and the
 * root index, in order; the files' output is awaited at the end. The
 * companions' models (revisions already in the output, not generated now) go
 * into what all revisions share: the shims, the root index, ext/ and the
 * check modules (their own checks.ts included).
 */
async function generateAll(
  io: Io,
  options: GenerateOptions,
  sources: SchemaSource[],
  companions: SchemaSource[],
): Promise<Generated> {
  const models: RevisionModel[] = [];
  const surfaces: OutputFile[] = [];
  const outputs: Output[] = [];
  // A file's failure is reported when its output is awaited, in order; until then it is held, not unhandled.
  const held = <T>(promise: Promise<T>): Promise<T> => {
    promise.catch(() => {});
    return promise;
  };
  const companionModels = companions.map((source) => {
    try {
      return buildModel(source);
    } catch (error) {
      if (error instanceof SchemaError) throw new SchemaFailure(error, source);
      throw error;
    }
  });
  // Every revision's check catalog, the companions' too: where each check function is printed depends on which
  // revisions beside it have it alike (check-sharing.ts), so checks/ and every checks.ts are laid out together.
  const catalogs: CheckCatalog[] = companionModels.map(revisionChecks);
  const folders: { output: Output; files: GeneratedFile[] }[] = [];
  for (const source of sources) {
    const revisionStarted = performance.now();
    let model: RevisionModel;
    try {
      model = buildModel(source);
    } catch (error) {
      if (error instanceof SchemaError) throw new SchemaFailure(error, source);
      throw error;
    }
    models.push(model);
    if (options.surface !== undefined) surfaces.push(surfaceOutput(model));
    const folder = revisionFolder(model);
    catalogs.push(folder.checks);
    const report: RevisionReport = {
      revision: model.revision,
      methods: model.methods.length,
      types: model.declarations.length,
      files: 0,
      ms: Math.round(performance.now() - revisionStarted),
      warnings: model.diagnostics.map((d) => formatDiagnostic(d, { file: source.file })),
    };
    const output: Output = {
      label: model.revision,
      counts: `${String(report.methods).padStart(3)} methods ${String(report.types).padStart(4)} types`,
      note: "",
      ms: report.ms,
      source,
      report,
      files: Promise.resolve([]),
    };
    outputs.push(output);
    folders.push({ output, files: folder.files });
  }
  catalogs.sort((a, b) => compareRevisions(a.revision, b.revision));
  // A revision from --schema shares no check module: a later generation of the lock's revisions, which
  // cannot read its schema, rewrites checks/ and must not break it nor change the pinned ones' files for it.
  const unlocked = new Set(models.filter((m) => !m.source.locked).map((m) => m.revision));
  const checks = [
    ...checkFiles(catalogs.filter((c) => !unlocked.has(c.revision))),
    ...catalogs.filter((c) => unlocked.has(c.revision)).flatMap((c) => checkFiles([c])),
  ];
  for (const { output, files } of folders) {
    const folderChecks = checks.filter((file) => file.path === `${output.label}/checks.ts`);
    output.files = held(
      outputsOf([...files, ...folderChecks]).then((done) => {
        output.report!.files = done.length;
        return done;
      }),
    );
  }
  const companionNames = new Set(companionModels.map((c) => c.revision));
  const companionChecks = held(outputsOf(checks.filter((file) => companionNames.has(file.path.split("/")[0]!))));
  const sharedChecks = held(outputsOf(checks.filter((file) => file.path.startsWith(`${sharedChecksFolder}/`))));
  const everyModel = [...models, ...companionModels].sort((a, b) => compareRevisions(a.revision, b.revision));
  // Extensions whose base revision is a pinned one in the output (the lock pins them to it, not to a revision
  // from --schema). ext/ is written whole, as shims/ is: an extension of a companion is generated again too.
  const extensionSources = await pinnedExtensionSources(
    io,
    options,
    await readLock(io, options),
    everyModel.filter((m) => m.source.locked).map((m) => m.revision),
  );
  for (const source of extensionSources) {
    const extensionStarted = performance.now();
    const base = everyModel.find((m) => m.revision === source.base)!;
    let model: ExtensionModel;
    try {
      model = buildExtension(source, base);
    } catch (error) {
      if (error instanceof SchemaError) throw new SchemaFailure(error, source);
      throw error;
    }
    const files = held(extensionOutput(model, base));
    outputs.push({
      label: `ext/${source.extension}`,
      counts: `${String(model.declarations.length).padStart(17)} types`,
      note: ` (on ${source.base})`,
      ms: Math.round(performance.now() - extensionStarted),
      source,
      files,
    });
  }
  const shims = held(shimsOutput(everyModel));
  const rootIndex = held(rootIndexOutput(everyModel, extensionSources));

  const files: OutputFile[] = [];
  for (const output of outputs) {
    try {
      files.push(...(await output.files));
    } catch (error) {
      if (error instanceof SchemaError) throw new SchemaFailure(error, output.source);
      throw error;
    }
  }
  const { files: shimFiles, warnings: shimWarnings } = await shims;
  files.push(...(await sharedChecks), ...shimFiles, await rootIndex);
  return {
    outputs,
    models,
    files,
    companionChecks: await companionChecks,
    surfaces,
    shimWarnings,
  };
}

/**
 * The revisions to generate, and their companions: the other pinned revisions
 * whose folder is in the output already. A generation of some revisions
 * writes the files all revisions share (shims/, the root index, ext/, the
 * check modules in checks/) whole, and they must go on covering those too;
 * so does each companion's checks.ts, which names the shared modules it uses.
 * A revision from --schema is added beside them the same way.
 */
async function readSources(
  io: Io,
  options: GenerateOptions,
): Promise<{ sources: SchemaSource[]; companions: SchemaSource[] }> {
  const lock = await readLock(io, options);
  const pinned = lock.revisions.map((r) => r.name);
  const tell = (line: string) => {
    if (!options.quiet && !options.json) io.stderr(`${line}\n`);
  };
  const out = displayPath(io, options.out);
  const inOutput = async (names: readonly string[]) => {
    const found: string[] = [];
    for (const name of names)
      if ((await readOptional(join(options.out, name, "index.ts"))) !== undefined) found.push(name);
    return found;
  };
  let sources: SchemaSource[];
  let names: string[];
  if (options.schema !== undefined) {
    const [revision, ...extra] = options.revisions;
    if (revision === undefined || extra.length > 0)
      throw new SpecError("--schema needs exactly one --rev NAME to call the revision");
    sources = [await schemaFileSource(io, options.schema, revision)];
    names = [revision];
    if (pinned.includes(revision) && (await inOutput(pinned.filter((n) => n !== revision))).length > 0)
      throw new SpecError(
        `--rev ${revision} names a revision the lock pins, and ${out} holds revisions generated from the lock: ` +
          `give this schema another name, or --out another folder`,
      );
  } else {
    names = selectRevisions(lock, options.revisions).map((r) => r.name);
    sources = await pinnedSources(io, options, lock, names);
  }
  const companions = await inOutput(pinned.filter((name) => !names.includes(name)));
  if (companions.length > 0)
    tell(
      `reading ${companions.join(", ")} too: the shims, the root index and the shared checks cover every revision in ${out}`,
    );
  // A revision generated from --schema earlier: its schema is not known here, so what all revisions share leaves it out.
  const unknown = await inOutput(
    (await subfolders(options.out)).filter(
      (name) => !(SHARED_FOLDERS as readonly string[]).includes(name) && ![...pinned, ...names].includes(name),
    ),
  );
  for (const name of unknown)
    tell(
      `leaving ${name} in ${out} out of the root index and the shims: the lock does not pin it ` +
        `(generate --schema again to add it back, or spec pin it)`,
    );
  return { sources, companions: await pinnedSources(io, options, lock, companions) };
}

/**
 * Each folder of the output (a revision's, shims/, checks/) is replaced whole; root files and the
 * companions' checks.ts are written.
 */
async function subfolders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

async function writeOutput(
  options: GenerateOptions,
  { files, companionChecks }: Pick<Generated, "files" | "companionChecks">,
  surfaces: OutputFile[],
): Promise<void> {
  for (const folder of outputFolders(files)) {
    const prefix = `${folder}/`;
    await replaceDirectory(
      join(options.out, folder),
      files
        .filter((f) => f.path.startsWith(prefix))
        .map((f) => ({ path: f.path.slice(prefix.length), content: f.content })),
    );
  }
  for (const file of [...files.filter((f) => !f.path.includes("/")), ...companionChecks])
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
  { files, companionChecks }: Pick<Generated, "files" | "companionChecks">,
  surfaces: OutputFile[],
): Promise<Difference[]> {
  const expected = [
    ...[...files, ...companionChecks].map((f) => ({ path: join(options.out, f.path), content: f.content })),
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
