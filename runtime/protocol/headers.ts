// The Streamable HTTP request headers that mirror the body, checked against it
// on per-request revisions (2026-07-28 basic/transports/streamable-http
// #request-metadata and #server-validation): MCP-Protocol-Version, Mcp-Method,
// Mcp-Name and the Mcp-Param-{Name} headers of a tool's x-mcp-header
// parameters. Any failure is HeaderMismatch (-32020, HTTP 400). The transport
// only collects the headers; what they must say is protocol, so it is here.
import { isObject } from "../validation.js";
import { HEADER_MISMATCH } from "./handler-revision.js";
import { META_PROTOCOL_VERSION, metaOf } from "./meta.js";

/** Request headers by lower-case name, as node:http gives them (a repeated header may come as a list). */
export type RequestHeaders = { readonly [name: string]: string | readonly string[] | undefined };

/** A header's one value (a repeated one joined, RFC 9110 §5.3), or undefined when absent. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return value === undefined || typeof value === "string" ? value : value.join(", ");
}

/** A tool parameter mirrored into a header (server/tools#x-mcp-header). */
export interface HeaderParam {
  /** The name after Mcp-Param-, as declared. */
  readonly name: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
}

/** #standard-request-headers: the body field Mcp-Name mirrors, by method. */
const NAME_SOURCE: { readonly [method: string]: string } = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/** #value-encoding: the sentinel around a Base64 payload; the payload itself must be canonical Base64 (RFC 4648 §4). */
const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** RFC 9110 field values: visible ASCII, space and horizontal tab. */
const FIELD_VALUE = /^[\x20-\x7e\t]*$/;

export interface HeaderMismatch {
  readonly code: number;
  readonly message: string;
}

/** The first way the headers disagree with the request, or undefined when they agree. */
export function checkHeaders(
  message: Record<string, unknown>,
  method: string,
  headers: RequestHeaders,
  host: { toolHeaders(name: string): readonly HeaderParam[] | undefined },
  nameHeaders?: { readonly [method: string]: string },
): HeaderMismatch | undefined {
  const version = metaOf(message)?.[META_PROTOCOL_VERSION];
  const stated = headerValue(headers, "mcp-protocol-version");
  if (stated === undefined) return mismatch("the MCP-Protocol-Version header is required");
  if (stated !== version)
    return mismatch(`MCP-Protocol-Version header value '${stated}' does not match body value '${String(version)}'`);
  const methodHeader = headerValue(headers, "mcp-method");
  if (methodHeader === undefined) return mismatch("the Mcp-Method header is required");
  if (methodHeader !== method)
    return mismatch(`Mcp-Method header value '${methodHeader}' does not match body value '${method}'`);
  const params = isObject(message["params"]) ? message["params"] : {};
  const source = Object.hasOwn(NAME_SOURCE, method)
    ? NAME_SOURCE[method]
    : nameHeaders && Object.hasOwn(nameHeaders, method)
      ? nameHeaders[method]
      : undefined;
  if (source !== undefined) {
    const raw = headerValue(headers, "mcp-name");
    if (raw === undefined) return mismatch(`the Mcp-Name header is required for ${method}`);
    const name = decode(raw);
    if (name === undefined) return mismatch("the Mcp-Name header value has invalid characters or encoding");
    if (name !== params[source])
      return mismatch(`Mcp-Name header value '${name}' does not match body value '${String(params[source])}'`);
  }
  if (method === "tools/call" && typeof params["name"] === "string") {
    const args = isObject(params["arguments"]) ? params["arguments"] : {};
    for (const param of host.toolHeaders(params["name"]) ?? []) {
      const problem = checkParam(param, args, headers);
      if (problem) return mismatch(problem);
    }
  }
  return undefined;
}

/** #server-behavior-for-custom-headers: the header is present exactly when the value is, and equal to it. */
function checkParam(param: HeaderParam, args: Record<string, unknown>, headers: RequestHeaders): string | undefined {
  let value: unknown = args;
  for (const key of param.path) value = isObject(value) ? value[key] : undefined;
  const header = `Mcp-Param-${param.name}`;
  const raw = headerValue(headers, `mcp-param-${param.name.toLowerCase()}`);
  if (value === undefined || value === null) {
    return raw === undefined ? undefined : `${header} is present but the argument ${param.path.join(".")} is not`;
  }
  if (raw === undefined) return `the ${header} header is required: the argument ${param.path.join(".")} is present`;
  const decoded = decode(raw);
  if (decoded === undefined) return `the ${header} header value has invalid characters or encoding`;
  const same =
    param.type === "integer"
      ? // #server-validation: integers compare numerically (42.0 equals 42).
        decoded.trim() !== "" && Number(decoded) === value
      : param.type === "boolean"
        ? decoded === String(value)
        : decoded === value;
  return same ? undefined : `${header} header value '${decoded}' does not match body value '${String(value)}'`;
}

