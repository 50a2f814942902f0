// The JSON-RPC envelope: telling requests, notifications, result responses
// and error responses apart before any method-specific check, and validating a
// whole message against its revision's generated tables.
import type { MethodEntry, MethodTable } from "./table-types.js";
import {
  forgetBase64,
  invalid,
  isObject,
  run,
  type Check,
  type ValidationError,
  type ValidationResult,
} from "./validation.js";

const VALID: ValidationResult = Object.freeze({ valid: true });
/** Where a response's result lies in it: the prefix of its reports' pointers. */
const RESULT_PATH: readonly string[] = Object.freeze(["result"]);

/** What a revision's schema says about the envelope (generated/<rev>/tables.ts). */
export interface Envelope {
  readonly revision: string;
  readonly jsonrpcVersion: string;
  /** JSON-RPC batches (arrays of messages) are allowed: 2025-03-26 only so far. */
  readonly batching: boolean;
  /** The schema types of the four message shapes. */
  readonly request: string;
  readonly notification: string;
  readonly resultResponse: string;
  readonly errorResponse: string;
  /** Whether an error response must carry an id (revisions before 2025-11-25 require it). */
  readonly errorIdRequired: boolean;
}

export type RequestId = string | number;

export type Classification =
  | { readonly kind: "request"; readonly method: string; readonly id: RequestId }
  | { readonly kind: "notification"; readonly method: string }
  | { readonly kind: "result"; readonly id: RequestId }
  | { readonly kind: "error"; readonly id: RequestId | undefined }
  | { readonly kind: "batch"; readonly messages: readonly Classification[] }
  | {
      readonly kind: "invalid";
      readonly reason: string;
      /** JSON pointer to the offending member. */
      readonly path: string;
      /** The id, when one could be read, so that an error response can echo it. */
      readonly id?: RequestId;
    };

const isId = (value: unknown): value is RequestId => typeof value === "string" || typeof value === "number";

/**
 * Classifies one JSON-RPC message (JSON-RPC 2.0 §4-5 as MCP restricts it: ids
 * are strings or numbers, never null; params and results are objects).
 */
export function classifyMessage(message: unknown, envelope: Envelope): Classification {
  if (Array.isArray(message)) {
    if (!envelope.batching) {
      return bad(`a JSON-RPC batch (array) is not allowed in revision ${envelope.revision}`, "");
    }
    if (message.length === 0) return bad("an empty batch is not a valid JSON-RPC message", "");
    return { kind: "batch", messages: message.map((m, i) => withPrefix(classifyOne(m, envelope), `/${i}`)) };
  }
  return classifyOne(message, envelope);
}

function classifyOne(message: unknown, envelope: Envelope): Classification {
  if (!isObject(message)) return bad("a JSON-RPC message must be an object", "");
  const jsonrpc = message["jsonrpc"];
  const id = message["id"];
  const method = message["method"];
  // Reports of a message that carries a usable id echo it (bad() keeps it only if it is one).
  const known = id;
  if (jsonrpc === undefined) return bad("missing jsonrpc", "/jsonrpc", known);
  if (jsonrpc !== envelope.jsonrpcVersion)
    return bad(`jsonrpc must be "${envelope.jsonrpcVersion}"`, "/jsonrpc", known);
  if (id === null) return bad("id must not be null", "/id");
  if (id !== undefined && !isId(id)) return bad("id must be a string or a number", "/id");
  const result = message["result"];
  const error = message["error"];
  const hasResult = result !== undefined;
  const hasError = error !== undefined;
  if (method !== undefined) {
    if (typeof method !== "string") return bad("method must be a string", "/method", known);
    if (hasResult || hasError)
      return bad("a request or notification must not carry result or error", hasResult ? "/result" : "/error", known);
    const params = message["params"];
    if (params !== undefined && !isObject(params)) return bad("params must be an object", "/params", known);
    return id === undefined ? { kind: "notification", method } : { kind: "request", method, id: id as RequestId };
  }
  if (hasResult && hasError) return bad("a response must not carry both result and error", "/error", known);
  if (hasResult) {
    if (id === undefined) return bad("a result response must carry the request's id", "/id");
    if (!isObject(result)) return bad("result must be an object", "/result", known);
    return { kind: "result", id: id as RequestId };
  }
  if (hasError) {
    if (!isObject(error) || typeof error["code"] !== "number" || typeof error["message"] !== "string") {
      return bad("error must be an object with a numeric code and a string message", "/error", known);
    }
    if (id === undefined && envelope.errorIdRequired)
      return bad(`an error response must carry an id in revision ${envelope.revision}`, "/id");
    return { kind: "error", id: id as RequestId | undefined };
  }
  return bad("a message needs a method (request, notification), a result or an error", "", known);
}

