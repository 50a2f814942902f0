// Capabilities along a method table's capability paths: whether an object
// declares one (a request's need, checked), and a server's capabilities in a
// revision's shape, derived from the methods it offers.
import { isObject, run } from "../validation.js";
import type { CapabilityRequirement } from "../table-types.js";
import type { MessageTables } from "../messages.js";
import type { ExtensionTables } from "../extensions.js";

/** Whether a capabilities object declares the capability at `path` (a present, non-false value). */
export function declared(capabilities: unknown, requirement: CapabilityRequirement): boolean {
  let value: unknown = capabilities;
  for (const key of requirement.path) {
    if (!isObject(value)) return false;
    value = value[key];
  }
  return value !== undefined && value !== null && value !== false;
}

/**
 * A server's capabilities in a revision's shape, derived from its method
 * table: each offered method's capability path is declared (a leaf is `{}`
 * where the revision's ServerCapabilities takes an object there and `true`
 * where it takes a flag), then each served extension's settings where the
 * revision carries its methods, then what the server declared itself.
 */
export function deriveCapabilities(
  tables: MessageTables,
  offered: readonly string[],
  extra: {
    /** 2025-11-25's task-augmented tools/call, declared under tasks.requests (no method says so). */
    readonly taskAugmentedCall: boolean;
    readonly extensions: readonly { readonly tables: ExtensionTables; readonly settings: unknown }[];
    readonly declared: Record<string, unknown>;
  },
): Record<string, unknown> {
  const derived: Record<string, unknown> = {};
  for (const method of offered) {
    const requirement = Object.hasOwn(tables.methods, method) ? tables.methods[method]!.capability : null;
    if (!requirement || requirement.holder === "client") continue;
    declare(derived, requirement.path, tables);
  }
  if (extra.taskAugmentedCall) declare(derived, ["tasks", "requests", "tools", "call"], tables);
  // An extension's settings, where its methods are in the tables (the revision negotiates extensions).
  for (const { tables: extension, settings } of extra.extensions) {
    const [method] = Object.keys(extension.methods);
    if (method === undefined || !Object.hasOwn(tables.methods, method)) continue;
    merge(derived, { extensions: { [extension.identifier]: settings } });
  }
  return merge(derived, extra.declared);
}

/** Sets a capability path: `{}` for an object the revision's schema takes, `true` for a flag. */
function declare(capabilities: Record<string, unknown>, path: readonly string[], tables: MessageTables): void {
  let node = capabilities;
  path.forEach((key, i) => {
    if (i < path.length - 1) {
      if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
      return;
    }
    if (node[key] !== undefined) return;
    node[key] = {};
    if (!run(tables.checks["ServerCapabilities"]!, capabilities).valid) node[key] = true;
  });
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    into[key] =
      typeof existing === "object" && existing !== null && typeof value === "object" && value !== null
        ? merge({ ...(existing as Record<string, unknown>) }, value as Record<string, unknown>)
        : value;
  }
  return into;
}
