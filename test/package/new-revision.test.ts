// docs/generator.md's "When a new spec revision ships", run as written from an
// installed CLI: its block's commands, one by one, in a project with both packed
// packages installed and every pinned revision generated, the new revision being
// the newest state of upstream's draft schema from the schema history. Each
// step leaves a generated/ that type-checks against the installed runtime, and
// nothing is written into the installed packages.
// Slow: it installs both packed packages into a new project (npm), generates every revision twice and runs tsc there.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { delimiter, join, relative, resolve } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { Lock } from "../../generator/lock/lock.js";
import { snippet } from "../docs/pages.js";
import { lock, lockPath, projectRoot } from "../helpers.js";
import { newProject, packPackages } from "./packs.js";

const tsc = join(projectRoot, "node_modules", "typescript", "bin", "tsc");
/** Upstream's schema history sits beside the pinned revisions' folder (MCP_SPEC_DIR). */
const history = join(
  resolve(projectRoot, process.env["MCP_SPEC_DIR"] ?? "../shared/mcp-spec/schema"),
  "..",
  "history",
  "draft",
);
const COMMIT = "c".repeat(40);
const NAME = "2027-01-01";

/** The block's commands, by step (the comment line that opens each). */
function steps(): string[][] {
  const grouped: string[][] = [];
  for (const line of snippet("docs/generator.md", "new-revision").split("\n")) {
    if (line.startsWith("#")) grouped.push([]);
    else if (line.trim() !== "") grouped.at(-1)!.push(line);
  }
  return grouped;
}