/** An invalid message; `id` is kept when it is a usable request id, so that a reply can echo it. */
function bad(reason: string, path: string, id?: unknown): Classification {
  return isId(id) ? { kind: "invalid", reason, path, id } : { kind: "invalid", reason, path };
}

function withPrefix(classification: Classification, prefix: string): Classification {
  return classification.kind === "invalid" ? { ...classification, path: prefix + classification.path } : classification;
}

/** A revision's generated tables (generated/<rev>/tables.ts). */
export interface MessageTables {
  readonly envelope: Envelope;
  readonly methods: MethodTable;
  /** The check of every schema type, by name. */
  readonly checks: { readonly [type: string]: Check };
  /** The check of every method's params, by method; null when the message type declares no params. */
  readonly params: { readonly [method: string]: Check | null };
  /** The check of every request's result, by method. */
  readonly results: { readonly [method: string]: Check };
  /**
   * Requests beyond the transport page's own whose Mcp-Name header carries a
   * params field, by method (an extension's, merged in by withExtensions).
   */
  readonly nameHeaders?: { readonly [method: string]: string };
}

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** A method's entry with the check a message of it (or, for results, its result) runs. */
interface Route {
  readonly entry: MethodEntry;
  readonly check: Check;
}

/**
 * Each revision's routes by method, built once: one Map lookup per message
 * where the tables (object literals of a few hundred keys) would take an own-
 * property test and two dictionary lookups.
 */
const routeMaps = new WeakMap<MessageTables, { messages: Map<string, Route>; results: Map<string, Route> }>();

/** The last tables' routes: a server or client mostly speaks one revision at a time. */
let lastTables: MessageTables | undefined;
let lastRoutes: { messages: Map<string, Route>; results: Map<string, Route> } | undefined;

function routesOf(tables: MessageTables): { messages: Map<string, Route>; results: Map<string, Route> } {
  if (tables === lastTables) return lastRoutes!;
  let routes = routeMaps.get(tables);
  if (routes === undefined) {
    routes = { messages: new Map(), results: new Map() };
    for (const [method, entry] of Object.entries(tables.methods)) {
      routes.messages.set(method, { entry, check: tables.checks[entry.type]! });
      if (hasOwn(tables.results, method)) routes.results.set(method, { entry, check: tables.results[method]! });
    }
    routeMaps.set(tables, routes);
  }
  lastTables = tables;
  lastRoutes = routes;
  return routes;
}

/** Validates a value against a schema type by name; an unknown name is a programming error. */
export function validateType(tables: MessageTables, type: string, value: unknown): ValidationResult {
  forgetBase64();
  if (!hasOwn(tables.checks, type))
    throw new TypeError(`${type} is not a type of revision ${tables.envelope.revision}`);
  return run(tables.checks[type]!, value);
}

/** Validates a request's or notification's params; `params` is what the message carries (undefined when absent). */
export function validateMethodParams(tables: MessageTables, method: string, params: unknown): ValidationResult {
  forgetBase64();
  if (!hasOwn(tables.params, method)) return unknownMethod(tables, method);
  if (params === undefined) {
    return tables.methods[method]!.paramsRequired
      ? invalid([{ path: "", keyword: "required", message: "params is required" }])
      : { valid: true };
  }
  const check = tables.params[method];
  return check ? run(check, params) : { valid: true };
}

/** Validates the result of a request. */
export function validateMethodResult(tables: MessageTables, method: string, result: unknown): ValidationResult {
  forgetBase64();
  if (!hasOwn(tables.results, method)) return unknownMethod(tables, method, "request");
  return run(tables.results[method]!, result);
}

function unknownMethod(tables: MessageTables, method: string, what = "method"): ValidationResult {
  return invalid([
    { path: "", keyword: "method", message: `${method} is not a ${what} of revision ${tables.envelope.revision}` },
  ]);
}

