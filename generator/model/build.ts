// ParsedSchema → RevisionModel: resolves inheritance, derives the method table
// and the revision's facts, and applies the reviewed overlay.
import { ErrorCode } from "../diagnostics.js";
import { overlayFor, type MethodOverlay } from "./overlay.js";
import { deriveMethods } from "./methods.js";
import { byCodeUnit } from "./order.js";
import { indexDeclarations, objectView, resolveDeclarations, unionMembers, type DeclarationIndex } from "./resolve.js";
import type {
  Constant,
  Diagnostic,
  EnvelopeFacts,
  MethodModel,
  ParsedSchema,
  RevisionFacts,
  RevisionModel,
  RevisionSource,
  TypeNode,
} from "./types.js";

export interface BuildOptions {
  revision: string;
  source: RevisionSource;
  overlay: MethodOverlay;
}

/**
 * Builds the model of one revision. Throws SchemaError when inheritance cannot
 * be resolved; everything else it cannot settle is a diagnostic, an error for a
 * revision pinned in the lock and a warning for one that is not (a new spec
 * release must still generate).
 */
export function buildRevisionModel(schema: ParsedSchema, options: BuildOptions): RevisionModel {
  const severity: Diagnostic["severity"] = options.source.locked ? "error" : "warning";
  const declarations = resolveDeclarations(schema);
  const index = indexDeclarations(declarations);
  const overlay = overlayFor(options.overlay, options.revision);
  const diagnostics: Diagnostic[] = [];

  const revisionRules = overlay.revisions;
  if (revisionRules.length > 1) {
    diagnostics.push({
      severity,
      code: ErrorCode.OverlayDuplicate,
      message: `${revisionRules.length} overlay revision entries apply to ${options.revision}; expected at most one`,
    });
  }
  const rule = revisionRules[0];
  if (rule?.inputRequests && index.get(rule.inputRequests)?.kind !== "alias") {
    diagnostics.push({
      severity,
      code: ErrorCode.OverlayUnknownType,
      message: `overlay names ${rule.inputRequests} as the input-request union, which this revision does not declare as a type alias`,
    });
  }
  const inputRequests = rule?.inputRequests && index.has(rule.inputRequests) ? rule.inputRequests : undefined;

  const derived = deriveMethods(index, overlay, inputRequests ? { inputRequests } : {}, severity);
  diagnostics.push(...derived.diagnostics);

  // The handshake is visible in the schema (an initialize request or none); the
  // overlay states what the prose says and must agree.
  const lifecycle: RevisionFacts["lifecycle"] = derived.methods.some((m) => m.name === "initialize")
    ? "initialize"
    : "per-request";
  if (rule && rule.lifecycle !== lifecycle) {
    diagnostics.push({
      severity,
      code: ErrorCode.OverlayLifecycle,
      message: `overlay says ${options.revision} has lifecycle "${rule.lifecycle}", but the schema ${lifecycle === "initialize" ? "has" : "has no"} initialize request`,
    });
  }

  const beforeInitialized =
    lifecycle === "initialize" && rule?.beforeInitialized
      ? checkBeforeInitialized(rule.beforeInitialized, derived.methods, severity, diagnostics)
      : undefined;

  const facts: RevisionFacts = {
    protocolVersion: stringConstant(schema.constants, "LATEST_PROTOCOL_VERSION", diagnostics),
    jsonrpcVersion: stringConstant(schema.constants, "JSONRPC_VERSION", diagnostics),
    batching: admitsArray({ kind: "reference", name: "JSONRPCMessage" }, index),
    extensions: negotiatesExtensions(index),
    lifecycle,
    ...(inputRequests ? { inputRequests } : {}),
    ...(beforeInitialized ? { beforeInitialized } : {}),
    ...(rule?.errorCodes ? { errorCodes: sortedRecord(rule.errorCodes) } : {}),
    envelope: envelopeOf(index, diagnostics),
  };

  return {
    revision: options.revision,
    source: options.source,
    facts,
    declarations,
    constants: schema.constants,
    methods: derived.methods,
    diagnostics,
  };
}

