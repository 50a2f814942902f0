// run(): revision models in, output files out. Pure: no file system, no clock;
// the same models give the same bytes.
import { ErrorCode, SchemaError, problemAt, type LocatedDiagnostic } from "../diagnostics.js";
import { compareRevisions } from "../model/revision-order.js";
import type { Diagnostic, RevisionModel, SourceLocation } from "../model/types.js";
import { shimOverlay } from "../overlay/shims.js";
import type { ShimOverlay } from "../shims/plan.js";
import { emitShapes, emitShimIndex, emitStep, planAdjacent, stepFile } from "./shims-files.js";
import { outputOf } from "./format.js";
import { emitMethods } from "./methods-file.js";
import { GeneratedFile, type FileHeader, type FileLayout, type OutputFile } from "./printer.js";
import { emitRevision, emitRevisionIndex } from "./revision-file.js";
import { emitRootIndex, type ExtensionEntry } from "./root-index-file.js";
import { surfaceOf } from "./surface.js";
import { emitTypes } from "./types-file.js";
import { emitChecks } from "./checks-file.js";
import type { CheckCatalog } from "./check-functions.js";
import { checkFiles } from "./check-sharing.js";
import { printGuards } from "./guards-file.js";
import { emitTables } from "./tables-file.js";
import { printValidators } from "./validators-file.js";
import { fixedExports, typeExportNames } from "./export-names.js";

export interface GenerationOutput {
  /** Files relative to the output directory: `<rev>/types.ts`, ..., `shims/...`, `index.ts`. */
  files: OutputFile[];
  /** Surface summaries, relative to the surface directory: `<rev>.json`. */
  surfaces: OutputFile[];
  /** Shim steps that cover less than every diff entry, for revisions not pinned (else they are errors). */
  warnings: Diagnostic[];
}

/**
 * The folders of `models` and the check modules they share (checks/), before
 * prettier: each revision's check functions are printed once per run of
 * consecutive revisions that have them alike (check-sharing.ts).
 */
export function revisionFolders(models: readonly RevisionModel[]): GeneratedFile[] {
  const folders = [...models].sort((a, b) => compareRevisions(a.revision, b.revision)).map(revisionFolder);
  return [...folders.flatMap((folder) => folder.files), ...checkFiles(folders.map((folder) => folder.checks))];
}

/** The files of one revision's folder, before prettier (its checks all its own). */
export function revisionFiles(model: RevisionModel): GeneratedFile[] {
  const folder = revisionFolder(model);
  return [...folder.files, ...checkFiles([folder.checks])];
}

/**
 * The files of one revision's folder, before prettier, but checks.ts, and the
 * catalog of its check functions, which checkFiles prints into checks.ts and
 * the modules it shares with the revisions beside it.
 */
export function revisionFolder(model: RevisionModel): { files: GeneratedFile[]; checks: CheckCatalog } {
  checkNameCollisions(model);
  const header = revisionHeader(model);
  const at = (name: string, layout?: FileLayout) => new GeneratedFile(`${model.revision}/${name}`, header, layout);
  const types = at("types.ts", "prettier");
  emitTypes(types, model);
  const methods = at("methods.ts");
  emitMethods(methods, model);
  const revision = at("revision.ts");
  emitRevision(revision, model);
  const names = typeExportNames(model);
  const checkEmitter = emitChecks(at("checks.ts"), model);
  const tables = at("tables.ts");
  emitTables(tables, model, checkEmitter);
  const validators = at("validators.ts");
  printValidators(validators, model.declarations, names);
  const guards = at("guards.ts");
  printGuards(guards, model.declarations, names);
  // Last: tables.ts may have asked for more check functions.
  const checks = checkEmitter.catalog(model.revision, header);
  const index = at("index.ts", "prettier");
  emitRevisionIndex(index);
  return { files: [types, methods, revision, tables, validators, guards, index], checks };
}

/**
 * A revision's check catalog alone, as revisionFolder gives it: what the
 * check modules are laid out from when the folder of this revision is already
 * in the output and not generated again.
 */
export function revisionChecks(model: RevisionModel): CheckCatalog {
  const header = revisionHeader(model);
  const checkEmitter = emitChecks(new GeneratedFile(`${model.revision}/checks.ts`, header), model);
  emitTables(new GeneratedFile(`${model.revision}/tables.ts`, header), model, checkEmitter);
  return checkEmitter.catalog(model.revision, header);
}

function revisionHeader(model: RevisionModel): FileHeader {
  return {
    source: `MCP schema revision ${model.revision}`,
    details: [
      `schema.ts sha256 ${model.source.sha256}${model.source.commit ? `, upstream commit ${model.source.commit}` : ""}`,
    ],
  };
}

/** Generates every file for a set of revisions; the root index lists them oldest first. */
export async function run(
  models: readonly RevisionModel[],
  overlay: ShimOverlay = shimOverlay,
): Promise<GenerationOutput> {
  const ordered = [...models].sort((a, b) => compareRevisions(a.revision, b.revision));
  const revisions = await outputsOf(revisionFolders(ordered));
  const shims = await shimsOutput(ordered, overlay);
  return {
    files: [...revisions, ...shims.files, await rootIndexOutput(ordered, [])],
    surfaces: ordered.map(surfaceOutput),
    warnings: shims.warnings,
  };
}

