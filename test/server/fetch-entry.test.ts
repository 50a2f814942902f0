// mcpgen/fetch loads where node:http does not exist: bundled for a browser-like
// platform (as a Workers, Deno or Bun bundler sees it), with every node:
// module left external, nothing it reaches names one, statically or in import().
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import { expect, test } from "vitest";

test("the fetch entry's module graph names no node: module", async () => {
  const entry = fileURLToPath(new URL("../../runtime/transports/fetch.ts", import.meta.url));
  const named = new Set<string>();
  const bundle = await rolldown({
    input: entry,
    platform: "browser",
    external: (id) => {
      if (!id.startsWith("node:")) return false;
      named.add(id);
      return true;
    },
    logLevel: "silent",
  });
  const { output } = await bundle.generate({ format: "esm" });
  await bundle.close();
  const imports = output.flatMap((chunk) =>
    chunk.type === "chunk" ? [...chunk.imports, ...chunk.dynamicImports].filter((id) => id.startsWith("node:")) : [],
  );
  expect([...named, ...imports]).toEqual([]);
  // The bundle holds the handler itself (not an empty graph that trivially passes).
  const code = output.map((chunk) => (chunk.type === "chunk" ? chunk.code : "")).join("\n");
  expect(code).toContain("createFetchHandler");
}, 60_000);
