// The README's five-minute client runs as written: the README shows
// examples/quick-client.ts verbatim and the output it prints, and the compiled
// example prints exactly that against the quick-start server (the packaging
// test, test/package/split.test.ts, runs the same two files from the packed
// runtime in a fresh nodenext project).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(`${root}/README.md`, "utf8");

test("the README shows examples/quick-client.ts verbatim", () => {
  const source = readFileSync(`${root}/examples/quick-client.ts`, "utf8");
  expect(readme).toContain("```ts\n" + source + "```");
});

test("the compiled example prints what the README says it prints", () => {
  const section = readme.slice(readme.indexOf("## A client in five minutes"));
  const shown = /it prints:\n\n```\n([^`]*)```/.exec(section)?.[1];
  expect(shown).toBeDefined();
  const run = spawnSync(process.execPath, [`${root}/dist/examples/quick-client.js`], {
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout).toBe(shown);
});
