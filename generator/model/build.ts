// ParsedSchema → RevisionModel: resolves inheritance, derives the method table
// and the revision's facts, and applies the reviewed overlay.
import { ErrorCode } from "../diagnostics.js";
import { applyMethodOverlay, declaresCapability } from "./apply-overlay.js";
import {
  methodEntriesByFacts,
  outOfRange,
  overlayFor,
  revisionRulesByFacts,
  type MethodOverlay,
  type SchemaShows,
} from "./overlay.js";
import { deriveMethods } from "./methods.js";
import { byCodeUnit } from "./order.js";
import {
  indexDeclarations,
  objectView,
  propertyOf,
  resolveDeclarations,
  unionMembers,
  type DeclarationIndex,
} from "./resolve.js";
import type {
  Constant,
  Diagnostic,
  EnvelopeFacts,
  MethodModel,
  OverlayGuess,
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
 * release must still generate). A pinned revision gets the overlay entries
 * whose range names it; any other gets those its schema's facts call for,
 * whatever its name (see overlay.ts).
 */
export function buildRevisionModel(schema: ParsedSchema, options: BuildOptions): RevisionModel {
  const severity: Diagnostic["severity"] = options.source.locked ? "error" : "warning";
  const declarations = resolveDeclarations(schema);
  const index = indexDeclarations(declarations);
  const diagnostics: Diagnostic[] = [];
  const guesses: OverlayGuess[] = [];

  // The era is the schema's own: an initialize handshake or none (basic/lifecycle).
  const era = eraOf(index);
  const declares = (name: string) => index.has(name);
  const byName = options.source.locked ? overlayFor(options.overlay, options.revision) : undefined;
  const revisionsByFacts = revisionRulesByFacts(options.overlay, { lifecycle: era.lifecycle, declares });
  if (!byName) guesses.push(...era.guesses, ...revisionsByFacts.guesses);

  const revisionRules = byName?.revisions ?? revisionsByFacts.overlay.revisions;
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

  const derived = deriveMethods(index, inputRequests ? { inputRequests } : {}, severity);
  diagnostics.push(...derived.diagnostics);
  const schemaMethods = new Map(derived.methods.map((m) => [m.name, m]));
  const shows: SchemaShows = {
    lifecycle: era.lifecycle,
    method: (name) => {
      const method = schemaMethods.get(name);
      return method && { kind: method.kind, result: method.result !== undefined };
    },
    declares,
    capability: (holder, path) => declaresCapability(holder, path, index),
  };
  const entriesByFacts = methodEntriesByFacts(options.overlay, shows);
  if (byName) {
    // The same schema under another name must generate the same: a range that
    // leaves out a pinned revision whose schema shows the entry's facts is wrong.
    for (const id of outOfRange(byName, { ...entriesByFacts.overlay, revisions: revisionsByFacts.overlay.revisions }))
      diagnostics.push({
        severity,
        code: ErrorCode.OverlayRange,
        message: `overlay entry ${id}'s range leaves out ${options.revision}, whose schema shows everything the entry names in its era: this schema under another name would get it; widen the range in generator/overlay/methods.ts`,
      });
  } else guesses.push(...entriesByFacts.guesses);

  const applied = applyMethodOverlay(
    derived.methods,
    { ...(byName ?? entriesByFacts.overlay), revisions: revisionRules },
    index,
    severity,
  );
  diagnostics.push(...applied.diagnostics);
  const methods = applied.methods;

  // The handshake is visible in the schema (an initialize request or none); the
  // overlay states what the prose says and must agree.
  const lifecycle: RevisionFacts["lifecycle"] = methods.some((m) => m.name === "initialize")
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
      ? checkBeforeInitialized(rule.beforeInitialized, methods, severity, diagnostics)
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

  for (const guess of guesses)
    diagnostics.push({
      severity: "warning",
      code: ErrorCode.OverlayGuess,
      message: `a guess (generator/overlay/methods.ts ${guess.entry}): ${guess.note}`,
    });

  return {
    revision: options.revision,
    source: options.source,
    facts,
    declarations,
    constants: schema.constants,
    methods,
    diagnostics,
    ...(guesses.length > 0 ? { guesses } : {}),
  };
}

/**
 * The era a schema shows: "initialize" when a client request has the method
 * initialize (basic/lifecycle#initialization), else "per-request". Where the
 * other sign of the era, a protocol version every request carries in its
 * _meta (2026-07-28 basic/index#meta), says otherwise, the era is a guess.
 */
function eraOf(index: DeclarationIndex): { lifecycle: RevisionFacts["lifecycle"]; guesses: OverlayGuess[] } {
  const handshake = unionMembers("ClientRequest", index).some((name) => {
    const method = propertyOf({ kind: "reference", name }, "method", index)?.type;
    return method?.kind === "literal" && method.value === "initialize";
  });
  const versioned = unionMembers("ClientRequest", index).some((name) => {
    const params = propertyOf({ kind: "reference", name }, "params", index);
    const meta = params && propertyOf(params.type, "_meta", index);
    const shape = meta && objectView(meta.type, index);
    return shape?.properties.some((p) => !p.optional && p.name.endsWith("protocolVersion")) ?? false;
  });
  const lifecycle = handshake ? "initialize" : "per-request";
  if (handshake === versioned) {
    const note = handshake
      ? "this schema has an initialize request and also a protocol version in every request's _meta; taken as the initialize era"
      : "this schema has no initialize request and no protocol version in its requests' _meta; taken as the per-request era";
    return {
      lifecycle,
      guesses: [{ entry: `revisions[${lifecycle}]`, about: "revision", subject: "lifecycle", note }],
    };
  }
  return { lifecycle, guesses: [] };
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

/**
 * Whether both sides' capabilities have an `extensions` map (2026-07-28
 * basic/index#extensions): only then can a conversation negotiate an extension.
 */
function negotiatesExtensions(index: DeclarationIndex): boolean {
  return ["ClientCapabilities", "ServerCapabilities"].every(
    (name) => objectView({ kind: "reference", name }, index)?.properties.some((p) => p.name === "extensions") ?? false,
  );
}

/** Whether a type admits a JSON array at its top level, following aliases (JSON-RPC batches). */
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
