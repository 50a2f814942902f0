// The model of an extension: its parsed schema resolved with its base
// revision's declarations in scope (an interface may extend a base type), then
// cut back to its own declarations. References to base types keep the base's
// names; the emitters import them from the base revision's folder.
import { resolveDeclarations } from "./resolve.js";
import type { ExtensionModel, ParsedSchema, RevisionModel, RevisionSource } from "./types.js";

export interface ExtensionInfo {
  extension: string;
  identifier: string;
  source: RevisionSource;
}

export function buildExtensionModel(schema: ParsedSchema, base: RevisionModel, info: ExtensionInfo): ExtensionModel {
  const own = new Set(schema.declarations.map((d) => d.name));
  // A resolved declaration is a parsed one plus its `resolved` shape, which resolving recomputes.
  const resolved = resolveDeclarations({ ...schema, declarations: [...base.declarations, ...schema.declarations] });
  return {
    extension: info.extension,
    identifier: info.identifier,
    base: base.revision,
    source: info.source,
    imports: schema.imports ?? [],
    declarations: resolved.filter((d) => own.has(d.name)),
    constants: schema.constants,
    diagnostics: [],
  };
}
