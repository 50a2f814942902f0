// The runtime and the generator are two packages (packages/pack.mjs). A
// server or client author installs the runtime alone: ajv and
// @cfworker/json-schema are its dependencies, it stays within 10 MB and 7 packages, and the README's five-
// minute server and client compile in a nodenext project and talk to each
// other. The generator package carries the CLI: in a fresh project, npx runs
// spec sync, generate, diff and validate, and what it generates type-checks
// against the installed runtime. Loading mcpgen/server and mcpgen/stdio loads
// no module of the generator, even with it installed beside the runtime.
// Slow: it installs both packed packages into new projects (npm) and runs the CLI and tsc there.
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";
import { newProject, packPackages, type Tarballs } from "./packs.js";

const tsc = join(projectRoot, "node_modules", "typescript", "bin", "tsc");

/**
 * Runs `script` (its text, written into `project` as serve.mjs) with a module
 * resolve hook (node:module register) that logs every URL an import resolves,
 * and returns the run and those URLs.
 */
function resolvedBy(project: string, script: string, input?: string) {
  writeFileSync(
    join(project, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.RESOLVED_LOG, resolved.url + "\\n");
  return resolved;
}
`,
  );
  writeFileSync(
    join(project, "record.mjs"),
    `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n`,
  );
  writeFileSync(join(project, "serve.mjs"), script);
  const log = join(project, "resolved.log");
  writeFileSync(log, "");
  const run = spawnSync(process.execPath, ["--import", "./record.mjs", "serve.mjs"], {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, RESOLVED_LOG: log },
    timeout: 30_000,
    ...(input !== undefined ? { input } : {}),
  });
  return { run, urls: readFileSync(log, "utf8").trim().split("\n") };
}
const MAX_RUNTIME_BYTES = 10 * 1000 * 1000;
const MAX_RUNTIME_PACKAGES = 7;

let tarballs: Tarballs;
beforeAll(() => {
  tarballs = packPackages();
}, 120_000);

/** Bytes of every file below `dir` (what the files hold, not the disk blocks they take). */
function bytesBelow(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesBelow(path);
    else if (entry.isFile()) total += lstatSync(path).size;
  }
  return total;
}

/** Every installed package below node_modules (scoped and nested ones included), by name. */
function installedPackages(nodeModules: string): string[] {
  const names: string[] = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const dirs = entry.name.startsWith("@")
      ? readdirSync(join(nodeModules, entry.name)).map((name) => `${entry.name}/${name}`)
      : [entry.name];
    for (const name of dirs) {
      names.push(name);
      const nested = join(nodeModules, name, "node_modules");
      try {
        names.push(...installedPackages(nested));
      } catch {
        // no nested node_modules
      }
    }
  }
  return names.sort();
}

const nodenext = (types: string[]) => ({
  compilerOptions: {
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    strict: true,
    outDir: "dist",
    types,
    typeRoots: [join(projectRoot, "node_modules", "@types")],
    skipLibCheck: false,
  },
});

function typeCheck(dir: string, tsconfig: object): string {
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
  return `${run.stdout}${run.stderr}exit ${run.status}`;
}

describe("the runtime package alone", () => {
  let project: string;
  beforeAll(() => {
    project = newProject([tarballs.runtime]);
  }, 300_000);

  test(`installs within ${MAX_RUNTIME_BYTES / 1e6} MB and ${MAX_RUNTIME_PACKAGES} packages, with ajv and @cfworker/json-schema its only dependencies`, () => {
    const manifest = JSON.parse(readFileSync(join(project, "node_modules", "mcpgen", "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies)).toEqual(["@cfworker/json-schema", "ajv"]);
    const packages = installedPackages(join(project, "node_modules"));
    expect(packages).toContain("mcpgen");
    expect(packages).toContain("ajv");
    expect(packages.length).toBeLessThanOrEqual(MAX_RUNTIME_PACKAGES);
    const bytes = bytesBelow(join(project, "node_modules"));
    expect(bytes).toBeGreaterThan(1_000_000); // the walk found the files
    expect(bytes).toBeLessThanOrEqual(MAX_RUNTIME_BYTES);
  });

  test("the README's five-minute server and client type-check in a nodenext project and talk over stdio", () => {
    mkdirSync(join(project, "src"), { recursive: true });
    for (const file of ["quick-start.ts", "quick-client.ts"])
      writeFileSync(join(project, "src", file), readFileSync(join(projectRoot, "examples", file), "utf8"));
    const config = nodenext(["node"]);
    expect(
      typeCheck(project, { compilerOptions: { ...config.compilerOptions, rootDir: "src" }, include: ["src"] }),
    ).toBe("exit 0");
    const run = spawnSync(process.execPath, [join(project, "dist", "quick-client.js")], {
      cwd: project,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout.split("\n")).toEqual([
      "weather, revision 2026-07-28 (modern)",
      "tools: get_forecast",
      "Lisbon: sunny for the next 2 days",
      "cities: Lisbon, Oslo, Tokyo",
      "prompt: Plan a weekend in Oslo around the forecast.",
      "",
    ]);
    expect(run.status).toBe(0);
  });

  test("a server answering a 2025-11-25 client loads both revisions' tables but not their per-type guards and validators", () => {
    // The per-type functions stay in each revision's entry file (packages/bundle.mjs), which only a
    // user's own import of mcpgen/<rev> loads; the runtime reaches a revision through its tables.
    const lines = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } },
    ];
    const { run, urls } = resolvedBy(
      project,
      `import { McpServer } from "mcpgen/server";
import { serveStdio } from "mcpgen/stdio";
const server = new McpServer({ name: "s", version: "1" });
server.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) => String(text));
serveStdio(server);
`,
      lines.map((l) => JSON.stringify(l) + "\n").join(""),
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain('"text":"hi"');
    const dist = `file://${join(project, "node_modules", "mcpgen", "dist")}/`;
    const loaded = urls.filter((url) => url.startsWith(dist)).map((url) => url.slice(dist.length));
    expect(new Set(loaded.filter((path) => /^chunks\/(2025-11-25|2026-07-28)-/.test(path))).size).toBe(2);
    expect(loaded.filter((path) => /^generated\/.+\/index\.js$/.test(path))).toEqual([]);
  });
});

