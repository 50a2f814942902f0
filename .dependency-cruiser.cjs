// The layering of the runtime and the generator, checked by `npm run lint:deps`
// (dependency-cruiser) before the tests run. Type-only imports count: a cycle
// of types is still a cycle a reader must untangle.
/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "No import cycle anywhere under runtime/ or generator/: shared types live in leaf modules.",
      severity: "error",
      from: { path: "^(runtime|generator)/" },
      to: { circular: true },
    },
    {
      name: "client-not-server",
      comment: "The client builds on runtime/protocol, never on the server.",
      severity: "error",
      from: { path: "^runtime/client/" },
      to: { path: "^runtime/server/" },
    },
    {
      name: "protocol-below-sides",
      comment: "runtime/protocol is what server and client share: it imports nothing above it.",
      severity: "error",
      from: { path: "^runtime/protocol/" },
      to: { path: "^runtime/(server|client|transports|auth|redis)/" },
    },
    {
      name: "runtime-not-generator",
      comment: "The runtime is what generated code calls; it never loads the generator.",
      severity: "error",
      from: { path: "^runtime/" },
      to: { path: "^generator/" },
    },
    {
      name: "generator-not-runtime-sides",
      comment: "The generator may read the runtime's contract and data types, never its server, client or transports.",
      severity: "error",
      from: { path: "^generator/" },
      to: { path: "^runtime/(server|client|transports)/" },
    },
  ],
  options: {
    // `import type` and `export type` count.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist)/" },
  },
};