export interface MessageVerdict {
  readonly classification: Classification;
  /** The request or notification method; for a response, the method of the request it answers, when known. */
  readonly method?: string;
  /** The schema type the message was checked against. */
  readonly type?: string;
  readonly result: ValidationResult;
}

/** A message whose method does not fit the revision (unknown, wrong kind, or not sent on its own). */
function methodRejected(classification: Classification, method: string, path: string, message: string): MessageVerdict {
  return rejected(classification, { path, keyword: "method", message }, { method });
}

function rejected(
  classification: Classification,
  error: ValidationError,
  extra: { method?: string } = {},
): MessageVerdict {
  return { classification, ...extra, result: invalid([error]) };
}

/**
 * Classifies a message and checks it against the schema type its method (or,
 * for a response, `requestMethod`) calls for. Without `requestMethod` a result
 * response is checked as a generic result response.
 */
export function checkMessage(message: unknown, tables: MessageTables, requestMethod?: string): MessageVerdict {
  forgetBase64();
  const classification = classifyMessage(message, tables.envelope);
  switch (classification.kind) {
    case "invalid":
      return rejected(classification, {
        path: classification.path,
        keyword: "jsonrpc",
        message: classification.reason,
      });
    case "batch": {
      const verdicts = (message as unknown[]).map((item) => checkMessage(item, tables));
      const failed = verdicts.flatMap((v, i) =>
        v.result.valid ? [] : v.result.errors.map((e) => ({ ...e, path: `/${i}${e.path}` })),
      );
      return { classification, result: failed.length === 0 ? { valid: true } : invalid(failed) };
    }
    case "request":
    case "notification": {
      const { method } = classification;
      const route = routesOf(tables).messages.get(method);
      const revision = tables.envelope.revision;
      if (!route)
        return methodRejected(classification, method, "/method", `${method} is not a method of revision ${revision}`);
      const { entry } = route;
      if (entry.kind !== classification.kind) {
        return methodRejected(classification, method, "/id", `${method} is a ${entry.kind} in revision ${revision}`);
      }
      if (entry.inputRequest) {
        return methodRejected(
          classification,
          method,
          "/method",
          `${method} travels only inside InputRequiredResult in revision ${revision}`,
        );
      }
      return { classification, method, type: entry.type, result: run(route.check, message) };
    }
    case "result": {
      // With the request's method known, its result type alone decides: it extends Result, and the
      // classification has checked the rest of the envelope (jsonrpc, id, result an object). The
      // generic result response check runs only where no method is known, or when the method's fails
      // (so that an envelope problem is reported as one, as before). The method's check runs once:
      // when it fails, its report waits for the envelope's verdict (a large invalid result is not
      // walked twice).
      const route = requestMethod !== undefined ? routesOf(tables).results.get(requestMethod) : undefined;
      const methodResult = route && run(route.check, (message as { result: unknown }).result, RESULT_PATH);
      if (methodResult?.valid) {
        const type = route!.entry.result;
        return type
          ? { classification, method: requestMethod, type, result: VALID }
          : { classification, method: requestMethod, result: VALID };
      }
      const envelopeResult = run(tables.checks[tables.envelope.resultResponse]!, message);
      if (!envelopeResult.valid || requestMethod === undefined) {
        return {
          classification,
          type: tables.envelope.resultResponse,
          result: envelopeResult,
          ...(requestMethod ? { method: requestMethod } : {}),
        };
      }
      if (!route || !methodResult) {
        return rejected(
          classification,
          {
            path: "",
            keyword: "method",
            message: `${requestMethod} is not a request of revision ${tables.envelope.revision}`,
          },
          { method: requestMethod },
        );
      }
      const entry = route.entry;
      return {
        classification,
        method: requestMethod,
        ...(entry.result ? { type: entry.result } : {}),
        result: methodResult,
      };
    }
    case "error": {
      // Built without a spread: object spread is a slow clone, and this is the path of every error response.
      const type = tables.envelope.errorResponse;
      const result = run(tables.checks[type]!, message);
      return requestMethod ? { classification, method: requestMethod, type, result } : { classification, type, result };
    }
  }
}
