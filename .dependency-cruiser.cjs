// The layering of the runtime and the generator, checked by `npm run lint:deps`
// (dependency-cruiser) before the tests run. Type-only imports count: a cycle
// of types is still a cycle a reader must untangle.

/** A forbidden import: from modules whose path matches `from`, to those `to` describes. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: "error", from: { path: from }, to });

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      "no-cycles",
      "No import cycle anywhere under runtime/ or generator/: shared types live in leaf modules.",
      "^(runtime|generator)/",
      { circular: true },
    ),
    forbid("client-not-server", "The client builds on runtime/protocol, never on the server.", "^runtime/client/", {
      path: "^runtime/server/",
    }),
    forbid(
      "protocol-below-sides",
      "runtime/protocol is what server and client share: it imports nothing above it.",
      "^runtime/protocol/",
      { path: "^runtime/(server|client|transports|auth|redis)/" },
    ),
    forbid(
      "runtime-not-generator",
      "The runtime is what generated code calls; it never loads the generator.",
      "^runtime/",
      {
        path: "^generator/",
      },
    ),
    forbid(
      "generator-not-runtime-sides",
      "The generator may read the runtime's contract and data types, never its server, client or transports.",
      "^generator/",
      { path: "^runtime/(server|client|transports)/" },
    ),
  ],
  options: {
    // `import type` and `export type` count.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist)/" },
  },
};
