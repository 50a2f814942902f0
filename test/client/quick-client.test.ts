// The README's client runs as written: the README shows
// examples/quick-client.ts verbatim and the output it prints (the block named
// quick-client-output), and the compiled example prints exactly that against
// the quick-start server (the packaging
// test, test/package/split.test.ts, runs the same two files from the packed
// runtime in a fresh nodenext project).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { snippet } from "../docs/pages.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(`${root}/README.md`, "utf8");

test("the README shows examples/quick-client.ts verbatim", () => {
  const source = readFileSync(`${root}/examples/quick-client.ts`, "utf8");
  expect(readme).toContain("```ts\n" + source + "```");
});

test("the compiled example prints what the README says it prints", () => {
  const shown = snippet("README.md", "quick-client-output");
  const run = spawnSync(process.execPath, [`${root}/dist/examples/quick-client.js`], {
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout).toBe(shown);
});
