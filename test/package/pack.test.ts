// Users import version-pinned types: `import type { CallToolResult } from
// "mcpgen/2025-06-18"`. Proven end to end: pack the two packages, install the
// runtime's tarball alone into a fresh "moduleResolution": "nodenext" project,
// type-check a file importing two revisions, and run the compiled file on
// this Node.
// Slow: it packs both packages and installs one into a new project (npm), then runs tsc there.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";
import { newProject, packPackages } from "./packs.js";

const tsc = join(projectRoot, "node_modules", "typescript", "bin", "tsc");
let consumer: string;
let shipped: { runtime: string[]; generator: string[] };

const consumerTsconfig = {
  compilerOptions: {
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    strict: true,
    rootDir: "src",
    outDir: "dist",
    types: [],
    skipLibCheck: false,
  },
  include: ["src"],
};

beforeAll(() => {
  const tarballs = packPackages();
  const list = (tarball: string) => execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).trim().split("\n");
  shipped = { runtime: list(tarballs.runtime), generator: list(tarballs.generator) };

  consumer = newProject([tarballs.runtime]);
  writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify(consumerTsconfig));
  // A server is a Node program: its project has Node's types (this project's copy, to stay offline).
  writeFileSync(
    join(consumer, "tsconfig.node.json"),
    JSON.stringify({
      ...consumerTsconfig,
      compilerOptions: {
        ...consumerTsconfig.compilerOptions,
        types: ["node"],
        typeRoots: [join(projectRoot, "node_modules", "@types")],
      },
    }),
  );
}, 300_000);

/** A consumer's server with one tool; the tests below serve it over each transport. */
const shoutServer = `import { McpServer } from "mcpgen/server";

const server = new McpServer({ name: "consumer", version: "1.0.0" });
server.tool(
  "shout",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ({ text }) => text.toUpperCase(),
);

`;

