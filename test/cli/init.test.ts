// `mcpgen init`, in-process, then the way its user goes on: the project is
// installed from the packed runtime tarball (its dev dependencies from npm's
// cache), `npm test` builds it and passes its own tests, and the official v1
// SDK client lists and calls its tool; over stdio and with --http. Also what
// init writes and what it refuses.
// Slow: each project is installed (npm), built and tested (its own npm test) as a user would.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { listFiles } from "../../generator/cli/io.js";
import { main } from "../../generator/cli/main.js";
import {
  BUN_DEV_DEPENDENCIES,
  DEV_DEPENDENCIES,
  packageName,
  WORKERS_DEV_DEPENDENCIES,
} from "../../generator/cli/init-templates.js";
import { snippet } from "../docs/pages.js";
import { captureIo, projectRoot, tempDir } from "../helpers.js";
import { npm, packPackages } from "../package/packs.js";

const manifest = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const generatorVersion: string = manifest(join(projectRoot, "packages", "generator", "package.json")).version;
const PROJECT_FILES = [
  ".gitignore",
  "README.md",
  "package.json",
  "src/main.ts",
  "src/server.test.ts",
  "src/server.ts",
  "tsconfig.json",
];

async function init(cwd: string, args: string[]) {
  const io = captureIo({ cwd });
  const code = await main(["init", ...args], io);
  return { code, out: io.out, err: io.err };
}

