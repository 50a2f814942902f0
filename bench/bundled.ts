// A server as its author may ship it: their script and everything it imports,
// mcpgen included, bundled by rolldown into one ES module, with the chunks that
// mcpgen loads on demand (a client revision's checks, the shims) split off as
// rolldown does by default. Why a row of its own: Node's ES module loader
// resolves, reads, compiles and links every file of a graph, and a server on
// the package as installed starts through several. Node's built-ins stay
// imports; ajv, which mcpgen requires only when a tool schema needs it, is
// found beside the bundle, in the project's node_modules.
import { join } from "node:path";
import { rolldown } from "rolldown";

/** Bundles `dir/script` into `dir/into/` and returns the bundled script's path. */
export async function bundleServer(dir: string, script: string, into: string): Promise<string> {
  const bundle = await rolldown({ input: join(dir, script), platform: "node", external: [/^node:/], logLevel: "warn" });
  try {
    await bundle.write({ dir: join(dir, into), format: "esm" });
  } finally {
    await bundle.close();
  }
  return join(dir, into, script);
}
