// Extensions (2026-07-28 basic/index#extensions) at run time: a generated
// extension's tables (generated/ext/<name>/tables.ts) merged into a
// revision's message tables, for a conversation where the extension is
// negotiated. Its methods join the method table, its types the checks (under
// "<name>:<Type>" so that they never shadow a revision's type of the same
// name), and the base requests it augments accept its result types too.
import type { MethodEntry, MethodTable } from "./table-types.js";
import type { MessageTables } from "./messages.js";
import type { Check } from "./validation.js";

/** What generated/ext/<name>/tables.ts exports as `extensionTables`. */
export interface ExtensionTables {
  /** The folder name, e.g. "tasks". */
  readonly name: string;
  /** The key in `capabilities.extensions`, e.g. "io.modelcontextprotocol/tasks". */
  readonly identifier: string;
  /** The revision whose types it imports. */
  readonly base: string;
  readonly methods: MethodTable;
  readonly checks: { readonly [type: string]: Check };
  readonly params: { readonly [method: string]: Check | null };
  readonly results: { readonly [method: string]: Check };
  /** Base requests that may answer one of its types instead, by method. */
  readonly augments: { readonly [method: string]: readonly string[] };
  /** Its requests whose Mcp-Name header carries a params field (Streamable HTTP), by method: the field. */
  readonly nameHeaders?: { readonly [method: string]: string };
  /** Params members whose entries the receiver checks itself (unexpected entries are ignored), by method. */
  readonly selfChecked?: { readonly [method: string]: readonly string[] };
}

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** The name an extension's type has in merged tables. */
export function extensionTypeName(extension: Pick<ExtensionTables, "name">, type: string): string {
  return `${extension.name}:${type}`;
}

/**
 * A request's check that does not look inside the entries of `members` (maps
 * in params): each map is checked as an empty one, so its shape still is.
 */
function skippingEntries(check: Check, members: readonly string[]): Check {
  return (value, failure) => {
    const params =
      typeof value === "object" && value !== null ? (value as Record<string, unknown>)["params"] : undefined;
    if (typeof params !== "object" || params === null) return check(value, failure);
    const emptied: Record<string, unknown> = { ...(params as Record<string, unknown>) };
    for (const member of members) {
      const map = emptied[member];
      if (typeof map === "object" && map !== null && !Array.isArray(map)) emptied[member] = {};
    }
    return check({ ...(value as Record<string, unknown>), params: emptied }, failure);
  };
}

/**
 * A revision's tables with extensions merged in. A method an extension
 * declares that the revision (or another extension) already has is a
 * conflict, refused with a TypeError; so is an augment of a request the
 * revision lacks.
 */
export function withExtensions(tables: MessageTables, extensions: readonly ExtensionTables[]): MessageTables {
  if (extensions.length === 0) return tables;
  const methods: { [method: string]: MethodEntry } = { ...tables.methods };
  const checks: { [type: string]: Check } = { ...tables.checks };
  const params: { [method: string]: Check | null } = { ...tables.params };
  const results: { [method: string]: Check } = { ...tables.results };
  const nameHeaders: { [method: string]: string } = { ...tables.nameHeaders };
  const revision = tables.envelope.revision;
  for (const extension of extensions) {
    const named = (type: string | null) => (type === null ? null : extensionTypeName(extension, type));
    for (const [type, check] of Object.entries(extension.checks)) checks[extensionTypeName(extension, type)] = check;
    for (const [method, entry] of Object.entries(extension.methods)) {
      if (hasOwn(methods, method))
        throw new TypeError(`extension ${extension.identifier} declares ${method}, which ${revision} already has`);
      methods[method] = {
        ...entry,
        type: named(entry.type)!,
        params: named(entry.params),
        result: named(entry.result),
        resultResponse: named(entry.resultResponse),
      };
      params[method] = extension.params[method] ?? null;
      if (hasOwn(extension.results, method)) results[method] = extension.results[method]!;
      if (extension.nameHeaders && hasOwn(extension.nameHeaders, method))
        nameHeaders[method] = extension.nameHeaders[method]!;
      const members =
        extension.selfChecked && hasOwn(extension.selfChecked, method) ? extension.selfChecked[method]! : [];
      if (members.length > 0) checks[methods[method]!.type] = skippingEntries(checks[methods[method]!.type]!, members);
    }
    for (const [method, types] of Object.entries(extension.augments)) {
      const original = hasOwn(results, method) ? results[method] : undefined;
      if (!original)
        throw new TypeError(
          `extension ${extension.identifier} augments ${method}, which is not a request of ${revision}`,
        );
      const alternatives = types.map((type) => extension.checks[type]!);
      // Either the request's own result or one of the extension's; the failure reported is the original's.
      results[method] = (value, failure) =>
        alternatives.some((check) => check(value, null)) || original(value, failure);
    }
  }
  return { envelope: tables.envelope, methods, checks, params, results, nameHeaders };
}