/** #value-encoding: a plain header value, or the UTF-8 text of a =?base64?...?= sentinel; undefined when invalid. */
function decode(raw: string): string | undefined {
  if (!FIELD_VALUE.test(raw)) return undefined;
  const sentinel = SENTINEL.exec(raw);
  if (!sentinel) return raw;
  if (!BASE64.test(sentinel[1]!)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(sentinel[1]!, "base64"));
  } catch {
    return undefined; // not UTF-8
  }
}

/**
 * #value-encoding, the client's side: a value as a header carries it, plain
 * when it is visible ASCII without leading or trailing whitespace and does
 * not look like the sentinel, else the Base64 sentinel of its UTF-8 bytes.
 */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !SENTINEL.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/**
 * The headers a client adds to a per-request POST that mirror its body
 * (#standard-request-headers, #client-behavior): Mcp-Method, Mcp-Name where
 * the method has one, and Mcp-Param-{Name} for each x-mcp-header parameter
 * of the called tool whose argument is present.
 */
export function mirroredHeaders(
  method: string,
  params: unknown,
  toolHeaders: readonly HeaderParam[] = [],
  nameHeaders?: { readonly [method: string]: string },
): Record<string, string> {
  const headers: Record<string, string> = { "Mcp-Method": method };
  const body = isObject(params) ? params : {};
  const source = Object.hasOwn(NAME_SOURCE, method)
    ? NAME_SOURCE[method]
    : nameHeaders && Object.hasOwn(nameHeaders, method)
      ? nameHeaders[method]
      : undefined;
  if (source !== undefined && typeof body[source] === "string") headers["Mcp-Name"] = encodeHeaderValue(body[source]);
  const args = isObject(body["arguments"]) ? body["arguments"] : {};
  for (const param of toolHeaders) {
    let value: unknown = args;
    for (const key of param.path) value = isObject(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    headers[`Mcp-Param-${param.name}`] = encodeHeaderValue(String(value));
  }
  return headers;
}

function mismatch(message: string): HeaderMismatch {
  return { code: HEADER_MISMATCH, message: `Header mismatch: ${message}` };
}

/**
 * The x-mcp-header parameters of a tool's inputSchema, or why the annotation
 * is invalid (server/tools#x-mcp-header): a non-empty token, unique without
 * regard to case, on a string, integer or boolean property reachable from the
 * root through `properties` alone.
 */
export function headerParams(inputSchema: unknown): { params: HeaderParam[] } | { error: string } {
  const params: HeaderParam[] = [];
  const problems: string[] = [];
  const visit = (schema: unknown, path: string[], reachable: boolean): void => {
    if (!isObject(schema)) return;
    if (Object.hasOwn(schema, "x-mcp-header")) {
      const name = schema["x-mcp-header"];
      const at = path.length ? path.join(".") : "(root)";
      const type = schema["type"];
      if (!reachable || path.length === 0)
        problems.push(`x-mcp-header at ${at} is not on a property reachable through properties alone`);
      else if (typeof name !== "string" || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
        problems.push(`x-mcp-header ${JSON.stringify(name)} at ${at} is not an HTTP token`);
      else if (type !== "string" && type !== "integer" && type !== "boolean")
        problems.push(
          `x-mcp-header ${name} at ${at} is on a ${JSON.stringify(type)} property (string, integer or boolean only)`,
        );
      else if (params.some((p) => p.name.toLowerCase() === name.toLowerCase()))
        problems.push(`x-mcp-header ${name} is declared twice (names are compared without case)`);
      else params.push({ name, path: [...path], type });
    }
    for (const [keyword, value] of Object.entries(schema)) {
      if (keyword === "properties" && isObject(value)) {
        for (const [property, sub] of Object.entries(value)) visit(sub, [...path, property], reachable);
      } else if (
        keyword !== "x-mcp-header" &&
        keyword !== "const" &&
        keyword !== "enum" &&
        keyword !== "default" &&
        keyword !== "examples"
      ) {
        // Anything under another keyword (items, anyOf, $defs, ...) is not statically reachable.
        if (isObject(value)) visit(value, path, false);
        else if (Array.isArray(value)) for (const item of value) visit(item, path, false);
      }
    }
  };
  visit(inputSchema, [], true);
  return problems.length > 0 ? { error: problems.join("; ") } : { params };
}
