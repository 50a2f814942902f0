import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

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
      "mcpgen/jwt": fileURLToPath(new URL("./runtime/auth/jwt.ts", import.meta.url)),
      "mcpgen/redis": fileURLToPath(new URL("./runtime/redis/index.ts", import.meta.url)),
      "mcpgen/client": fileURLToPath(new URL("./runtime/client/index.ts", import.meta.url)),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // vitest's default for a run is one worker fewer than the CPUs: one on this project's 2-core
    // machine kind, where the files then ran one after another (26 minutes on a slow host; 18 with
    // two workers on the same host). Many files spend their time waiting on the processes they start.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
