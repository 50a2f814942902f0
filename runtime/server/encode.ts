// The convert and encode stages of a request's path: params up to the handler
// revision, results and errors down to the wire revision, each result
// completed and checked first. A result that breaks its schema is the
// server's bug: reported as -32603, never sent.
import { isObject, run, type Check } from "../validation.js";
import type { RequestId } from "../messages.js";
import { handlerRevision, handlerTables } from "./handler-revision.js";
import type { ServerLogger } from "./logging.js";
import { META_SERVER_INFO } from "./meta.js";
import { errorJson } from "./replies.js";
import type { Wire } from "./revisions.js";
import type { Scope } from "./context.js";

export type Encoded = { json: string } | { error: string };

/** Converts a method's params or result between revisions with the wire's shims; lossy changes are logged at debug. */
export function convert(
  logger: ServerLogger,
  what: "params" | "result",
  method: string,
  value: unknown,
  wire: Wire,
  from: string,
  to: string,
): unknown {
  const shims = wire.shims!;
  const converted =
    what === "params"
      ? shims.convertParams(method, value, { from, to })
      : shims.convertResult(method, value, { from, to });
  if (converted.changes.length > 0)
    logger("debug", `${method} ${what} converted from ${from} to ${to}`, converted.changes);
  return converted.message;
}

/** The problem a check finds in a server's own result, as the -32603 message; undefined when it passes. */
export function resultProblem(check: Check | undefined, value: unknown, what: string): string | undefined {
  if (!check) return undefined;
  const verdict = run(check, value);
  if (verdict.valid) return undefined;
  const problem = verdict.errors[0]!;
  return `Internal error: the server's ${what} is invalid at ${problem.path || "/"}: ${problem.message}`;
}

/**
 * A handler's result, completed with what every result of the handler
 * revision carries (resultType; serverInfo on per-request revisions,
 * basic/index#meta), checked against the handler revision's schema and
 * converted to the wire revision.
 */
export function encodeResult(
  logger: ServerLogger,
  method: string,
  scope: Scope,
  result: unknown,
  serverInfo: unknown,
): Encoded {
  let value = result;
  if (isObject(result)) {
    let completed = result;
    // basic/index#resulttype: "complete" for ordinary results.
    if (completed["resultType"] === undefined) completed = { ...completed, resultType: "complete" };
    if (scope.perRequest && serverInfo !== undefined) {
      const meta = isObject(completed["_meta"]) ? completed["_meta"] : undefined;
      completed = { ...completed, _meta: { ...meta, [META_SERVER_INFO]: serverInfo } };
    }
    value = completed;
  }
  // The method's own result type, not the union its response admits: InputRequiredResult
  // constrains no field a complete result lacks, so the union would take anything.
  const type = handlerTables.methods[method]?.result;
  const problem = resultProblem(
    type ? handlerTables.checks[type] : handlerTables.results[method],
    value,
    `${method} result`,
  );
  if (problem) return { error: problem };
  let onWire = value;
  if (scope.wire.shims) {
    try {
      onWire = convert(logger, "result", method, value, scope.wire, handlerRevision.name, scope.wire.info.name);
    } catch (error) {
      return { error: `Internal error: ${(error as Error).message}` };
    }
  }
  return { json: JSON.stringify(onWire) };
}

/** A result built in the wire revision's own shape (core methods, InputRequiredResult): checked against it. */
export function encodeWireResult(method: string, wire: Wire, result: unknown): Encoded {
  const problem = resultProblem(wire.tables.results[method], result, `${method} result`);
  return problem ? { error: problem } : { json: JSON.stringify(result) };
}

/** An error response, its code mapped where it changed meaning between revisions (the shim overlay's errorCodes). */
export function encodeError(
  id: RequestId,
  method: string,
  wire: Wire,
  code: number,
  message: string,
  data?: unknown,
): string {
  const json = errorJson(id, code, message, data);
  if (!wire.shims) return json;
  try {
    const converted = wire.shims.convert(JSON.parse(json), { from: handlerRevision.name, to: wire.info.name, method });
    return JSON.stringify(converted.message);
  } catch {
    return json;
  }
}
