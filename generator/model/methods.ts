// Derives the method model of a revision from its declarations. What the schema
// states is used first; the reviewed overlay only fills the gaps it leaves.
//
// - A method is any declaration whose `method` property is a string literal.
// - Its kind and direction come from the ClientRequest / ServerRequest /
//   ClientNotification / ServerNotification unions; requests that travel inside
//   InputRequiredResult (2026-07-28 on) from the union the overlay names.
// - Its result comes from, in order: the JSONRPCResultResponse subtype of the
//   same @category; the one result type (extends Result, or named *Result) of
//   the same @category; the XRequest → XResult naming convention; then the
//   overlay (apply-overlay.ts).
// - Its capability comes from the overlay only (apply-overlay.ts): the schema
//   has no link between methods and capabilities.
import { ErrorCode } from "../diagnostics.js";
import { docCategory, hasDocTag } from "./doc.js";
import { byCodeUnit } from "./order.js";
import { propertyOf, unionMembers, type DeclarationIndex } from "./resolve.js";
import type { Declaration, Diagnostic, Direction, MethodModel, RevisionFacts, TypeNode } from "./types.js";

/** The unions through which a schema says who sends what (all @internal upstream). */
const messageUnions = [
  { union: "ClientRequest", kind: "request", sender: "client" },
  { union: "ServerRequest", kind: "request", sender: "server" },
  { union: "ClientNotification", kind: "notification", sender: "client" },
  { union: "ServerNotification", kind: "notification", sender: "server" },
] as const;

export interface MethodDerivation {
  methods: MethodModel[];
  diagnostics: Diagnostic[];
}

interface Candidate {
  method: string;
  declaration: Declaration;
}

/**
 * The methods as the schema alone gives them: a request's result only where
 * the schema pairs one, no capabilities. Sorted by name.
 */
export function deriveMethods(
  index: DeclarationIndex,
  facts: Pick<RevisionFacts, "inputRequests">,
  severity: Diagnostic["severity"],
): MethodDerivation {
  const diagnostics: Diagnostic[] = [];
  const report = (code: ErrorCode, message: string, declaration?: Declaration) =>
    diagnostics.push({ severity, code, message, ...(declaration ? { location: declaration.location } : {}) });

  const senders = new Map<string, { kind: MethodModel["kind"]; senders: Set<"client" | "server"> }>();
  const conflicting = new Set<string>();
  for (const { union, kind, sender } of messageUnions) {
    for (const member of unionMembers(union, index)) {
      const entry = senders.get(member) ?? { kind, senders: new Set() };
      if (entry.kind !== kind && !conflicting.has(member)) {
        report(
          ErrorCode.MethodKind,
          `${member} is listed both as a request and as a notification; it is left out of the method table`,
          index.get(member),
        );
        conflicting.add(member);
      }
      entry.senders.add(sender);
      senders.set(member, entry);
    }
  }
  const inputRequests = new Set(facts.inputRequests ? unionMembers(facts.inputRequests, index) : []);
  const byCategory = groupByCategory(index);

  const methods: MethodModel[] = [];
  for (const { method, declaration } of methodCandidates(index, senders, inputRequests, report)) {
    if (conflicting.has(declaration.name)) continue;
    const routed = senders.get(declaration.name);
    let direction: Direction;
    let kind: MethodModel["kind"] | undefined;
    let inputRequest = false;
    if (routed) {
      direction =
        routed.senders.size === 2 ? "both" : routed.senders.has("client") ? "client-to-server" : "server-to-client";
      kind = routed.kind;
    } else if (inputRequests.has(declaration.name)) {
      direction = "server-to-client";
      inputRequest = true;
      kind = kindFromDeclaration(declaration);
    } else {
      report(
        ErrorCode.MethodDirection,
        `${method} (${declaration.name}) is in none of ${messageUnions.map((u) => u.union).join(", ")}, so its direction is unknown; it is left out of the method table`,
        declaration,
      );
      continue;
    }
    if (!kind) {
      report(
        ErrorCode.MethodKind,
        `cannot tell whether ${method} (${declaration.name}) is a request or a notification`,
        declaration,
      );
      continue;
    }

    const model: MethodModel = {
      name: method,
      kind,
      type: declaration.name,
      direction,
      directionSource: inputRequest ? "overlay" : "schema-union",
      inputRequest,
      ...paramsOf(declaration, index),
      deprecated: hasDocTag(declaration.doc, "deprecated"),
    };
    const category = docCategory(declaration.doc);
    if (category) model.category = category;
    if (kind === "request") {
      const result = deriveResult(declaration, category, index, byCategory);
      if (result) model.result = result;
    }
    methods.push(model);
  }
  methods.sort((a, b) => byCodeUnit(a.name, b.name));
  return { methods, diagnostics };
}

