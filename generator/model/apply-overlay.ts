// Fills the gaps the schema leaves in a method table from the overlay entries
// that apply (chosen in build.ts, by the rules of overlay.ts): results the
// schema pairs with no request, results the prose adds, capabilities. Every
// entry that applies must name a method, type and capability the revision has.
import { ErrorCode } from "../diagnostics.js";
import type { MethodOverlay } from "./overlay.js";
import { objectView, type DeclarationIndex } from "./resolve.js";
import type { CapabilityRequirement, Declaration, Diagnostic, MethodModel, TypeNode } from "./types.js";

/** The methods with the overlay applied (new objects; `methods` is left as it is), and what did not fit. */
export function applyMethodOverlay(
  methods: readonly MethodModel[],
  overlay: MethodOverlay,
  index: DeclarationIndex,
  severity: Diagnostic["severity"],
): { methods: MethodModel[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const report = (code: ErrorCode, message: string, declaration?: Declaration) =>
    diagnostics.push({ severity, code, message, ...(declaration ? { location: declaration.location } : {}) });
  const applied = methods.map((method): MethodModel => {
    const model: MethodModel = { ...method };
    const declaration = index.get(method.type);
    if (model.kind === "request") {
      const rule = overlay.results.find((r) => r.method === model.name);
      if (model.result && rule) {
        report(
          ErrorCode.OverlayRedundant,
          `overlay gives ${model.name} the result ${rule.result}, but the schema already gives ${model.result.name} (by ${model.result.source}); remove the overlay entry`,
          declaration,
        );
      }
      if (model.result) model.result = withAlternatives(model.result, model.name, overlay, index, report);
      else if (rule) {
        if (index.has(rule.result))
          model.result = { type: { kind: "reference", name: rule.result }, name: rule.result, source: "overlay" };
        else
          report(
            ErrorCode.OverlayUnknownType,
            `overlay gives ${model.name} the result ${rule.result}, which this revision does not declare`,
          );
      } else {
        report(
          ErrorCode.NoResult,
          `request ${model.name} (${model.type}) has no result: the schema pairs none by @category or by name; add a results entry to generator/overlay/methods.ts`,
          declaration,
        );
      }
    }
    const capability = overlay.capabilities.find((c) => c.method === model.name);
    if (capability) model.capability = { holder: capability.holder, path: capability.path.split(".") };
    return model;
  });
  checkOverlayAgainst(applied, overlay, index, report);
  return { methods: applied, diagnostics };
}

/** A result whose response may also carry the overlay's alternative types: the union of them all. */
function withAlternatives(
  result: NonNullable<MethodModel["result"]>,
  method: string,
  overlay: MethodOverlay,
  index: DeclarationIndex,
  report: (code: ErrorCode, message: string, declaration?: Declaration) => void,
): NonNullable<MethodModel["result"]> {
  const types = (overlay.alternativeResults ?? []).filter((r) => r.method === method).flatMap((r) => r.types);
  const known = types.filter((type) => {
    if (index.has(type)) return true;
    report(ErrorCode.OverlayUnknownType, `overlay lets ${method} answer ${type}, which this revision does not declare`);
    return false;
  });
  if (known.length === 0) return result;
  const members = [
    ...(result.type.kind === "union" ? result.type.members : [result.type]),
    ...known.map((name) => ({ kind: "reference" as const, name })),
  ];
  return { ...result, type: { kind: "union", members } };
}

/** Every overlay entry that applies must name a method, type and capability this revision has. */
function checkOverlayAgainst(
  methods: readonly MethodModel[],
  overlay: MethodOverlay,
  index: DeclarationIndex,
  report: (code: ErrorCode, message: string, declaration?: Declaration) => void,
): void {
  const byName = new Map(methods.map((m) => [m.name, m]));
  for (const rule of overlay.results) {
    const method = byName.get(rule.method);
    if (!method)
      report(
        ErrorCode.OverlayUnknownMethod,
        `overlay result entry names ${rule.method}, which this revision does not have`,
      );
    else if (method.kind !== "request")
      report(ErrorCode.OverlayUnknownMethod, `overlay result entry names ${rule.method}, which is a notification`);
  }
  for (const rule of overlay.alternativeResults ?? []) {
    if (byName.get(rule.method)?.kind !== "request")
      report(
        ErrorCode.OverlayUnknownMethod,
        `overlay alternative-result entry names ${rule.method}, which is not a request of this revision`,
      );
  }
  const seen = new Set<string>();
  for (const rule of overlay.capabilities) {
    if (seen.has(rule.method))
      report(ErrorCode.OverlayDuplicate, `overlay has two capability entries for ${rule.method}`);
    seen.add(rule.method);
    if (!byName.has(rule.method)) {
      report(
        ErrorCode.OverlayUnknownMethod,
        `overlay capability entry names ${rule.method}, which this revision does not have`,
      );
    }
    for (const holder of holdersOf(rule.holder)) {
      if (!capabilityExists(holder, rule.path.split("."), index)) {
        report(
          ErrorCode.OverlayUnknownCapability,
          `overlay gives ${rule.method} the capability ${rule.path}, which ${holder} does not declare in this revision`,
        );
      }
    }
  }
}

function capabilityExists(holder: string, path: string[], index: DeclarationIndex): boolean {
  let type: TypeNode | undefined = { kind: "reference", name: holder };
  for (const segment of path) {
    const property: TypeNode | undefined =
      type && objectView(type, index)?.properties.find((p) => p.name === segment)?.type;
    if (!property) return false;
    type = property;
  }
  return true;
}

/** Whether the holder's capabilities (both sides' for "receiver") declare the dotted path. */
export function declaresCapability(
  holder: CapabilityRequirement["holder"],
  path: string,
  index: DeclarationIndex,
): boolean {
  return holdersOf(holder).every((name) => capabilityExists(name, path.split("."), index));
}

function holdersOf(holder: CapabilityRequirement["holder"]): string[] {
  return holder === "receiver"
    ? ["ServerCapabilities", "ClientCapabilities"]
    : [holder === "server" ? "ServerCapabilities" : "ClientCapabilities"];
}
