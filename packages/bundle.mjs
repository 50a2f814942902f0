// The runtime package's JavaScript, bundled: one file per export (at the path
// the export names, so the manifest's exports and the .d.ts files tsc wrote
// beside them stay as they are) and shared chunks under dist/chunks/. Why: a
// stdio server that imports mcpgen/server and mcpgen/stdio otherwise loads
// ~60 modules, each one the loader resolves, reads, compiles and links at
// start. Revisions, shims and extensions stay separate chunks
// loaded by import() when a session first needs them, as in dist/.
//
// Dependencies and peers (ajv, jose, redis, yaml) and Node's built-ins stay
// imports: the package's manifest declares them, and a project dedupes them.
import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";

const root = resolve(fileURLToPath(import.meta.url), "..", "..");

/**
 * Every module a user can import from the runtime package, as a path under the
 * checkout without ".js" ("dist/runtime/server/index"): the manifest's export
 * targets, and for its "./*" pattern every index.js below dist/generated.
 */
export function runtimeEntries(manifest) {
  const entries = new Set();
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const file = typeof target === "string" ? target : target.default;
    if (!file.endsWith(".js")) continue; // ./package.json
    if (!subpath.includes("*")) {
      entries.add(file.replace(/^\.\//, "").replace(/\.js$/, ""));
      continue;
    }
    const [before, after] = file.replace(/^\.\//, "").split("*");
    for (const found of walk(join(root, before)))
      if (found.endsWith(after)) entries.add(relative(root, found).replace(/\.js$/, ""));
  }
  return [...entries].sort();
}

/** Writes the bundled JavaScript of the runtime package into `into` (its package root). */
export async function bundleRuntime(manifest, into) {
  const external = [
    /^node:/,
    ...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).map(
      (name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(/|$)`),
    ),
  ];
  const input = Object.fromEntries(runtimeEntries(manifest).map((entry) => [entry, join(root, `${entry}.js`)]));
  const entryFiles = new Set(Object.values(input));
  const bundle = await rolldown({
    input,
    platform: "node",
    external,
    // The generated modules import the runtime as "mcpgen/runtime/codegen" (the package's self-reference).
    resolve: {
      alias: {
        "mcpgen/runtime/codegen": join(root, "dist", "runtime", "codegen.js"),
        "mcpgen/runtime": join(root, "dist", "runtime", "index.js"),
      },
    },
    // Exports of an entry are its public API: keep every one, even when no other entry uses
    // it. "strict" would also forbid adding any, but rolldown refuses it with the groups below;
    // they keep entries from hosting shared code instead (test/package/exports.test.ts checks).
    preserveEntrySignatures: "allow-extension",
    logLevel: "warn",
  });
  await bundle.write({
    dir: into,
    format: "esm",
    // ASCII only (other characters escaped) and no JSDoc: less for the loader to
    // decode and keep; the .d.ts files beside the entries carry the docs to
    // editors. Annotations (/* @__PURE__ */) and legal comments stay.
    charset: "ascii",
    comments: { legal: true, annotation: true, jsdoc: false },
    entryFileNames: "[name].js",
    chunkFileNames: "dist/chunks/[name]-[hash].js",
    // Few chunks, each what one kind of session needs together: every module a
    // chunk holds costs the loader a file otherwise. An entry's own module stays
    // out of the groups: a chunk that holds an entry exports, beside the entry's
    // API, whatever other chunks import from it, under made-up names.
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [{ name: (id) => (entryFiles.has(id) ? null : chunkOf(id)), debugName: "mcpgen" }],
    },
  });
  await bundle.close();
}

/**
 * The chunk a module goes into: the runtime's top level (shared by server and
 * client), the protocol layer (also shared), the server with the stdio transport, the Streamable HTTP transport
 * (node:http, SSE, the Host/Origin guard, OAuth: what a stdio server never
 * runs, and node:http's own load), the client, and each generated
 * revision, module of shared checks, extension and shim pair on its own (loaded when a session needs it),
 * without its per-type guards and validators (null: left in its entry).
 */
function chunkOf(id) {
  const path = checkoutPath(id);
  let m;
  // A revision's or extension's per-type guards and validators (~300 one-line
  // functions) stay in its entry file, which only a user's own import loads;
  // the runtime reaches the folder through tables.js (generator/emit/tables-file.ts).
  if (/^dist\/generated\/(ext\/)?(?!shims\/)[^/]+\/(index|guards|validators)\.js$/.test(path)) return null;
  // A module of checks several revisions share is a chunk of its own: each revision's loads only those it uses.
  if ((m = /^dist\/generated\/(shims|ext|checks)\/([^/]+?)(?:\.js|\/)/.exec(path))) return `${m[1]}-${m[2]}`;
  if ((m = /^dist\/generated\/([^/]+)\//.exec(path))) return m[1];
  if (path.startsWith("dist/generated/")) return "generated";
  if (/^dist\/runtime\/transports\/(http(-[a-z-]+)?|sse|auth)\.js$/.test(path)) return "http";
  // Serving from a startup snapshot (node:v8 and the warm-up) stays in its entry: only a snapshot's script imports it.
  if (path === "dist/runtime/transports/snapshot.js") return null;
  if ((m = /^dist\/runtime\/(server|transports|client|auth|redis)\//.exec(path)))
    return m[1] === "transports" ? "server" : m[1];
  // The protocol layer reaches the generated revisions (and through them, by import(), the shims),
  // which import the runtime's top level: one chunk with both would import itself dynamically, a
  // cycle that a bundler inlining dynamic imports (mcpgen snapshot) cannot build.
  if (path.startsWith("dist/runtime/protocol/")) return "protocol";
  if (path.startsWith("dist/runtime/")) return "runtime";
  return null;
}

/** A module's path under the checkout, with forward slashes ("dist/runtime/index.js"). */
function checkoutPath(id) {
  return relative(root, id).split("\\").join("/");
}

function* walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
