// `mcpgen init --runtime bun|deno|workers`, then the way its user goes on: the
// project gets the packed runtime tarball, and its own test runs with its
// runtime (bun, deno, and miniflare's workerd: the npm packages .ci/runtimes
// installs; miniflare on Node 22, MCPGEN_NODE22 or .ci/node 22). For Bun and
// Deno, the `start` script as written also serves the official v1 SDK client
// and stops on SIGTERM. The README's commands are the project's scripts.
// Slow: each project is installed (npm) and its runtime started.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { captureIo, projectRoot, tempDir } from "../helpers.js";
import { npm, packPackages } from "../package/packs.js";
import { runtimeBin, runtimesFolder } from "../runtimes/installed.js";

const manifest = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const INSTALL = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

/** Node 22's folder of executables: miniflare needs Node 22 or later, the project runs on 20. */
function node22Folder(): string {
  if (process.env["MCPGEN_NODE22"]) return dirname(process.env["MCPGEN_NODE22"]);
  const found = spawnSync("bash", [join(projectRoot, ".ci", "node"), "22"], { encoding: "utf8", timeout: 300_000 });
  if (found.status !== 0) throw new Error(`.ci/node 22 failed: ${found.stderr}`);
  return dirname(found.stdout.trim());
}

/** Runs a command in `cwd`: its output and exit status, and how long it took. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd, env: { ...env, NO_COLOR: "1" }, encoding: "utf8", timeout: 240_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}`, ms: Date.now() - started };
}

function mustRun(command: string, args: string[], cwd: string): number {
  const { status, output, ms } = run(command, args, cwd);
  if (status !== 0) throw new Error(`${command} ${args.join(" ")} in ${cwd} exited with ${status}:\n${output}`);
  return ms;
}

/** Bytes under `dir`, following no links (du -s, in KiB). */
const sizeKiB = (dir: string) => Number(spawnSync("du", ["-sk", dir], { encoding: "utf8" }).stdout.split("\t")[0]);

interface RuntimeCase {
  runtime: "bun" | "deno" | "workers";
  /** Fills node_modules as the test needs it. */
  install(project: string, tarball: string): void;
  /** The project's own test: command, arguments, environment. */
  selfTest(project: string): { command: string; args: string[]; env?: NodeJS.ProcessEnv };
  /** What its test runner prints when the four checks pass. */
  passed: RegExp;
  /** The start script as the README runs it, with the runtime's path; none where it needs wrangler. */
  start?(project: string): { command: string; args: string[] };
}

