// The README, CONTRIBUTING.md and docs/: every relative link points to a file
// that exists (and an anchor to a heading of it), and every code block is run
// or checked by a test: a block without a name is an examples/ file shown
// verbatim, and a test names that file; a named block is taken by a test that
// names its page and its name (test/docs/pages.ts says how).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";
import { codeBlocks, docPages, pageText } from "./pages.js";

const PAGES = [...docPages(), "CONTRIBUTING.md"];

/** Every test file's text but this one's, by path from the project root. */
const tests = (() => {
  const files: [string, string][] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && path !== import.meta.filename)
        files.push([relative(projectRoot, path), readFileSync(path, "utf8")]);
    }
  };
  walk(join(projectRoot, "test"));
  return files;
})();

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(page: string): Set<string> {
  const text = pageText(page).replace(/^```[\s\S]*?^```$/gm, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
}

/** The relative links of a page, outside code: [text](target) with no scheme. */
function relativeLinks(page: string): string[] {
  const text = pageText(page)
    .replace(/^```[\s\S]*?^```$/gm, "")
    .replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

describe.each(PAGES)("%s", (page) => {
  test("its relative links point to files that exist, and its anchors to their headings", () => {
    const broken: string[] = [];
    for (const link of relativeLinks(page)) {
      const [path, fragment] = link.split("#") as [string, string | undefined];
      const target = path === "" ? page : relative(projectRoot, join(projectRoot, dirname(page), path));
      if (!existsSync(join(projectRoot, target))) broken.push(`${link}: no file ${target}`);
      else if (fragment !== undefined && target.endsWith(".md") && !anchorsOf(target).has(fragment))
        broken.push(`${link}: no heading #${fragment} in ${target}`);
    }
    expect(broken).toEqual([]);
  });

  test("every code block is an example shown verbatim or a block a test names", () => {
    const names = new Set<string>();
    const uncovered: string[] = [];
    for (const block of codeBlocks(page)) {
      const where = `${page}:${block.line}`;
      if (block.name === undefined) {
        const example = readdirSync(join(projectRoot, "examples"), { recursive: true, encoding: "utf8" }).find(
          (file) => file.endsWith(".ts") && readFileSync(join(projectRoot, "examples", file), "utf8") === block.code,
        );
        if (!example) uncovered.push(`${where}: a ${block.language} block with no name is no examples/ file`);
        else if (!tests.some(([, text]) => text.includes(`examples/${example.replace(/\.ts$/, "")}`)))
          uncovered.push(`${where}: no test runs examples/${example}`);
        continue;
      }
      if (names.has(block.name)) uncovered.push(`${where}: a second block named ${block.name}`);
      names.add(block.name);
      const runners = tests.filter(([, text]) => text.includes(`"${page}"`) && text.includes(`"${block.name}"`));
      if (runners.length === 0) uncovered.push(`${where}: no test takes the block named ${block.name}`);
    }
    expect(uncovered).toEqual([]);
  });
});

test("the README is one page and links every page of docs/", () => {
  const readme = pageText("README.md");
  expect(readme.split("\n").length).toBeLessThanOrEqual(200);
  for (const page of docPages().filter((p) => p.startsWith("docs/") && p !== "docs/README.md"))
    expect(readme, `the README does not link ${page}`).toContain(`](${page})`);
});
