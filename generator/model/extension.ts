// The model of an extension: its parsed schema resolved with its base
// revision's declarations in scope (an interface may extend a base type), then
// cut back to its own declarations. References to base types keep the base's
// names; the emitters import them from the base revision's folder.
import { ErrorCode } from "../diagnostics.js";
import { deriveExtensionMethods } from "./methods.js";
import { byCodeUnit } from "./order.js";
import { indexDeclarations, resolveDeclarations } from "./resolve.js";
import type { Diagnostic, ExtensionModel, ParsedSchema, RevisionModel, RevisionSource } from "./types.js";

export interface ExtensionInfo {
  extension: string;
  identifier: string;
  source: RevisionSource;
}

/** What the reviewed overlay says about one extension (generator/overlay/extensions.ts). */
export interface ExtensionRule {
  /** The prose the entry follows. */
  cite: string;
  /** Who sends each of its methods. */
  senders: { readonly [method: string]: "client" | "server" | "both" };
  /** Base methods whose result may be one of these extension types instead, once the extension is negotiated. */
  augments?: { readonly [method: string]: readonly string[] };
  /** Its requests whose Mcp-Name header carries a params field (the transport's server validation), by method. */
  nameHeaders?: { readonly [method: string]: string };
  /**
   * Params members (maps) whose entries the receiver checks one by one, where
   * the prose says entries it does not expect are ignored rather than refused:
   * the message check skips them, the handler checks the entries it uses.
   */
  selfChecked?: { readonly [method: string]: readonly string[] };
}

export type ExtensionOverlay = { readonly [extension: string]: ExtensionRule };

export function buildExtensionModel(
  schema: ParsedSchema,
  base: RevisionModel,
  info: ExtensionInfo,
  rule: ExtensionRule | undefined,
): ExtensionModel {
  const severity: Diagnostic["severity"] = info.source.locked ? "error" : "warning";
  const own = new Set(schema.declarations.map((d) => d.name));
  // A resolved declaration is a parsed one plus its `resolved` shape, which resolving recomputes.
  const resolved = resolveDeclarations({ ...schema, declarations: [...base.declarations, ...schema.declarations] });
  const index = indexDeclarations(resolved);
  const derived = deriveExtensionMethods(index, own, info.identifier, rule?.senders ?? {}, severity);
  const diagnostics = [...derived.diagnostics];
  const augments: { [method: string]: string[] } = {};
  for (const [method, types] of Object.entries(rule?.augments ?? {}).sort(([a], [b]) => byCodeUnit(a, b))) {
    if (!base.methods.some((m) => m.name === method && m.kind === "request"))
      diagnostics.push({
        severity,
        code: ErrorCode.OverlayUnknownMethod,
        message: `overlay lets ${info.extension} answer ${method}, which is not a request of ${base.revision}`,
      });
    for (const type of types)
      if (!own.has(type))
        diagnostics.push({
          severity,
          code: ErrorCode.OverlayUnknownType,
          message: `overlay names ${type} as a result of ${method}, which ${info.extension} does not declare`,
        });
    augments[method] = [...types].sort(byCodeUnit);
  }
  // Entries about the extension's own requests, sorted; one naming no request of it is reported.
  const ownRequests = <T>(entries: { readonly [method: string]: T } | undefined, what: string) => {
    const out: { [method: string]: T } = {};
    for (const [method, value] of Object.entries(entries ?? {}).sort(([a], [b]) => byCodeUnit(a, b))) {
      if (!derived.methods.some((m) => m.name === method && m.kind === "request"))
        diagnostics.push({
          severity,
          code: ErrorCode.OverlayUnknownMethod,
          message: `overlay names ${what} of ${method}, which is not a request of ${info.extension}`,
        });
      out[method] = value;
    }
    return out;
  };
  const nameHeaders = ownRequests(rule?.nameHeaders, "the Mcp-Name field");
  const selfChecked = Object.fromEntries(
    Object.entries(ownRequests(rule?.selfChecked, "params checked by the receiver")).map(([m, members]) => [
      m,
      [...members].sort(byCodeUnit),
    ]),
  );
  return {
    extension: info.extension,
    identifier: info.identifier,
    base: base.revision,
    source: info.source,
    imports: schema.imports ?? [],
    declarations: resolved.filter((d) => own.has(d.name)),
    constants: schema.constants,
    methods: derived.methods,
    augments,
    nameHeaders,
    selfChecked,
    diagnostics,
  };
}

/**
 * An extension seen as a revision (for the diff and the differential tests):
 * its own methods, and its declarations beside its base's, with the base's facts.
 */
export function extensionAsRevision(model: ExtensionModel, base: RevisionModel, label: string): RevisionModel {
  return {
    revision: label,
    source: model.source,
    facts: base.facts,
    declarations: [...base.declarations, ...model.declarations],
    constants: [...base.constants, ...model.constants],
    methods: model.methods,
    diagnostics: [],
  };
}
