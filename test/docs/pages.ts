// The documentation pages as tests read them: their fenced code blocks, a
// named block's text, and a folder inside the package where a test writes the
// blocks out, type-checks them and runs them as a user would ("mcpgen/..."
// resolves to this build by the package's own name).
//
// A block shown as it is in an examples/ file carries only its language
// (```ts). Any other block carries a name after its language (```ts tasks),
// and some test runs or checks it: `snippet(page, name)` is how a test gets it,
// and test/docs/pages.test.ts fails for a named block that no test names.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../helpers.js";

export interface CodeBlock {
  readonly page: string;
  /** The info string's first word: ts, js, sh, text, nginx... */
  readonly language: string;
  /** The info string's second word, if any. */
  readonly name: string | undefined;
  readonly code: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
}

/** README.md and every page of docs/, as paths relative to the project root. */
export function docPages(): string[] {
  const docs = readdirSync(join(projectRoot, "docs"))
    .filter((file) => file.endsWith(".md"))
    .sort();
  return ["README.md", ...docs.map((file) => `docs/${file}`)];
}

export function pageText(page: string): string {
  return readFileSync(join(projectRoot, page), "utf8");
}

/** The fenced code blocks of a page, in order. */
export function codeBlocks(page: string): CodeBlock[] {
  const lines = pageText(page).split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(?:[ \t]+(\S+))?[ \t]*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i]!);
    if (i === lines.length) throw new Error(`${page}:${start + 1}: a code block that is never closed`);
    blocks.push({
      page,
      language: open[1] ?? "",
      name: open[2],
      code: body.map((line) => line + "\n").join(""),
      line: start + 1,
    });
  }
  return blocks;
}

/** The text of the block named `name` on `page`; throws unless there is exactly one. */
export function snippet(page: string, name: string): string {
  const found = codeBlocks(page).filter((block) => block.name === name);
  if (found.length !== 1) throw new Error(`${page} has ${found.length} blocks named ${name}, not one`);
  return found[0]!.code;
}

/**
 * A fresh folder dist/docs-test/<name>/: inside the package, so that the files
 * written there import "mcpgen/..." from this build, and "redis" or "jose" from
 * its node_modules.
 */
export function workFolder(name: string): string {
  const dir = join(projectRoot, "dist", "docs-test", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Writes TypeScript files into `dir`, then type-checks and compiles them with
 * the project's TypeScript as a user's strict nodenext project would (the
 * JavaScript lands beside each file). Returns "exit 0" or the diagnostics.
 */
export function compile(dir: string, files: Readonly<Record<string, string>>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [join(projectRoot, "node_modules", "@types")],
    },
    files: Object.keys(files),
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config, null, 2));
  const tsc = join(projectRoot, "node_modules", "typescript", "bin", "tsc");
  const run = spawnSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8", timeout: 120_000 });
  return run.status === 0 ? "exit 0" : `exit ${run.status}\n${run.stdout}${run.stderr}`;
}

/** Runs a script of `dir` with Node, bounded in time; `env` adds to the environment. */
export function runScript(
  dir: string,
  file: string,
  options: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [file], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, ...options.env },
    timeout: options.timeoutMs ?? 30_000,
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
}