/**
 * generated/shims/ for revisions in order: their shapes, a plan per adjacent
 * pair, and the index. A diff entry covered by no rule is an error when both
 * revisions of the step are pinned, and a warning otherwise.
 */
export async function shimsOutput(
  models: readonly RevisionModel[],
  overlay: ShimOverlay = shimOverlay,
): Promise<{ files: OutputFile[]; warnings: Diagnostic[] }> {
  const { files, warnings } = shimFiles(models, overlay);
  return { files: await outputsOf(files), warnings };
}

/** The files of generated/shims/, before prettier (see shimsOutput). */
export function shimFiles(
  models: readonly RevisionModel[],
  overlay: ShimOverlay = shimOverlay,
): { files: GeneratedFile[]; warnings: Diagnostic[] } {
  const ordered = [...models].sort((a, b) => compareRevisions(a.revision, b.revision));
  const header = (source: string) => ({
    source,
    details: ["Plans derived from the revisions' diff and generator/overlay/shims.ts."],
  });
  const files: GeneratedFile[] = [];
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const model of ordered) {
    const file = new GeneratedFile(`shims/${model.revision}.ts`, header(`MCP schema revision ${model.revision}`));
    emitShapes(file, model);
    files.push(file);
  }
  for (let i = 1; i < ordered.length; i++) {
    const [older, newer] = [ordered[i - 1]!, ordered[i]!];
    const step = planAdjacent(older, newer, overlay);
    const pinned = older.source.locked && newer.source.locked;
    for (const u of step.uncovered) {
      const [from, to] =
        u.direction === "upgrade" ? [older.revision, newer.revision] : [newer.revision, older.revision];
      (pinned ? errors : warnings).push({
        severity: pinned ? "error" : "warning",
        code: ErrorCode.ShimUncovered,
        message: `${from} → ${to}: ${u.id}: ${u.reason}`,
      });
    }
    for (const b of step.borrowed) {
      const [from, to] =
        b.direction === "upgrade" ? [older.revision, newer.revision] : [newer.revision, older.revision];
      warnings.push({
        severity: "warning",
        code: ErrorCode.ShimBorrowed,
        message: `${from} → ${to}: ${b.entry}: no entry was written for this pair; using the one written for ${b.between[0]} → ${b.between[1]}, a guess`,
      });
    }
    const file = new GeneratedFile(
      `shims/${stepFile(older.revision, newer.revision)}.ts`,
      header(`MCP schema revisions ${older.revision} and ${newer.revision}`),
    );
    emitStep(file, older, newer, step);
    files.push(file);
  }
  if (errors.length > 0) throw new SchemaError("generator/overlay/shims.ts", errors);
  const index = new GeneratedFile("shims/index.ts", header("the MCP schema revisions listed below"), "prettier");
  emitShimIndex(index, ordered);
  files.push(index);
  return { files, warnings };
}

/** The output files of one revision's folder (its checks all its own). */
export async function revisionOutput(model: RevisionModel): Promise<OutputFile[]> {
  return outputsOf(revisionFiles(model));
}

/** The final text of each file. */
export function outputsOf(files: readonly GeneratedFile[]): Promise<OutputFile[]> {
  return Promise.all(files.map(outputOf));
}

/** The root index.ts listing `models`, oldest first, and the extensions generated beside them. */
export function rootIndexOutput(
  models: readonly RevisionModel[],
  extensions: readonly ExtensionEntry[] = [],
): Promise<OutputFile> {
  return outputOf(rootIndexFile(models, extensions));
}

/** The root index.ts, before prettier. */
export function rootIndexFile(
  models: readonly RevisionModel[],
  extensions: readonly ExtensionEntry[] = [],
): GeneratedFile {
  const file = new GeneratedFile(
    "index.ts",
    { source: "the MCP schema revisions listed below", details: [] },
    "prettier",
  );
  emitRootIndex(
    file,
    [...models].sort((a, b) => compareRevisions(a.revision, b.revision)),
    extensions,
  );
  return file;
}

export function surfaceOutput(model: RevisionModel): OutputFile {
  return { path: `${model.revision}.json`, content: surfaceOf(model) };
}

/** A schema name that a generated export would shadow stops generation. */
function checkNameCollisions(model: RevisionModel): void {
  checkReservedNames(model.source.file, [...model.constants, ...model.declarations], fixedExports, "revision");
}

/** Stops generation (E_NAME_COLLISION) when the schema declares one of the names mcpgen generates for every `what`. */
export function checkReservedNames(
  file: string,
  declared: readonly { name: string; location: SourceLocation }[],
  reserved: readonly string[],
  what: "revision" | "extension",
): void {
  const problems: LocatedDiagnostic[] = declared
    .filter((d) => reserved.includes(d.name))
    .map((d) =>
      problemAt(
        ErrorCode.NameCollision,
        `the schema declares ${d.name}, a name mcpgen generates for every ${what}`,
        d.location,
      ),
    );
  if (problems.length > 0) throw new SchemaError(file, problems);
}