function compile(files: Record<string, string>, tsconfig = "tsconfig.json"): { status: number | null; output: string } {
  rmSync(join(consumer, "src"), { recursive: true, force: true });
  mkdirSync(join(consumer, "src"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(consumer, "src", name), text);
  const result = spawnSync(process.execPath, [tsc, "-p", tsconfig], { cwd: consumer, encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("the tarballs", () => {
  test("the runtime ships compiled revisions and extensions, the runtime, server, transports and client, bundled; no CLI, spec cache or TypeScript sources", () => {
    const files = shipped.runtime;
    for (const rev of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"]) {
      for (const file of ["index.js", "index.d.ts", "methods.d.ts", "types.d.ts", "revision.d.ts"])
        expect(files).toContain(`package/dist/generated/${rev}/${file}`);
    }
    // Bundled (packages/bundle.mjs): JavaScript only at the exports' paths, the rest in shared chunks.
    const javascript = files.filter((f) => f.endsWith(".js"));
    expect(javascript.filter((f) => f.startsWith("package/dist/chunks/")).length).toBeGreaterThan(0);
    expect(
      javascript.filter(
        (f) =>
          !f.startsWith("package/dist/chunks/") &&
          !/^package\/dist\/generated\/(.+\/)?index\.js$/.test(f) &&
          !/^package\/dist\/runtime\/(index|codegen|server\/index|client\/index|redis\/index|auth\/jwt|transports\/(stdio|http|fetch|snapshot))\.js$/.test(
            f,
          ),
      ),
    ).toEqual([]);
    for (const file of [
      "package/dist/runtime/index.js",
      "package/dist/runtime/codegen.js",
      "package/dist/runtime/server/index.js",
      "package/dist/runtime/transports/stdio.js",
      "package/dist/runtime/transports/snapshot.js",
      "package/dist/runtime/transports/http.js",
      "package/dist/runtime/transports/fetch.js",
      "package/dist/runtime/client/index.js",
      "package/dist/generated/ext/tasks/index.js",
      "package/dist/generated/ext/skills/index.js",
    ]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => /\/generator\/|^package\/bin\/|^package\/spec\//.test(f))).toEqual([]);
    expect(files.filter((f) => /schema\.(ts|json)$/.test(f) || /\.ts$/.test(f.replace(/\.d\.ts$/, "")))).toEqual([]);
  });

  test("the installed mcpgen/fetch reaches no node: module, statically or dynamically (it must load on Bun, Deno and workerd)", () => {
    const root = join(consumer, "node_modules", "mcpgen");
    const seen = new Set<string>();
    const nodeImports: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, "utf8");
      for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)) {
        if (specifier!.startsWith("node:")) nodeImports.push(`${file.slice(root.length + 1)}: ${specifier}`);
        else if (specifier!.startsWith(".")) visit(join(file, "..", specifier!));
      }
    };
    visit(join(root, "dist", "runtime", "transports", "fetch.js"));
    expect(seen.size).toBeGreaterThan(1);
    expect(nodeImports).toEqual([]);
  });

  test("the generator ships the CLI, the lock and the skills transcription; no runtime, generated code or spec cache", () => {
    const files = shipped.generator;
    for (const file of [
      "package/dist/generator/cli/main.js",
      "package/bin/mcpgen.js",
      "package/spec/revisions.json",
      // The project's transcription of the skills prose: a schema input the lock names, like the lock itself.
      "package/spec/extensions/skills/schema.ts",
    ]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => /^package\/dist\/(runtime|generated)\//.test(f))).toEqual([]);
    expect(
      files.filter((f) => f.endsWith(".d.ts") || (f.endsWith(".ts") && !f.startsWith("package/spec/extensions/"))),
    ).toEqual([]);
  });
});

describe("the packed package in a nodenext project", () => {
  test("type-checks and runs a file importing two revisions, an extension, the runtime contract and the revision list", () => {
    const { status, output } = compile({
      "main.ts": `import type { CallToolResult } from "mcpgen/2025-06-18";
import { methods, revision, type ResultOf } from "mcpgen/2026-07-28";
import { methods as oldMethods } from "mcpgen/2024-11-05";
import { revisions, type RevisionName } from "mcpgen";
import type { MethodTable } from "mcpgen/runtime";
import { convert, ShimError } from "mcpgen/shims";
import { extension as tasks, validate as validateTask, type CreateTaskResult } from "mcpgen/ext/tasks";
import { validate as validateSkill, type Skill } from "mcpgen/ext/skills";

declare const process: { versions: { node: string } }; // the consumer has no @types/node

const result: CallToolResult = { content: [{ type: "text", text: "hello" }], isError: false };
const listed: ResultOf<"tools/list"> = { tools: [], resultType: "complete", ttlMs: 0, cacheScope: "private" };
const table: MethodTable = methods;
const name: RevisionName = "2025-06-18";
const older = convert(
  { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "t", title: "T", inputSchema: { type: "object" } }] } },
  { from: "2025-06-18", to: "2025-03-26", method: "tools/list" },
);
let refused = "";
try {
  convert({ jsonrpc: "2.0", id: 2, method: "server/discover", params: {} }, { from: "2026-07-28", to: "2025-06-18" });
} catch (error) {
  if (error instanceof ShimError) refused = error.reason;
}

const handle: CreateTaskResult = {
  taskId: "t",
  status: "working",
  createdAt: "2026-11-23T00:00:00Z",
  lastUpdatedAt: "2026-11-23T00:00:00Z",
  ttlMs: null,
  resultType: "task",
};

const skill: Skill = {
  uri: "skill://git-workflow/SKILL.md",
  frontmatter: { name: "git-workflow", description: "Commit and branch conventions" },
  resources: [{ uri: "skill://git-workflow/SKILL.md", digest: "sha256:" + "0".repeat(64), size: 120 }],
};

console.log(JSON.stringify({
  node: process.versions.node,
  skill: validateSkill("Skill", skill).valid,
  badDigest: validateSkill("Skill", { ...skill, resources: [{ uri: skill.uri, digest: "md5:x", size: 1 }] }).valid,
  tasks: tasks.identifier,
  handle: validateTask("CreateTaskResult", handle).valid,
  notAHandle: validateTask("CreateTaskResult", { ...handle, resultType: "complete" }),
  text: result.content[0]?.type === "text" ? result.content[0].text : null,
  listed: listed.tools.length,
  discover: "server/discover" in table,
  initializeNow: "initialize" in methods,
  initializeThen: "initialize" in oldMethods,
  toolsCall: methods["tools/call"].capability,
  lifecycle: revision.lifecycle,
  revisions: revisions.map((r) => r.name),
  name,
  changes: older.changes.map((c) => c.path),
  refused,
}));
`,
    });
    expect(output).toBe("");
    expect(status).toBe(0);

    const run = spawnSync(process.execPath, [join(consumer, "dist", "main.js")], { cwd: consumer, encoding: "utf8" });
    expect(run.stderr).toBe("");
    const printed = JSON.parse(run.stdout);
    expect(Number(printed.node.split(".")[0])).toBeGreaterThanOrEqual(20);
    expect(printed).toMatchObject({
      tasks: "io.modelcontextprotocol/tasks",
      skill: true,
      badDigest: false,
      handle: true,
      notAHandle: { valid: false, errors: [{ path: "/resultType", keyword: "const", message: 'must be "task"' }] },
      text: "hello",
      listed: 0,
      discover: true,
      initializeNow: false,
      initializeThen: true,
      toolsCall: { holder: "server", path: ["tools"] },
      lifecycle: "per-request",
      revisions: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"],
      name: "2025-06-18",
      changes: ["/result/tools/0/title"],
      refused: "server/discover does not exist in 2025-11-25",
    });
  });

  test("the types are real: wrong shapes and unknown methods do not compile", () => {
    const { status, output } = compile({
      "main.ts": "export {};\n",
      "wrong.ts": `import type { CallToolResult } from "mcpgen/2025-06-18";
import type { ParamsOf } from "mcpgen/2024-11-05";
export const a: CallToolResult = { content: "not an array" };
export const b: ParamsOf<"elicitation/create"> = {};
`,
    });
    expect(status).not.toBe(0);
    expect(output).toMatch(/src\/wrong\.ts\(3,36\): error TS2322: Type 'string' is not assignable to type/);
    expect(output).toMatch(
      /src\/wrong\.ts\(4,26\): error TS2344: Type '"elicitation\/create"' does not satisfy the constraint/,
    );
  });

  test("the bundle's data is dist's: every revision's shim shapes, steps and method table, with the shapes loaded by JSON.parse", async () => {
    // The emitter writes the shapes and plans as JSON.parse of a string (generator/emit/layout.ts); bundling keeps them.
    const script = `import { loadShimShapes, loadShimStep, revisions } from "mcpgen";
const out = { revisions, shapes: {}, steps: {}, methods: {} };
for (const { name } of revisions) {
  const s = await loadShimShapes[name]();
  out.shapes[name] = { types: s.types, params: s.params, results: s.results, methods: s.methods };
  out.methods[name] = (await import("mcpgen/" + name)).methods;
}
for (const [pair, load] of Object.entries(loadShimStep)) out.steps[pair] = await load();
process.stdout.write(JSON.stringify(out));
`;
    writeFileSync(join(consumer, "data.mjs"), script);
    const run = spawnSync(process.execPath, [join(consumer, "data.mjs")], { cwd: consumer, encoding: "utf8" });
    expect(run.stderr).toBe("");
    const index = await import("../../dist/generated/index.js");
    const expected = {
      revisions: index.revisions,
      shapes: {} as Record<string, unknown>,
      steps: {} as Record<string, unknown>,
      methods: {} as Record<string, unknown>,
    };
    for (const { name } of index.revisions) {
      const s = await index.loadShimShapes[name]();
      expected.shapes[name] = { types: s.types, params: s.params, results: s.results, methods: s.methods };
      expected.methods[name] = (await import(`../../dist/generated/${name}/index.js`)).methods;
    }
    for (const [pair, load] of Object.entries(index.loadShimStep)) expected.steps[pair] = await load();
    // As JSON text: key order counts too.
    expect(run.stdout).toBe(JSON.stringify(expected));
    const chunks = join(consumer, "node_modules", "mcpgen", "dist", "chunks");
    const shapesChunk = readdirSync(chunks).find((f) => /^shims-2025-11-25-[^-]/.test(f))!;
    expect(readFileSync(join(chunks, shapesChunk), "utf8")).toMatch(/const types = \(\) => JSON\.parse\("/);
  });

  test("the bundle's JavaScript is ASCII and carries no JSDoc (the .d.ts files keep the docs)", () => {
    const dist = join(consumer, "node_modules", "mcpgen", "dist");
    const javascript = (readdirSync(dist, { recursive: true }) as string[]).filter((f) => f.endsWith(".js"));
    expect(javascript.length).toBeGreaterThan(10);
    const offending = javascript.flatMap((f) => {
      const text = readFileSync(join(dist, f), "utf8");
      const nonAscii = /[^\x00-\x7f]/.exec(text);
      return [
        ...(nonAscii ? [`${f}: non-ASCII ${JSON.stringify(text.slice(nonAscii.index - 20, nonAscii.index + 5))}`] : []),
        ...(/^\s*\/\*\*\s/m.test(text) ? [`${f}: JSDoc`] : []),
      ];
    });
    expect(offending).toEqual([]);
    // The docs are still shipped, in the declarations.
    expect(readFileSync(join(dist, "runtime", "server", "mcp-server.d.ts"), "utf8")).toMatch(/\/\*\*/);
  });

  test("a server built on mcpgen/server and mcpgen/stdio type-checks and answers initialize at two revisions", () => {
    const { status, output } = compile(
      {
        "server.ts": `${shoutServer}import { serveStdio } from "mcpgen/stdio";

serveStdio(server);
`,
      },
      "tsconfig.node.json",
    );
    expect(output).toBe("");
    expect(status).toBe(0);
    const lines = ["2025-11-25", "2024-11-05"].map((protocolVersion, i) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: i,
        method: "initialize",
        params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    );
    for (const [i, line] of lines.entries()) {
      const run = spawnSync(process.execPath, [join(consumer, "dist", "server.js")], {
        cwd: consumer,
        input: line + "\n",
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        id: i,
        result: { protocolVersion: i === 0 ? "2025-11-25" : "2024-11-05", serverInfo: { name: "consumer" } },
      });
    }
  });

  test("a server on mcpgen/http type-checks, serves on loopback and answers initialize and tools/call", () => {
    // The program is its own client (fetch to the URL serveHttp reports), so the
    // test starts one process with a bounded run and nothing left listening.
    const { status, output } = compile(
      {
        "server.ts": `${shoutServer}import { serveHttp } from "mcpgen/http";

const handle = await serveHttp(server);
const headers: Record<string, string> = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};
async function post(message: object): Promise<unknown> {
  const response = await fetch(handle.url, { method: "POST", headers, body: JSON.stringify(message) });
  const session = response.headers.get("mcp-session-id");
  if (session) headers["Mcp-Session-Id"] = session;
  return response.status === 202 ? null : response.json();
}
try {
  const initialize = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  headers["MCP-Protocol-Version"] = "2025-11-25";
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  const call = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "shout", arguments: { text: "hi" } } });
  console.log(JSON.stringify({ url: handle.url, initialize, call }));
} finally {
  await handle.close();
}
`,
      },
      "tsconfig.node.json",
    );
    expect(output).toBe("");
    expect(status).toBe(0);
    const run = spawnSync(process.execPath, [join(consumer, "dist", "server.js")], {
      cwd: consumer,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const printed = JSON.parse(run.stdout) as { url: string; initialize: unknown; call: unknown };
    expect(printed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(printed.initialize).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    expect(printed.call).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "HI" }] } });
  });
});