describe("the generator package, installed beside the runtime", () => {
  let project: string;
  const npx = (args: string[], input?: string) => {
    const run = spawnSync("npx", ["--no-install", "mcpgen-generator", ...args], {
      cwd: project,
      encoding: "utf8",
      timeout: 120_000,
      ...(input !== undefined ? { input } : {}),
      // The spec inputs: this checkout's verified cache, laid out like the upstream folders.
      env: { ...process.env, MCP_SPEC_DIR: join(projectRoot, "spec"), MCP_EXT_DIR: join(projectRoot, "spec", "ext") },
    });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr.replace(/^npm warn .*\n/gm, "") };
  };
  beforeAll(() => {
    project = newProject([tarballs.runtime, tarballs.generator]);
  }, 300_000);

  test("npx mcpgen-generator syncs the spec and generates every revision into the project, code that type-checks against the runtime", () => {
    const sync = npx(["spec", "sync", "--quiet"]);
    expect(sync.stderr).toBe("");
    expect(sync.status).toBe(0);
    const generate = npx(["generate", "--quiet"]);
    expect(generate.stderr).toBe("");
    expect(generate.status).toBe(0);
    expect(readdirSync(join(project, "generated")).sort()).toEqual([
      "2024-11-05",
      "2025-03-26",
      "2025-06-18",
      "2025-11-25",
      "2026-07-28",
      "checks",
      "draft",
      "ext",
      "index.ts",
      "shims",
    ]);
    // Nothing was written into the installed packages.
    expect(readdirSync(join(project, "node_modules", "mcpgen-generator")).sort()).toEqual([
      "README.md",
      "bin",
      "dist",
      "package.json",
      "spec",
    ]);
    const checked = typeCheck(project, {
      ...nodenext([]),
      compilerOptions: { ...nodenext([]).compilerOptions, noEmit: true },
      include: ["generated"],
    });
    expect(checked).toBe("exit 0");
  });

  test("npx mcpgen-generator diff and validate", () => {
    const diff = npx(["diff", "2025-06-18", "2025-11-25"]);
    expect(diff.status).toBe(0);
    expect(diff.stdout).toMatch(/^2025-06-18 → 2025-11-25: \d+ differences/);
    const valid = npx(
      ["validate", "--rev", "2025-11-25", "-"],
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } }),
    );
    expect([valid.status, valid.stdout]).toEqual([0, "line 1: valid request tools/call (CallToolRequest)\n"]);
    const invalid = npx(
      ["validate", "--rev", "2025-11-25", "-"],
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } }),
    );
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toContain("/params/name: must be string [type]");
  });

  test("importing mcpgen/server and mcpgen/stdio loads no module of the generator or its dependencies", () => {
    const { run, urls: loaded } = resolvedBy(
      project,
      `import { McpServer } from "mcpgen/server";\nimport { serveStdio } from "mcpgen/stdio";\nconsole.log(typeof McpServer, typeof serveStdio);\n`,
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("function function\n");
    expect(loaded).toContain(
      `file://${join(project, "node_modules", "mcpgen", "dist", "runtime", "server", "index.js")}`,
    );
    expect(loaded.filter((url) => /mcpgen-generator|ts-morph|prettier|typescript|commander/.test(url))).toEqual([]);
    // Nor the Streamable HTTP transport (its own chunk, packages/bundle.mjs): node:http is a few ms of a stdio server's start.
    expect(loaded.filter((url) => url === "node:http" || url.endsWith("/transports/http.js"))).toEqual([]);
  });
});