/**
 * The overlay's pre-handshake methods, each of which the revision must have and
 * let that side send; returned sorted by code unit.
 */
function checkBeforeInitialized(
  lists: NonNullable<RevisionFacts["beforeInitialized"]>,
  methods: readonly MethodModel[],
  severity: Diagnostic["severity"],
  diagnostics: Diagnostic[],
): NonNullable<RevisionFacts["beforeInitialized"]> {
  const sends = { client: "client-to-server", server: "server-to-client" } as const;
  for (const side of ["client", "server"] as const) {
    for (const name of lists[side]) {
      const method = methods.find((m) => m.name === name);
      if (!method || (method.direction !== sends[side] && method.direction !== "both")) {
        diagnostics.push({
          severity,
          code: ErrorCode.OverlayUnknownMethod,
          message: `overlay lets the ${side} send ${name} before initialization, but the ${side} ${method ? "does not send it" : "has no such method"} in this revision`,
        });
      }
    }
  }
  return { client: [...lists.client].sort(byCodeUnit), server: [...lists.server].sort(byCodeUnit) };
}

/** Sorts the members of JSONRPCMessage by the members they require. */
function envelopeOf(index: DeclarationIndex, diagnostics: Diagnostic[]): EnvelopeFacts {
  const found: Partial<Record<"request" | "notification" | "resultResponse" | "errorResponse", string>> = {};
  let errorIdRequired = false;
  for (const name of unionMembers("JSONRPCMessage", index)) {
    const shape = objectView({ kind: "reference", name }, index);
    if (!shape) continue; // a batch: an array of messages
    const required = (property: string) => shape.properties.some((p) => p.name === property && !p.optional);
    const id = shape.properties.find((p) => p.name === "id");
    if (required("method")) found[id ? "request" : "notification"] ??= name;
    else if (required("result")) found.resultResponse ??= name;
    else if (required("error")) {
      found.errorResponse ??= name;
      errorIdRequired = id !== undefined && !id.optional;
    }
  }
  const { request, notification, resultResponse, errorResponse } = found;
  if (!request || !notification || !resultResponse || !errorResponse) {
    const missing = (["request", "notification", "resultResponse", "errorResponse"] as const).filter((k) => !found[k]);
    diagnostics.push({
      severity: "error",
      code: ErrorCode.Envelope,
      message: `JSONRPCMessage has no ${missing.join(", ")} member (a type requiring method and id, method alone, result, error)`,
    });
    return {
      request: request ?? "",
      notification: notification ?? "",
      resultResponse: resultResponse ?? "",
      errorResponse: errorResponse ?? "",
      errorIdRequired,
    };
  }
  return { request, notification, resultResponse, errorResponse, errorIdRequired };
}

function stringConstant(constants: readonly Constant[], name: string, diagnostics: Diagnostic[]): string {
  const constant = constants.find((c) => c.name === name);
  if (typeof constant?.value === "string") return constant.value;
  diagnostics.push({
    severity: "error",
    code: ErrorCode.MissingConstant,
    message: `the schema declares no string const ${name}`,
  });
  return "";
}

/** Whether a type admits a JSON array at its top level, following aliases (JSON-RPC batches). */
/**
 * Whether both sides' capabilities have an `extensions` map (2026-07-28
 * basic/index#extensions): only then can a conversation negotiate an extension.
 */
function negotiatesExtensions(index: DeclarationIndex): boolean {
  return ["ClientCapabilities", "ServerCapabilities"].every(
    (name) => objectView({ kind: "reference", name }, index)?.properties.some((p) => p.name === "extensions") ?? false,
  );
}

function admitsArray(type: TypeNode, index: DeclarationIndex, seen = new Set<string>()): boolean {
  switch (type.kind) {
    case "array":
    case "tuple":
      return true;
    case "union":
      return type.members.some((m) => admitsArray(m, index, seen));
    case "reference": {
      const declaration = index.get(type.name);
      if (declaration?.kind !== "alias" || seen.has(type.name)) return false;
      seen.add(type.name);
      return admitsArray(declaration.type, index, seen);
    }
    default:
      return false;
  }
}

function sortedRecord(record: { [key: string]: number }): { [key: string]: number } {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