/** Runs a command in `cwd`; its output, or an error carrying it when it fails. */
function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 240_000 });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} in ${cwd} exited with ${result.status}:\n${output}`);
  return output;
}

describe("mcpgen init: what it writes and refuses", () => {
  const cwd = tempDir("mcpgen-init-");

  test("writes a project into a new folder, named after it, on the generator's version; prints the next steps", async () => {
    const { code, out, err } = await init(cwd, ["notes-server"]);
    expect([code, err]).toEqual([0, ""]);
    const project = join(cwd, "notes-server");
    expect(await listFiles(project)).toEqual(PROJECT_FILES);
    const pkg = manifest(join(project, "package.json"));
    expect(pkg).toMatchObject({ name: "notes-server", type: "module", dependencies: { mcpgen: generatorVersion } });
    expect(pkg.scripts.test).toMatch(/^npm run build && node --test /);
    expect(readFileSync(join(project, "src", "main.ts"), "utf8")).toContain("serveStdio(createServer());");
    expect(readFileSync(join(project, "README.md"), "utf8").split("\n").slice(0, 5)).toEqual([
      "# notes-server",
      "",
      "```sh",
      expect.stringMatching(/^npm install && npm run build && npm start +# serve MCP on stdio/),
      expect.stringMatching(/^npm test +# build, then check the tool, resource and prompt/),
    ]);
    expect(out).toContain("Created an MCP server on stdio in notes-server (package notes-server, on mcpgen");
    expect(out).toMatch(/Next:\n {2}cd notes-server\n {2}npm install\n {2}npm test .*\n {2}npm start /);
  });

  test("the project's dev dependencies are the versions this repository builds and tests with", () => {
    const devDependencies = manifest(join(projectRoot, "package.json")).devDependencies;
    expect(Object.keys(DEV_DEPENDENCIES).sort()).toEqual(["@types/node", "typescript"]);
    for (const [name, version] of Object.entries(DEV_DEPENDENCIES))
      expect([name, version]).toEqual([name, devDependencies[name]]);
  });

  test("the dev dependencies of the other scaffolds are the releases mcpgen's own tests run", () => {
    // .ci/runtimes pins the runtimes' packages: bun@x deno@y miniflare@z.
    const pinned = Object.fromEntries(
      [
        .../packages="([^"]+)"/
          .exec(readFileSync(join(projectRoot, ".ci", "runtimes"), "utf8"))![1]!
          .matchAll(/(\S+)@(\S+)/g),
      ].map((match) => [match[1]!, match[2]!]),
    );
    expect(BUN_DEV_DEPENDENCIES).toEqual({ "@types/bun": pinned["bun"] });
    expect(WORKERS_DEV_DEPENDENCIES).toMatchObject({
      miniflare: pinned["miniflare"],
      rolldown: manifest(join(projectRoot, "package.json")).dependencies.rolldown,
    });
  });

  test.each([
    ["bun", ["src/main.ts", "src/server.test.ts", "src/server.ts", "tsconfig.json"], "Bun.serve("],
    ["deno", ["deno.json", "src/main.ts", "src/server.test.ts", "src/server.ts"], "Deno.serve("],
    ["workers", ["src/index.test.ts", "src/index.ts", "src/server.ts", "wrangler.toml"], "export default {"],
  ])("--runtime %s writes its own project, served over HTTP by the runtime", async (runtime, files, serves) => {
    const { code, out, err } = await init(cwd, [`on-${runtime}`, "--runtime", runtime]);
    expect([code, err]).toEqual([0, ""]);
    const project = join(cwd, `on-${runtime}`);
    expect(await listFiles(project)).toEqual([".gitignore", "README.md", "package.json", ...files].sort());
    const entry = runtime === "workers" ? "src/index.ts" : "src/main.ts";
    expect(readFileSync(join(project, ...entry.split("/")), "utf8")).toContain(serves);
    expect(readFileSync(join(project, ...entry.split("/")), "utf8")).toContain("createFetchHandler(");
    expect(manifest(join(project, "package.json")).dependencies).toEqual({ mcpgen: generatorVersion });
    expect(out).toMatch(new RegExp(`^Created an MCP server over Streamable HTTP on \\S.* in on-${runtime} `));
  });

  test("docs/generator.md's init-runtimes block: each line makes the project its comment says", async () => {
    const lines = snippet("docs/generator.md", "init-runtimes").trim().split("\n");
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      const [command, comment] = line.split(/\s+# /);
      expect(command).toMatch(/^npx mcpgen-generator init my-server --runtime \w+$/);
      const args = command!.slice("npx mcpgen-generator ".length).split(" ");
      const here = tempDir();
      expect((await init(here, args.slice(1))).code).toBe(0);
      const project = join(here, "my-server");
      const runtime = args.at(-1)!;
      const readme = readFileSync(join(project, "README.md"), "utf8");
      if (runtime === "workers") {
        expect(comment).toBe("a Worker: wrangler dev serves http://localhost:8787/mcp");
        expect(manifest(join(project, "package.json")).scripts.dev).toBe("wrangler dev");
        expect(readme).toContain("http://localhost:8787/mcp");
      } else {
        const serve = runtime === "bun" ? "Bun.serve" : "Deno.serve";
        expect(comment).toBe(`${serve} at http://127.0.0.1:3000/mcp`);
        expect(readFileSync(join(project, "src", "main.ts"), "utf8")).toContain(`${serve}(`);
        expect(readme).toContain("serve MCP at http://127.0.0.1:3000/mcp");
      }
    }
  });

  test("wrangler.toml names the entry, a compatibility date and nodejs_compat", async () => {
    await init(cwd, ["worker", "--runtime", "workers"]);
    const toml = readFileSync(join(cwd, "worker", "wrangler.toml"), "utf8");
    expect(toml).toMatch(/^name = "worker"$/m);
    expect(toml).toMatch(/^main = "src\/index\.ts"$/m);
    expect(toml).toMatch(/^compatibility_date = "\d{4}-\d{2}-\d{2}"$/m);
    expect(toml).toMatch(/^compatibility_flags = \["nodejs_compat"\]$/m);
  });

  test("an unknown --runtime is refused with exit 2, naming the ones there are; nothing is written", async () => {
    const { code, out, err } = await init(cwd, ["rusty", "--runtime", "rust"]);
    expect([code, out]).toEqual([2, ""]);
    expect(err).toBe("mcpgen: --runtime must be one of node, bun, deno, workers, not rust\n");
    expect(existsSync(join(cwd, "rusty"))).toBe(false);
  });

  test("an existing empty folder is fine; the package name is the folder's, made valid for npm", async () => {
    mkdirSync(join(cwd, "My MCP Server!"));
    const { code, out } = await init(cwd, ["My MCP Server!", "--http"]);
    expect(code).toBe(0);
    expect(out).toContain("cd 'My MCP Server!'");
    const project = join(cwd, "My MCP Server!");
    expect(manifest(join(project, "package.json")).name).toBe("my-mcp-server");
    expect(readFileSync(join(project, "src", "server.ts"), "utf8")).toContain('{ name: "my-mcp-server", version');
    expect(readFileSync(join(project, "src", "main.ts"), "utf8")).toContain("serveHttp(createServer(),");
    expect([packageName("_Weather.Tools"), packageName("..."), packageName("a--b  c-")]).toEqual([
      "weather.tools",
      "mcp-server",
      "a-b-c",
    ]);
  });

  test("a folder that is not empty is refused with exit 2, naming it, and left as it was", async () => {
    const taken = join(cwd, "taken");
    mkdirSync(taken);
    writeFileSync(join(taken, "notes.txt"), "mine");
    const { code, out, err } = await init(cwd, ["taken"]);
    expect([code, out]).toEqual([2, ""]);
    expect(err).toBe("mcpgen: taken is not empty (it holds notes.txt): init writes only into an empty or new folder\n");
    expect(readdirSync(taken)).toEqual(["notes.txt"]);

    writeFileSync(join(cwd, "a-file"), "");
    expect(await init(cwd, ["a-file"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("a-file cannot be a folder"),
    });
    expect(await init(cwd, [])).toMatchObject({
      code: 2,
      err: expect.stringContaining("missing required argument 'dir'"),
    });
  });
});

