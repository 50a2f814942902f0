// The reserved `_meta` keys of the per-request revisions (2026-07-28
// basic/index#meta): what a request says about itself, and what a result or a
// subscription notification says back. The schema declares them as fields of
// RequestMetaObject, ResultMetaObject and NotificationMetaObject; what each one
// means is prose, so the names live here.
import { isObject } from "../validation.js";

/** basic/index#meta "Per-request protocol fields" and "Per-response protocol fields". */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
/** basic/patterns/subscriptions#receiving-notifications */
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** A message's params._meta, when it is an object. */
export function metaOf(message: Record<string, unknown>): Record<string, unknown> | undefined {
  const params = message["params"];
  if (!isObject(params)) return undefined;
  const meta = params["_meta"];
  return isObject(meta) ? meta : undefined;
}

/**
 * The protocol version a request states in _meta: a string, undefined when
 * absent, or null when present and not a string (which no revision accepts).
 */
export function statedVersion(message: Record<string, unknown>): string | undefined | null {
  const meta = metaOf(message);
  if (!meta || !Object.hasOwn(meta, META_PROTOCOL_VERSION)) return undefined;
  const version = meta[META_PROTOCOL_VERSION];
  return typeof version === "string" ? version : null;
}

/** Whether a request carries any per-request protocol field: a modern client's request. */
export function hasPerRequestMeta(message: Record<string, unknown>): boolean {
  const meta = metaOf(message);
  return (
    meta !== undefined &&
    (META_PROTOCOL_VERSION in meta || META_CLIENT_CAPABILITIES in meta || META_CLIENT_INFO in meta)
  );
}