const CASES: RuntimeCase[] = [
  {
    runtime: "bun",
    // npm, not `bun install`: the tarball stands in for the registry's mcpgen.
    install: (project, tarball) => void mustRun(npm, [...INSTALL, tarball], project),
    selfTest: () => ({ command: runtimeBin("bun"), args: ["test"] }),
    passed: /^ 4 pass\n 0 fail$/m,
    start(project) {
      const [command, ...args] = manifest(join(project, "package.json")).scripts.start.split(" ");
      expect(command).toBe("bun");
      return { command: runtimeBin("bun"), args };
    },
  },
  {
    runtime: "deno",
    // What `deno install` does from package.json (nodeModulesDir "manual"), with the tarball for mcpgen.
    install: (project, tarball) => void mustRun(npm, [...INSTALL, tarball], project),
    selfTest: () => ({ command: runtimeBin("deno"), args: ["task", "test"] }),
    passed: /ok \| 1 passed \(4 steps\) \| 0 failed/,
    start(project) {
      const [command, ...args] = manifest(join(project, "deno.json")).tasks.start.split(" ");
      expect(command).toBe("deno");
      return { command: runtimeBin("deno"), args };
    },
  },
  {
    runtime: "workers",
    // mcpgen from the tarball; the dev dependencies the test uses, miniflare and rolldown, at
    // their pinned versions from where mcpgen's own tests have them (linked, not downloaded);
    // wrangler, which only `dev` and `deploy` use, is left out: its download is not needed.
    install(project, tarball) {
      mustRun(npm, [...INSTALL, "--omit=dev", tarball], project);
      const modules = join(project, "node_modules");
      symlinkSync(
        dirname(createRequire(join(runtimesFolder(), "package.json")).resolve("miniflare/package.json")),
        join(modules, "miniflare"),
      );
      symlinkSync(join(projectRoot, "node_modules", "rolldown"), join(modules, "rolldown"));
    },
    selfTest: () => ({
      command: npm,
      args: ["test"],
      env: { ...process.env, PATH: `${node22Folder()}:${process.env["PATH"]}` },
    }),
    passed: /^(# |ℹ )pass 4\n(# |ℹ )fail 0$/m,
  },
];

async function init(cwd: string, args: string[]) {
  const io = captureIo({ cwd });
  const code = await main(["init", ...args], io);
  return { code, out: io.out, err: io.err };
}

let tarball = "";
beforeAll(() => {
  tarball = packPackages().runtime;
}, 120_000);

describe.each(CASES)("a project from mcpgen init --runtime $runtime, installed from the packed tarball", (scaffold) => {
  const cwd = tempDir(`mcpgen-init-${scaffold.runtime}-`);
  const project = join(cwd, "notes-server");
  let selfTest: ReturnType<typeof run>;

  beforeAll(async () => {
    const created = await init(cwd, ["notes-server", "--runtime", scaffold.runtime]);
    if (created.code !== 0) throw new Error(`mcpgen init failed: ${created.err}`);
    const started = Date.now();
    scaffold.install(project, tarball);
    const installMs = Date.now() - started;
    const { command, args, env } = scaffold.selfTest(project);
    selfTest = run(command, args, project, env);
    // What a run costs, for whoever tunes CI: the install and the project's own test.
    console.info(
      `init --runtime ${scaffold.runtime}: install ${installMs} ms, node_modules ${sizeKiB(join(project, "node_modules"))} KiB; its test ${selfTest.ms} ms`,
    );
  }, 300_000);

  test("its own test calls the tool, reads the resource and gets the prompt through an MCP client, and passes", () => {
    expect(selfTest.output).toMatch(scaffold.passed);
    expect(selfTest.output).toContain("add_note saves a note that notes://all then lists");
    expect(selfTest.status, selfTest.output).toBe(0);
  });

  test("the README's commands are the project's scripts", () => {
    const readme = readFileSync(join(project, "README.md"), "utf8");
    const block = /^```sh\n([\s\S]*?)\n```$/m.exec(readme)![1]!;
    const commands = block.split("\n").flatMap((line) => line.replace(/\s+#.*$/, "").split(" && "));
    const scripts = manifest(join(project, "package.json")).scripts ?? {};
    const tasks = scaffold.runtime === "deno" ? manifest(join(project, "deno.json")).tasks : {};
    for (const command of commands) {
      const script = /^(?:npm|bun) run (\S+)$/.exec(command)?.[1] ?? /^deno task (\S+)$/.exec(command)?.[1];
      if (script) expect(command.startsWith("deno") ? tasks : scripts, command).toHaveProperty(script);
      else expect(["npm install", "npm test", "bun install", "bun test", "deno install"]).toContain(command);
    }
  });

  test.runIf(scaffold.runtime === "bun")("its tsconfig.json type-checks it with Bun's types", () => {
    const tsc = run(
      process.execPath,
      [join(projectRoot, "node_modules", "typescript", "bin", "tsc"), "-p", "."],
      project,
    );
    expect(tsc.output).toBe("");
    expect(tsc.status).toBe(0);
  });

  test.skipIf(!scaffold.start)(
    "its start script serves the official v1 client on loopback, and stops on SIGTERM",
    async () => {
      const { command, args } = scaffold.start!(project);
      const server = spawn(command, args, {
        cwd: project,
        env: { ...process.env, PORT: "0" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
      const client = new Client({ name: "init-test", version: "1.0.0" });
      try {
        const url = await printedUrl(server);
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        expect(client.getServerVersion()?.name).toBe("notes-server");
        const saved = await client.callTool({ name: "add_note", arguments: { title: "from v1", text: "hello" } });
        expect(saved.content).toEqual([{ type: "text", text: 'Saved "from v1" (1 note in all)' }]);
      } finally {
        await client.close();
        server.kill("SIGTERM");
        const timer = setTimeout(() => server.kill("SIGKILL"), 5_000);
        expect(await exited).toBe(0);
        clearTimeout(timer);
      }
    },
  );
});

/** The loopback URL the scaffold's server prints once it listens. */
function printedUrl(server: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let printed = "";
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /^MCP server listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/m.exec(printed);
      if (match) resolve(match[1]!);
    };
    server.stdout!.on("data", read);
    server.stderr!.on("data", read);
    server.once("exit", (code) => reject(new Error(`the server exited with ${code}, having printed: ${printed}`)));
  });
}
