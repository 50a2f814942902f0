// The encode stage of a request's path: results and errors down to the wire
// revision (convert.ts converts), each result completed and checked first. A
// result that breaks its schema is the server's bug: reported as -32603, never sent.
import { isObject, run, type Check } from "../../validation.js";
import type { RequestId } from "../../messages.js";
import { handlerRevision, handlerTables } from "../../protocol/handler-revision.js";
import type { ServerLogger } from "../logging.js";
import { META_SERVER_INFO } from "../../protocol/meta.js";
import { errorJson } from "./reply.js";
import type { LoadedRevision } from "../../protocol/revisions.js";
import type { Scope } from "../context.js";
import type { Converted } from "../../shim-data.js";
import { convert } from "./convert.js";

export type Encoded = { json: string } | { error: string };

/** The problem a check finds in a server's own result, as the -32603 message; undefined when it passes. */
export function resultProblem(check: Check | undefined, value: unknown, what: string): string | undefined {
  if (!check) return undefined;
  const verdict = run(check, value);
  if (verdict.valid) return undefined;
  const problem = verdict.errors[0]!;
  return `Internal error: the server's ${what} is invalid at ${problem.path || "/"}: ${problem.message}`;
}

/**
 * A handler's result on its way to the wire. On a per-request revision it is
 * completed with what every result carries there: resultType, and serverInfo
 * in _meta (basic/index#meta). It is checked against the schema before it is
 * sent: at the handler revision when that is the wire's, else after the
 * conversion, at the wire revision (one check either way).
 */
export function encodeResult(
  logger: ServerLogger,
  method: string,
  scope: Scope,
  result: unknown,
  serverInfo: unknown,
): Encoded {
  const wire = scope.wire;
  if (scope.perRequest && isObject(result) && result["resultType"] === undefined) {
    // basic/index#resulttype: "complete" for ordinary results (a copy: the handler's object stays as it was).
    result = { resultType: "complete", ...result };
  }
  const info = scope.perRequest ? serverInfo : undefined;
  if (!wire.shims) {
    const problem = handlerProblem(method, result);
    if (problem) return { error: problem };
    return { json: withServerInfo(result, info) };
  }
  let onWire: Converted;
  try {
    onWire = convert(logger, "result", method, result, wire, handlerRevision.name, wire.info.name);
  } catch (error) {
    // A result that cannot be converted is most often one that breaks its own schema: say so if it does.
    return { error: handlerProblem(method, result) ?? `Internal error: ${(error as Error).message}` };
  }
  const type = wire.tables.methods[method]?.result;
  const check = type ? wire.tables.checks[type] : wire.tables.results[method];
  // The shortcut checked the result with this very check before taking it: once is enough.
  if (onWire.checked !== check) {
    const problem = resultProblem(check, onWire.message, `${method} result`);
    if (problem) return { error: problem };
  }
  return { json: withServerInfo(onWire.message, info) };
}

/**
 * What is wrong with a result at the handler revision: checked against the
 * method's own result type, not the union its response admits
 * (InputRequiredResult constrains no field a complete result lacks, so the
 * union would take anything).
 */
function handlerProblem(method: string, result: unknown): string | undefined {
  const type = handlerTables.methods[method]?.result;
  return resultProblem(type ? handlerTables.checks[type] : handlerTables.results[method], result, `${method} result`);
}

/** The `_meta` member naming the server, as JSON text, per server identity (built once). */
const serverInfoMembers = new WeakMap<object, string>();
let lastServerInfo: object | undefined;
let lastMember: string | undefined;

/**
 * A result's JSON with `_meta["io.modelcontextprotocol/serverInfo"]`: spliced
 * into the text when the result has no _meta (the common case; building an
 * object with that key on every call costs more than the rest of the reply).
 */
function withServerInfo(result: unknown, serverInfo: unknown): string {
  if (serverInfo === undefined || !isObject(result) || typeof serverInfo !== "object" || serverInfo === null)
    return JSON.stringify(result);
  if (result["_meta"] !== undefined) {
    const meta = isObject(result["_meta"]) ? result["_meta"] : {};
    return JSON.stringify({ ...result, _meta: { ...meta, [META_SERVER_INFO]: serverInfo } });
  }
  // A process serves one server's identity, almost always: the last one is compared before the WeakMap's lookup.
  let member = serverInfo === lastServerInfo ? lastMember : serverInfoMembers.get(serverInfo);
  if (member === undefined) {
    member = `"_meta":{${JSON.stringify(META_SERVER_INFO)}:${JSON.stringify(serverInfo)}}`;
    serverInfoMembers.set(serverInfo, member);
  }
  lastServerInfo = serverInfo;
  lastMember = member;
  const json = JSON.stringify(result);
  return json === "{}" ? `{${member}}` : `${json.slice(0, -1)},${member}}`;
}

/**
 * A result built in the wire revision's own shape (core and extension methods,
 * InputRequiredResult): checked against it. `perRequest` completes it as
 * encodeResult does (resultType, serverInfo) when the request is per-request.
 */
export function encodeWireResult(
  method: string,
  wire: LoadedRevision,
  result: unknown,
  perRequest?: { readonly serverInfo: unknown },
): Encoded {
  if (perRequest && isObject(result) && result["resultType"] === undefined)
    result = { resultType: "complete", ...result };
  const problem = resultProblem(wire.tables.results[method], result, `${method} result`);
  if (problem) return { error: problem };
  return { json: perRequest ? withServerInfo(result, perRequest.serverInfo) : JSON.stringify(result) };
}

/** An error response, its code mapped where it changed meaning between revisions (the shim overlay's errorCodes). */
export function encodeError(
  id: RequestId,
  method: string,
  wire: LoadedRevision,
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