describe.each([
  { transport: "stdio", args: [] },
  { transport: "http", args: ["--http"] },
])("a project from mcpgen init ($transport), installed from the packed tarballs", ({ transport, args }) => {
  const cwd = tempDir(`mcpgen-init-${transport}-`);
  const project = join(cwd, "notes-server");
  let npmTest: { status: number | null; output: string };

  beforeAll(async () => {
    const created = await init(cwd, ["notes-server", ...args]);
    if (created.code !== 0) throw new Error(`mcpgen init failed: ${created.err}`);
    const { runtime } = packPackages();
    run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", runtime], project);
    run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund"], project);
    const result = spawnSync(npm, ["test"], { cwd: project, encoding: "utf8", timeout: 240_000 });
    npmTest = { status: result.status, output: `${result.stdout}${result.stderr}` };
  }, 300_000);

  test("npm test builds it and passes its own tests of the tool, the resource and the prompt", () => {
    expect(npmTest.output).toMatch(/^(# |ℹ )pass 4$/m);
    expect(npmTest.output).toMatch(/^(# |ℹ )fail 0$/m);
    expect(npmTest.output).toContain("add_note saves a note that notes://all then lists");
    expect(npmTest.status).toBe(0);
    expect(existsSync(join(project, "dist", "main.js"))).toBe(true);
  });

  test("the official v1 client lists and calls its tool", async () => {
    const client = new Client({ name: "init-test", version: "1.0.0" });
    let server: ChildProcess | undefined;
    try {
      if (transport === "stdio") {
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [join(project, "dist", "main.js")],
            cwd: project,
            stderr: "pipe",
          }),
        );
      } else {
        // What `npm start` runs, on a free port: the server prints its URL.
        server = spawn(process.execPath, [join(project, "dist", "main.js")], {
          cwd: project,
          env: { ...process.env, PORT: "0" },
          stdio: ["ignore", "pipe", "inherit"],
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(await printedUrl(server))));
      }
      expect(client.getServerVersion()?.name).toBe("notes-server");
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add_note"]);
      const saved = await client.callTool({ name: "add_note", arguments: { title: "from v1", text: "hello" } });
      expect(saved.content).toEqual([{ type: "text", text: 'Saved "from v1" (1 note in all)' }]);
      const refused = await client.callTool({ name: "add_note", arguments: { title: "no text" } });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close(); // stdio: ends the server it started
      if (server && server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server!.once("exit", resolve));
        server.kill();
        await exited;
      }
    }
  });
});

/** The loopback URL the scaffold's HTTP server prints once it listens. */
function printedUrl(server: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let printed = "";
    server.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      printed += chunk;
      const match = /^MCP server listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(printed);
      if (match) resolve(match[1]!);
    });
    server.once("exit", (code) => reject(new Error(`the server exited with ${code}, having printed: ${printed}`)));
  });
}