describe("a new revision, from an installed CLI, as docs/generator.md says", () => {
  let project: string;
  /** A command line as a user types it, in the project, with the installed `mcpgen` on PATH. */
  const sh = (line: string, input?: string) => {
    const run = spawnSync("sh", ["-c", line], {
      cwd: project,
      encoding: "utf8",
      timeout: 180_000,
      ...(input !== undefined ? { input } : {}),
      env: {
        ...process.env,
        PATH: `${join(project, "node_modules", ".bin")}${delimiter}${process.env["PATH"]}`,
        COMMIT,
        // The pinned revisions' inputs: this checkout's verified cache, laid out like the upstream folders.
        MCP_SPEC_DIR: join(projectRoot, "spec"),
        MCP_EXT_DIR: join(projectRoot, "spec", "ext"),
      },
    });
    return { line, status: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const typeCheck = () => {
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          strict: true,
          noEmit: true,
          types: [],
        },
        include: ["generated"],
      }),
    );
    const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project, encoding: "utf8" });
    return `${run.stdout}${run.stderr}exit ${run.status}`;
  };
  /** The revisions the root index lists (its extensions are listed by name too). */
  const listed = () =>
    [...readFileSync(join(project, "generated", "index.ts"), "utf8").matchAll(/name: "([^"]+)"/g)]
      .map((m) => m[1])
      .filter((name) => !(lock.extensions ?? []).some((e) => e.name === name));
  const pinned = lock.revisions.map((r) => r.name);
  /** Every file of the two installed packages, with its size and modification time. */
  const installed = () =>
    ["mcpgen", "mcpgen-generator"].flatMap((name) => {
      const root = join(project, "node_modules", name);
      return readdirSync(root, { recursive: true, encoding: "utf8" })
        .map((path) => ({ path: join(root, path), stat: statSync(join(root, path)) }))
        .filter(({ stat }) => stat.isFile())
        .map(({ path, stat }) => `${relative(project, path)} ${stat.size} ${stat.mtimeMs}`)
        .sort();
    });
  let installedBefore: string[];

  beforeAll(() => {
    const tarballs = packPackages();
    project = newProject([tarballs.runtime, tarballs.generator]);
    for (const line of ["mcpgen spec sync --quiet", "mcpgen generate --quiet"])
      expect(sh(line)).toMatchObject({ status: 0, stderr: "" });
    const newest = readdirSync(history)
      .filter((f) => /^\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.ts$/.test(f))
      .sort()
      .at(-1)!;
    mkdirSync(join(project, "next", NAME), { recursive: true });
    writeFileSync(join(project, "next", NAME, "schema.ts"), readFileSync(join(history, newest)));
    writeFileSync(
      join(project, "next", NAME, "schema.json"),
      readFileSync(join(history, newest.replace(/\.ts$/, ".schema.json"))),
    );
    writeFileSync(join(project, "capture.jsonl"), `${toolsCall("echo")}\n`);
    installedBefore = installed();
  }, 600_000);

  test("the block has the three steps, each naming the new revision", () => {
    const block = steps();
    expect(block).toHaveLength(3);
    for (const step of block) expect(step.some((line) => line.includes(NAME))).toBe(true);
  });

  test("step 1 adds it to generated/ beside the pinned revisions, compares it and checks messages with it", () => {
    const runs = steps()[0]!.map((line) => sh(line));
    for (const run of runs) expect(run, run.line).toMatchObject({ status: 0 });
    expect(runs.map((r) => r.stderr).join("")).not.toMatch(/error|internal/);
    expect(listed()).toEqual([...pinned.filter((n) => n !== "draft"), NAME, "draft"]);
    const shims = readdirSync(join(project, "generated", "shims"));
    expect(shims).toEqual(expect.arrayContaining([`2026-07-28--${NAME}.ts`, `${NAME}--draft.ts`]));
    expect(runs.find((r) => r.line.startsWith("mcpgen diff"))!.stdout).toMatch(new RegExp(`^2026-07-28 → ${NAME}: `));
    expect(runs.find((r) => r.line.startsWith("mcpgen validate"))!.stdout).toBe(
      "line 1: valid request tools/call (CallToolRequest)\n",
    );
    // The same revision rejects what its schema rejects.
    const invalid = sh(`mcpgen validate --schema next/${NAME}/schema.ts --rev ${NAME} -`, toolsCall(5));
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toContain("/params/name: must be string [type]");
    expect(typeCheck()).toBe("exit 0");
  }, 300_000);

  test("step 2 refuses to write into the installed package, then pins it in the project's own lock", () => {
    const installedLock = join(project, "node_modules", "mcpgen-generator", "spec", "revisions.json");
    const pin = steps()[1]!.find((line) => line.startsWith("mcpgen spec pin"))!;
    const withoutLock = sh(pin.replace(/ --lock \S+/, ""));
    expect(withoutLock.status).toBe(2);
    expect(withoutLock.stderr).toMatch(
      /^mcpgen: spec pin writes a lock, and node_modules\/mcpgen-generator\/spec\/revisions\.json belongs to the installed mcpgen-generator: pass --lock FILE/,
    );
    const intoPackage = sh(pin.replace(/ --lock \S+/, ` --lock ${installedLock}`));
    expect(intoPackage.status).toBe(2);
    expect(intoPackage.stderr).toMatch(/is inside the installed mcpgen-generator: name a file of this project\n$/);
    expect(readFileSync(installedLock, "utf8")).toBe(readFileSync(lockPath, "utf8"));

    for (const line of steps()[1]!) expect(sh(line), line).toMatchObject({ status: 0 });
    const own = JSON.parse(readFileSync(join(project, "spec", "revisions.json"), "utf8")) as Lock;
    expect(own.revisions.map((r) => r.name)).toEqual([...pinned.filter((n) => n !== "draft"), NAME, "draft"]);
    expect(own.revisions.filter((r) => r.name !== NAME)).toEqual(lock.revisions);
    const entry = own.revisions.find((r) => r.name === NAME)!;
    expect(entry.files.map((f) => [f.path, f.url])).toEqual(
      ["schema.json", "schema.ts"].map((path) => [
        path,
        `${lock.upstream.rawBaseUrl}/${COMMIT}/schema/${NAME}/${path}`,
      ]),
    );
    expect(readFileSync(installedLock, "utf8")).toBe(readFileSync(lockPath, "utf8"));
  });

  test("step 3 generates it from that lock, strictly, into a generated/ that type-checks", () => {
    const runs = steps()[2]!.map((line) => sh(line));
    for (const run of runs) expect(run, run.line).toMatchObject({ status: 0 });
    expect(runs.map((r) => r.stderr).join("")).not.toMatch(/warning|error|leaving/);
    expect(listed()).toEqual([...pinned.filter((n) => n !== "draft"), NAME, "draft"]);
    expect(readFileSync(join(project, "generated", NAME, "revision.ts"), "utf8")).toContain(COMMIT);
    expect(typeCheck()).toBe("exit 0");
    // No step wrote into the installed packages.
    expect(installed()).toEqual(installedBefore);
  }, 300_000);
});

/** A tools/call request of the per-request era, naming `name` as the tool. */
function toolsCall(name: unknown): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name,
      _meta: { "io.modelcontextprotocol/protocolVersion": NAME, "io.modelcontextprotocol/clientCapabilities": {} },
    },
  });
}