/** Declarations whose `method` is a string literal; one per method name. */
function methodCandidates(
  index: DeclarationIndex,
  routed: ReadonlyMap<string, unknown>,
  inputRequests: ReadonlySet<string>,
  report: (code: ErrorCode, message: string, declaration?: Declaration) => void,
  include: (declaration: Declaration) => boolean = () => true,
): Candidate[] {
  const byMethod = new Map<string, Declaration[]>();
  for (const declaration of index.values()) {
    if (!include(declaration)) continue;
    const method = propertyOf({ kind: "reference", name: declaration.name }, "method", index);
    if (method?.type.kind !== "literal" || typeof method.type.value !== "string") continue;
    const list = byMethod.get(method.type.value) ?? [];
    list.push(declaration);
    byMethod.set(method.type.value, list);
  }
  const candidates: Candidate[] = [];
  for (const [method, declarations] of byMethod) {
    // Several types may carry one literal; the message is the one the unions list.
    const listed = declarations.filter((d) => routed.has(d.name) || inputRequests.has(d.name));
    const chosen = declarations.length === 1 ? declarations : listed;
    if (chosen.length !== 1) {
      report(
        ErrorCode.MethodAmbiguous,
        `method ${method} is carried by ${declarations.map((d) => d.name).join(", ")} and the message unions do not single one out`,
        declarations[0],
      );
      continue;
    }
    candidates.push({ method, declaration: chosen[0]! });
  }
  return candidates;
}

/** For a message no union lists: its ancestors, then its name, tell request from notification. */
function kindFromDeclaration(declaration: Declaration): MethodModel["kind"] | undefined {
  const ancestors = declaration.kind === "interface" ? declaration.resolved.ancestors : [];
  if (ancestors.includes("JSONRPCRequest") || ancestors.includes("Request")) return "request";
  if (ancestors.includes("JSONRPCNotification") || ancestors.includes("Notification")) return "notification";
  if (declaration.name.endsWith("Request")) return "request";
  if (declaration.name.endsWith("Notification")) return "notification";
  return undefined;
}

function paramsOf(declaration: Declaration, index: DeclarationIndex): Pick<MethodModel, "params"> {
  const params = propertyOf({ kind: "reference", name: declaration.name }, "params", index);
  if (!params) return {};
  return {
    params: {
      type: params.type,
      ...(params.type.kind === "reference" ? { name: params.type.name } : {}),
      required: !params.optional,
    },
  };
}

function deriveResult(
  request: Declaration,
  category: string | undefined,
  index: DeclarationIndex,
  byCategory: ReadonlyMap<string, Declaration[]>,
): MethodModel["result"] {
  const namedResult = `${request.name.replace(/Request$/, "")}Result`;
  const peers = category ? (byCategory.get(category) ?? []).filter((d) => d !== request) : [];

  const responses = peers.filter((d) => ancestorsOf(d).includes("JSONRPCResultResponse"));
  if (responses.length === 1) {
    const response = responses[0]!;
    const result = propertyOf({ kind: "reference", name: response.name }, "result", index);
    const name = result && primaryResultName(result.type, category, namedResult, index);
    if (result && name) return { type: result.type, name, response: response.name, source: "response-type" };
  }

  const results = peers.filter(isResultDeclaration);
  if (results.length === 1)
    return { type: { kind: "reference", name: results[0]!.name }, name: results[0]!.name, source: "category" };

  if (index.has(namedResult))
    return { type: { kind: "reference", name: namedResult }, name: namedResult, source: "naming" };
  return undefined;
}

