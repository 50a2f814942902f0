// The generator as one pure function: schema texts in, models and output files
// out. The CLI reads and writes the files; tests call this directly.
import { SchemaError } from "./diagnostics.js";
import { buildRevisionModel } from "./model/build.js";
import type { MethodOverlay } from "./model/overlay.js";
import type { Diagnostic, ExtensionModel, RevisionModel } from "./model/types.js";
import { buildExtensionModel, type ExtensionOverlay } from "./model/extension.js";
import { extensionOverlay } from "./overlay/extensions.js";
import { methodOverlay } from "./overlay/methods.js";
import { shimOverlay } from "./overlay/shims.js";
import type { ShimOverlay } from "./shims/plan.js";
import { parseSchema } from "./parse/parse-schema.js";
import { run, type GenerationOutput } from "./emit/run.js";

export interface SchemaSource {
  revision: string;
  /** The path shown in diagnostics. */
  file: string;
  text: string;
  sha256: string;
  /** The upstream commit, for revisions from the lock. */
  commit?: string;
  /** Whether the revision is pinned in spec/revisions.json (overlay mismatches are then errors). */
  locked: boolean;
}

/** Parses and models one schema. Throws SchemaError if it has errors; warnings stay in model.diagnostics. */
export function buildModel(source: SchemaSource, overlay: MethodOverlay = methodOverlay): RevisionModel {
  const parsed = parseSchema({ file: source.file, text: source.text });
  const model = buildRevisionModel(parsed, {
    revision: source.revision,
    source: {
      file: source.file,
      sha256: source.sha256,
      locked: source.locked,
      ...(source.commit ? { commit: source.commit } : {}),
    },
    overlay,
  });
  model.diagnostics.unshift(...(parsed.warnings ?? []));
  const errors = model.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new SchemaError(source.file, errors);
  return model;
}

/** An extension's schema.ts, and which revision it builds on. */
export interface ExtensionSource {
  extension: string;
  identifier: string;
  /** The revision whose types its `import type` names. */
  base: string;
  file: string;
  text: string;
  sha256: string;
  commit?: string;
  locked: boolean;
}

/** Parses and models an extension against its base revision's model. Throws SchemaError with every problem. */
export function buildExtension(
  source: ExtensionSource,
  base: RevisionModel,
  overlay: ExtensionOverlay = extensionOverlay,
): ExtensionModel {
  const parsed = parseSchema({
    file: source.file,
    text: source.text,
    base: { revision: base.revision, names: new Set(base.declarations.map((d) => d.name)) },
  });
  const model = buildExtensionModel(
    parsed,
    base,
    {
      extension: source.extension,
      identifier: source.identifier,
      source: {
        file: source.file,
        sha256: source.sha256,
        locked: source.locked,
        ...(source.commit ? { commit: source.commit } : {}),
      },
    },
    Object.prototype.hasOwnProperty.call(overlay, source.extension) ? overlay[source.extension] : undefined,
  );
  model.diagnostics.unshift(...(parsed.warnings ?? []));
  const errors = model.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new SchemaError(source.file, errors);
  return model;
}

export interface Generation extends Omit<GenerationOutput, "warnings"> {
  models: RevisionModel[];
  /** Warnings of every model, each tagged with its schema file. */
  warnings: { file: string; diagnostic: Diagnostic }[];
}

export interface Overlays {
  methods?: MethodOverlay;
  shims?: ShimOverlay;
}

export async function generate(sources: readonly SchemaSource[], overlays: Overlays = {}): Promise<Generation> {
  const models = sources.map((source) => buildModel(source, overlays.methods ?? methodOverlay));
  const output = await run(models, overlays.shims ?? shimOverlay);
  const warnings = [
    ...models.flatMap((model) => model.diagnostics.map((diagnostic) => ({ file: model.source.file, diagnostic }))),
    ...output.warnings.map((diagnostic) => ({ file: "generator/overlay/shims.ts", diagnostic })),
  ];
  return { ...output, models, warnings };
}
