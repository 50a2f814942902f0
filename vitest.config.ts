import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Slow because they pack the packages, install them into new projects with npm, build V8 startup
 * snapshots or start many processes: seconds to minutes each.
 */
const packageTests = [
  "test/package/**/*.test.ts",
  "test/cli/init.test.ts",
  "test/cli/snapshot.test.ts",
  "test/docs/snapshot.test.ts",
  "test/server/snapshot-warm.test.ts",
];

/** Upstream's whole schema history, generated, type-checked and compared with ajv state by state: minutes. */
const historyTests = ["test/history/**/*.test.ts"];

/** Bun, Deno and workerd (npm packages) started on loopback, the conformance suite run against them: minutes. */
const runtimeTests = ["test/runtimes/**/*.test.ts", "test/cli/init-runtimes.test.ts"];

/** What runs again on another Node version: the packed packages, snapshots and the transports. */
const nodeTests = [
  "test/package/exports.test.ts",
  "test/package/pack.test.ts",
  "test/package/no-eval.test.ts",
  "test/cli/snapshot.test.ts",
  "test/server/snapshot-warm.test.ts",
  "test/server/stdio.test.ts",
  "test/server/http*.test.ts",
  "test/server/interop*.test.ts",
  "test/client/stdio-transport.test.ts",
  "test/client/hostile-http.test.ts",
  "test/client/legacy-sse.test.ts",
  "test/runtime/*.test.ts",
  "test/redis/store.test.ts",
];

export default defineConfig({
  resolve: {
    // Generated code imports its runtime contract by package name, as it does in
    // a user's project; inside this repository that name is the source folder.
    alias: {
      // Before "mcpgen/runtime": an alias also matches the names below it.
      "mcpgen/runtime/codegen": fileURLToPath(new URL("./runtime/codegen.ts", import.meta.url)),
      "mcpgen/runtime": fileURLToPath(new URL("./runtime/index.ts", import.meta.url)),
      "mcpgen/server": fileURLToPath(new URL("./runtime/server/index.ts", import.meta.url)),
      "mcpgen/stdio": fileURLToPath(new URL("./runtime/transports/stdio.ts", import.meta.url)),
      "mcpgen/http": fileURLToPath(new URL("./runtime/transports/http.ts", import.meta.url)),
      "mcpgen/fetch": fileURLToPath(new URL("./runtime/transports/fetch.ts", import.meta.url)),
      "mcpgen/jwt": fileURLToPath(new URL("./runtime/auth/jwt.ts", import.meta.url)),
      "mcpgen/redis": fileURLToPath(new URL("./runtime/redis/index.ts", import.meta.url)),
      "mcpgen/client": fileURLToPath(new URL("./runtime/client/index.ts", import.meta.url)),
    },
  },
  test: {
    // Two workers on the project's 2-core machines (vitest's default there is one): many files
    // spend their time waiting on the processes they start.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      // `npm test`: every unit and integration test.
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [...packageTests, ...historyTests, ...runtimeTests],
        },
      },
      // `npm run test:packages`: the slow tests of what is published (why each is slow: its header).
      { extends: true, test: { name: "packages", include: packageTests } },
      // `npm run test:node`, which CI runs again on the newest Node LTS: what depends on the Node
      // version, not on mcpgen's logic (packed packages loading, snapshots, sockets, pipes, decoders).
      {
        extends: true,
        // The load test asks how mcpgen holds up, not how a Node version does: once, in the suite.
        test: { name: "node", include: nodeTests, exclude: ["test/server/http-load.test.ts"] },
      },
      // `npm run test:history`, which CI runs: every state of upstream's draft schema as a revision never seen.
      { extends: true, test: { name: "history", include: historyTests } },
      // `npm run test:runtimes`: examples/fetch-server on Bun and on Deno and the conformance Workers on workerd,
      // the conformance suite against each; examples/deploy on each platform. One file at a time: they
      // install Node 22 and the suite into one cache.
      { extends: true, test: { name: "runtimes", include: runtimeTests, fileParallelism: false } },
    ],
  },
});
