// Extensions on the client's side (2026-07-28 basic/versioning#extension-negotiation):
// a generated extension's tables merged into the wire revision's, so that its
// requests can be sent and their answers are checked like any other. Only a
// revision whose capabilities have an `extensions` map (RevisionInfo.extensions)
// negotiates extensions; on any other the wire stays as it is, and the
// extension's methods do not exist for it.
import { extensions as generatedExtensions, loadExtensionTables } from "../../generated/index.js";
import { withExtensions } from "../extensions.js";
import type { Wire } from "../server/revisions.js";

/** The wire with the named generated extensions' methods and checks merged in, where the revision negotiates them. */
export async function extendWire(wire: Wire, names: readonly string[] | undefined): Promise<Wire> {
  if (!names || names.length === 0) return wire;
  const unknown = names.filter((name) => !Object.prototype.hasOwnProperty.call(loadExtensionTables, name));
  if (unknown.length > 0)
    throw new TypeError(
      `no generated extension ${unknown.map((n) => JSON.stringify(n)).join(", ")} (generated: ${generatedExtensions.map((e) => e.name).join(", ") || "none"})`,
    );
  if (!wire.info.extensions) return wire;
  const tables = await Promise.all(names.map((name) => loadExtensionTables[name]!()));
  return { ...wire, tables: withExtensions(wire.tables, tables) };
}