/** Of the types a response may carry (e.g. CallToolResult | InputRequiredResult), the method's own. */
function primaryResultName(
  type: TypeNode,
  category: string | undefined,
  namedResult: string,
  index: DeclarationIndex,
): string | undefined {
  const names =
    type.kind === "reference"
      ? [type.name]
      : type.kind === "union"
        ? type.members.flatMap((m) => (m.kind === "reference" ? [m.name] : []))
        : [];
  if (names.length === 1) return names[0];
  const sameCategory = names.filter((n) => {
    const declaration = index.get(n);
    return declaration && docCategory(declaration.doc) === category;
  });
  if (sameCategory.length === 1) return sameCategory[0];
  return names.find((n) => n === namedResult);
}

/** A result type: one that extends Result, or is named *Result (2026-07-28's input-request results extend nothing). */
function isResultDeclaration(declaration: Declaration): boolean {
  return declaration.name.endsWith("Result") || ancestorsOf(declaration).includes("Result");
}

function ancestorsOf(declaration: Declaration): string[] {
  return declaration.kind === "interface" ? declaration.resolved.ancestors : [];
}

function groupByCategory(index: DeclarationIndex): Map<string, Declaration[]> {
  const groups = new Map<string, Declaration[]>();
  for (const declaration of index.values()) {
    const category = docCategory(declaration.doc);
    if (!category) continue;
    groups.set(category, [...(groups.get(category) ?? []), declaration]);
  }
  return groups;
}

/**
 * The methods an extension declares (types of its own whose `method` is a
 * string literal), with the senders the overlay states. Every one needs the
 * extension negotiated by its receiver: `extensions["<identifier>"]` in the
 * receiver's capabilities (2026-07-28 basic/index#extensions).
 */
export function deriveExtensionMethods(
  index: DeclarationIndex,
  own: ReadonlySet<string>,
  identifier: string,
  senders: { readonly [method: string]: "client" | "server" | "both" },
  severity: Diagnostic["severity"],
): MethodDerivation {
  const diagnostics: Diagnostic[] = [];
  const report = (code: ErrorCode, message: string, declaration?: Declaration) =>
    diagnostics.push({ severity, code, message, ...(declaration ? { location: declaration.location } : {}) });
  const byCategory = groupByCategory(new Map([...index].filter(([name]) => own.has(name))));
  const methods: MethodModel[] = [];
  // Read against the whole index (an extension's message may be JSONRPCRequest & {...}), only its own types counted.
  const candidates = methodCandidates(index, new Map(), new Set(), report, (d) => own.has(d.name));
  for (const { method, declaration } of candidates) {
    const sender = Object.prototype.hasOwnProperty.call(senders, method) ? senders[method] : undefined;
    if (!sender) {
      report(
        ErrorCode.MethodDirection,
        `${method} (${declaration.name}): generator/overlay/extensions.ts does not say who sends it; it is left out of the method table`,
        declaration,
      );
      continue;
    }
    const kind = kindFromDeclaration(declaration);
    if (!kind) {
      report(
        ErrorCode.MethodKind,
        `cannot tell whether ${method} (${declaration.name}) is a request or a notification`,
        declaration,
      );
      continue;
    }
    const direction: Direction =
      sender === "both" ? "both" : sender === "client" ? "client-to-server" : "server-to-client";
    const model: MethodModel = {
      name: method,
      kind,
      type: declaration.name,
      direction,
      directionSource: "overlay",
      inputRequest: false,
      ...paramsOf(declaration, index),
      deprecated: hasDocTag(declaration.doc, "deprecated"),
    };
    if (direction !== "both")
      model.capability = {
        holder: direction === "client-to-server" ? "server" : "client",
        path: ["extensions", identifier],
      };
    const category = docCategory(declaration.doc);
    if (category) model.category = category;
    if (kind === "request") {
      const result = deriveResult(declaration, category, index, byCategory);
      if (result) model.result = result;
      else
        report(
          ErrorCode.NoResult,
          `request ${method} (${declaration.name}) has no result: the extension pairs none by @category or by name`,
          declaration,
        );
    }
    methods.push(model);
  }
  for (const method of Object.keys(senders))
    if (!methods.some((m) => m.name === method) && !candidates.some((c) => c.method === method))
      report(
        ErrorCode.OverlayUnknownMethod,
        `generator/overlay/extensions.ts names ${method}, which the extension does not declare`,
      );
  methods.sort((a, b) => byCodeUnit(a.name, b.name));
  return { methods, diagnostics };
}
