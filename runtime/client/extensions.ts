// Extensions on the client's side (2026-07-28 basic/versioning#extension-negotiation):
// a generated extension's tables merged into the wire revision's, so that its
// requests can be sent and their answers are checked like any other. Only a
// revision whose capabilities have an `extensions` map (RevisionInfo.extensions)
// negotiates extensions; on any other the wire stays as it is, and the
// extension's methods do not exist for it.
import { withExtensions } from "../extensions.js";
import { extensionLoaders, type LoadedRevision } from "../protocol/revisions.js";

/** The wire with the named generated extensions' methods and checks merged in, where the revision negotiates them. */
export async function extendWire(wire: LoadedRevision, names: readonly string[] | undefined): Promise<LoadedRevision> {
  if (!names || names.length === 0) return wire;
  const loaders = extensionLoaders(names);
  if (!wire.info.extensions) return wire;
  const tables = await Promise.all(loaders.map((load) => load()));
  return { ...wire, tables: withExtensions(wire.tables, tables) };
}
