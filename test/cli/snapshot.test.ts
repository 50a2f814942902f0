// `mcpgen snapshot`: a stdio server's V8 startup snapshot, built from a script
// in a project that installed the runtime package as a user installs it
// (packages/pack.mjs), started with `node --snapshot-blob` and used by the
// official SDK clients of both eras; clients of revisions it did not warm up;
// and a build that fails says why, leaves nothing behind and keeps an existing
// blob as it was.
// Slow: each case bundles a server and builds a V8 startup snapshot (seconds each), on two Nodes.
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { captureIo, projectRoot, tempDir } from "../helpers.js";
import { packPackages } from "../package/packs.js";

// A server with a tool whose schema the simple checks take, one that needs ajv
// (a pattern and a $ref), one that says whether ajv is loaded, and a prompt.
const SERVER = `
import { createRequire } from "node:module";
import { McpServer } from "mcpgen/server";
import { serveStdioFromSnapshot } from "mcpgen/snapshot";

const server = new McpServer({ name: "snapshot-test", version: "1.0.0" });
server.tool(
  "echo",
  { description: "Returns its text.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
server.tool(
  "code",
  {
    description: "Takes a three-letter code.",
    inputSchema: {
      type: "object",
      properties: { code: { type: "string", pattern: "^[A-Z]{3}$" }, count: { $ref: "#/$defs/count" } },
      $defs: { count: { type: "integer" } },
      required: ["code"],
    },
  },
  ({ code }) => ({ content: [{ type: "text", text: "code " + code }] }),
);
server.tool(
  "ajv-loaded",
  { description: "Whether this process has loaded ajv.", inputSchema: { type: "object" } },
  () => String(Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("/node_modules/ajv/"))),
);
server.prompt("greet", { description: "A greeting." }, () => "Say hello.");
serveStdioFromSnapshot(server);
`;

let project: string;

// Each build gets a TMPDIR of its own, so that the check that it left nothing there does not see the
// snapshot that test/package/bench.test.ts builds at the same time in the shared one.
async function snapshot(args: string[], tmp: string): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd: project, env: { TMPDIR: tmp } });
  const code = await main(["snapshot", ...args], io);
  return { code, out: io.out, err: io.err };
}

/** mcpgen's CLI (bin/mcpgen.js) run by `node` in the project; its exit code and output. */
function cliOn(node: string, args: string[], tmp: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    // No compile cache (bin/mcpgen.js turns it on from Node 22.1): the test writes nothing outside its folder.
    const child = spawn(node, [join(projectRoot, "bin", "mcpgen.js"), ...args], {
      cwd: project,
      env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: "1", TMPDIR: tmp },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, out, err }));
  });
}

beforeAll(() => {
  const { runtime } = packPackages();
  project = tempDir("mcpgen-snapshot-project-");
  mkdirSync(join(project, "node_modules"));
  execFileSync("tar", ["xzf", runtime, "-C", join(project, "node_modules")]);
  renameSync(join(project, "node_modules", "package"), join(project, "node_modules", "mcpgen"));
  // The runtime's dependencies (ajv, @cfworker/json-schema), linked from the checkout as npm would install them.
  const manifest = JSON.parse(readFileSync(join(project, "node_modules", "mcpgen", "package.json"), "utf8"));
  for (const name of Object.keys(manifest.dependencies as Record<string, string>)) {
    mkdirSync(dirname(join(project, "node_modules", name)), { recursive: true });
    symlinkSync(join(projectRoot, "node_modules", name), join(project, "node_modules", name), "dir");
  }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "p", private: true, type: "module" }));
  writeFileSync(join(project, "server.js"), SERVER);
}, 120_000);

// A blob starts only on the Node binary that built it, and Node 22's builder fails where Node 20's
// does not (an Error in the heap whose stack was never read): the blob is built and served by the
// project's Node, and by Node 22 where CI provides one (.ci/run sets MCPGEN_NODE22).
const node22 = process.env.MCPGEN_NODE22;
// Tests run by that very Node 22 (npm test on it) have the project's builder and need no second.
const node22Apart = node22 !== undefined && realpathSync(node22) !== realpathSync(process.execPath);
const builders = [
  { label: `the project's Node (${process.version})`, node: process.execPath, blobName: "server.blob" },
  ...(node22Apart ? [{ label: "Node 22 (MCPGEN_NODE22)", node: node22, blobName: "server-22.blob" }] : []),
];

// In CI (and wherever MCPGEN_NODE22 is set) the Node 22 runs of the block below must be there.
test.runIf(process.env.CI || node22)("Node 22 is provided for these tests (MCPGEN_NODE22)", () => {
  expect(node22, "MCPGEN_NODE22 is unset: .ci/run installs Node 22 and sets it").toBeTruthy();
  expect(execFileSync(node22!, ["--version"], { encoding: "utf8" })).toMatch(/^v22\./);
});

for (const { label, node, blobName } of builders)
  describe(`a snapshot built and started by ${label}`, () => {
    let built: { code: number; out: string; err: string };
    let blob: string;
    let buildTmp: string;
    beforeAll(async () => {
      buildTmp = tempDir("mcpgen-snapshot-tmp-");
      // The project's Node builds through the CLI's main in this process; another Node through the
      // CLI's script, run by that Node (the command builds with the Node that runs it).
      built =
        node === process.execPath
          ? await snapshot(["server.js"], buildTmp) // the blob's default name: server.blob
          : await cliOn(node, ["snapshot", "server.js", "-o", blobName], buildTmp);
      blob = join(project, blobName);
    }, 120_000);

    test("writes the blob and says how to start it", () => {
      expect(built.err).toBe("");
      expect(built.code).toBe(0);
      expect(built.out).toContain(`Wrote ${blobName}`);
      expect(built.out).toContain(`node --snapshot-blob ${blobName}`);
      expect(built.out).toContain(
        `(only on this Node, ${execFileSync(node, ["--version"], { encoding: "utf8" }).trim()} at ${node}:`,
      );
      expect(existsSync(blob)).toBe(true);
      // The bundle and the builder's blob were made in a temporary folder, and are gone.
      expect(readdirSync(buildTmp)).toEqual([]);
    });

    const started = () => ({
      command: node,
      args: ["--snapshot-blob", blob],
      cwd: project,
      stderr: "pipe" as const,
    });

    for (const era of ["handshake (SDK v1)", "per-request (SDK v2 pinned to 2026-07-28)"]) {
      test(`serves the official SDK client: ${era}`, async () => {
        const handshake = era.startsWith("handshake");
        const client = handshake
          ? new Client({ name: "snapshot-test", version: "1.0.0" })
          : (new ClientV2(
              { name: "snapshot-test", version: "2.0.0" },
              { versionNegotiation: { mode: { pin: "2026-07-28" } } },
            ) as unknown as Client);
        await client.connect(handshake ? new StdioClientTransport(started()) : (new StdioV2(started()) as never));
        try {
          expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["ajv-loaded", "code", "echo"]);
          expect((await client.callTool({ name: "echo", arguments: { text: "hi" } })).content).toEqual([
            { type: "text", text: "hi" },
          ]);
          // ajv was not loaded into the snapshot (Node cannot start from one that holds a module of
          // node_modules): it loads from the project when the schema is first needed.
          const refused = await client.callTool({ name: "code", arguments: { code: "abc" } });
          expect(refused.isError).toBe(true);
          expect(JSON.stringify(refused.content)).toContain("/code: must match pattern");
          expect((await client.callTool({ name: "code", arguments: { code: "ABC", count: 2 } })).content).toEqual([
            { type: "text", text: "code ABC" },
          ]);
          expect((await client.callTool({ name: "code", arguments: { code: "ABC", count: 2.5 } })).isError).toBe(true);
          expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
        } finally {
          await client.close();
        }
      }, 60_000);
    }

    // A schema that needs ajv is compiled after a session's handshake, off the request path, as in a
    // server started from its script; not on its tool's first call. The build's warm-up sessions
    // do not count as that handshake: the blob holds no ajv, so nothing was compiled then.
    for (const [how, args] of [
      ["from the snapshot", () => ["--snapshot-blob", blob]],
      ["from its script", () => ["server.js"]],
    ] as const)
      test(`loads ajv after the first handshake, before a tool needs it: started ${how}`, async () => {
        const client = new Client({ name: "snapshot-test", version: "1.0.0" });
        await client.connect(new StdioClientTransport({ ...started(), args: args() }));
        try {
          const loaded = async () =>
            (await client.callTool({ name: "ajv-loaded", arguments: {} })).content as { text: string }[];
          let answer = await loaded();
          for (let tries = 0; tries < 100 && answer[0]?.text !== "true"; tries++) {
            await new Promise((resolve) => setTimeout(resolve, 50));
            answer = await loaded();
          }
          expect(answer).toEqual([{ type: "text", text: "true" }]);
        } finally {
          await client.close();
        }
      }, 60_000);

    test("serves a revision it did not warm up (2024-11-05, through the shims)", async () => {
      const lines = await exchange(
        node,
        ["--snapshot-blob", blob],
        [
          { jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2024-11-05") },
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "old" } } },
        ],
        2,
      );
      expect(lines[0]).toMatchObject({ id: 1, result: { protocolVersion: "2024-11-05" } });
      expect(lines[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "old" }] } });
    }, 30_000);

    test("the script, run by node, serves at once", async () => {
      const lines = await exchange(
        node,
        ["server.js"],
        [{ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams("2025-11-25") }],
        1,
      );
      expect(lines[0]).toMatchObject({ id: 1, result: { serverInfo: { name: "snapshot-test" } } });
    }, 30_000);
  });

describe("a build that fails", () => {
  const failing = async (name: string, source: string, node = process.execPath) => {
    writeFileSync(join(project, name), source);
    const blobOf = join(project, name.replace(/\.js$/, ".blob"));
    writeFileSync(blobOf, "an older blob");
    const tmp = tempDir("mcpgen-snapshot-tmp-");
    const result = node === process.execPath ? await snapshot([name], tmp) : await cliOn(node, ["snapshot", name], tmp);
    // Nothing written: the older blob is as it was, and no staging file or temporary folder is left.
    expect(readFileSync(blobOf, "utf8")).toBe("an older blob");
    expect(readdirSync(project).filter((f) => f.includes(".tmp-"))).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
    return result;
  };

  test("a script that does not exist: exit 2", async () => {
    const result = await snapshot(["missing.js"], tempDir("mcpgen-snapshot-tmp-"));
    expect(result.code).toBe(2);
    expect(result.err).toBe("mcpgen: missing.js: no such file (the server's script)\n");
  });

  test("an import that does not resolve: exit 2, with the file, line and column", async () => {
    const result = await failing("unresolved.js", `import "mcpgen/server";\nimport { x } from "./nowhere.js";\n`);
    expect(result.code).toBe(2);
    expect(result.err).toContain("mcpgen: cannot bundle unresolved.js:");
    expect(result.err).toContain("unresolved.js:2:19");
    expect(result.err).not.toContain("\u001b["); // no terminal colours
  });

  test("a script that throws: exit 1, with its error", async () => {
    const result = await failing(
      "throws.js",
      SERVER.replace(
        'server.prompt("greet"',
        'server.tool("bad name!", { inputSchema: { type: "object" } }, () => "");\n$&',
      ),
    );
    expect(result.code).toBe(1);
    expect(result.err).toContain('TypeError: invalid tool name "bad name!"');
    expect(result.err).toContain("Node's snapshot builder failed (exit 1) running throws.js; nothing written");
    // The source line Node prints with an uncaught error is cut: a minified bundle's is the whole bundle.
    expect(Math.max(...result.err.split("\n").map((line) => line.length))).toBeLessThan(400);
  });

  test("a revision to warm up that the server does not serve: exit 1", async () => {
    const result = await failing(
      "warm.js",
      SERVER.replace("serveStdioFromSnapshot(server)", 'serveStdioFromSnapshot(server, { warm: ["1999-01-01"] })'),
    );
    expect(result.code).toBe(1);
    expect(result.err).toContain("warm: the server does not serve 1999-01-01 (it serves 2024-11-05,");
  });

  // Node 22.23's builder aborts (std::length_error) on an Error in the heap whose stack was never
  // read; the runtime keeps none (its sentinel is a symbol), and a script's own gets a hint.
  test.runIf(node22)(
    "on Node 22, an Error kept whose stack was never read: exit 1, saying so",
    async () => {
      const result = await failing(
        "kept-error.js",
        SERVER.replace("serveStdioFromSnapshot(server);", 'globalThis.kept = new Error("kept");\n$&'),
        node22,
      );
      expect(result.code).toBe(1);
      expect(result.err).toContain("mcpgen snapshot: Node's snapshot builder failed (exit ");
      expect(result.err).toContain("an Error whose stack was never read: an Error made at the top level and kept");
    },
    60_000,
  );

  test("a blob that would not start (a package loaded while it was built): exit 1", async () => {
    const result = await failing(
      "loads.js",
      SERVER.replace(
        'import { serveStdioFromSnapshot } from "mcpgen/snapshot";',
        'import { serveStdioFromSnapshot } from "mcpgen/snapshot";\ncreateRequire(import.meta.url)("ajv");',
      ),
    );
    expect(result.code).toBe(1);
    expect(result.err).toContain("mcpgen snapshot: the snapshot built from loads.js does not start (exit ");
    expect(result.err).toContain("did the script load a package while it was built");
  });

  test("a script that serves stdio itself ends the build: exit 1, saying what to call", async () => {
    const result = await failing(
      "plain.js",
      SERVER.replace(
        'import { serveStdioFromSnapshot } from "mcpgen/snapshot";',
        'import { serveStdio } from "mcpgen/stdio";',
      ).replace("serveStdioFromSnapshot(server)", "serveStdio(server)"),
    );
    expect(result.code).toBe(1);
    expect(result.err).toContain("wrote no snapshot: the script ended the process");
    expect(result.err).toContain("serveStdioFromSnapshot, not serveStdio");
  });
});

function initializeParams(protocolVersion: string) {
  return { protocolVersion, capabilities: {}, clientInfo: { name: "snapshot-test", version: "1" } };
}

/** Starts `node` with `args` in the project, writes `messages` (the later ones after the first answer), and returns `count` answers. */
function exchange(node: string, args: string[], messages: object[], count: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { cwd: project, stdio: ["pipe", "pipe", "pipe"] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no ${count} answers in 20 s: ${text}`));
    }, 20_000);
    let text = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdin.write(`${JSON.stringify(messages[0])}\n`);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const before = text.split("\n").length;
      text += chunk;
      const lines = text.split("\n").filter((line) => line !== "");
      if (before === 1 && lines.length >= 1)
        for (const message of messages.slice(1)) child.stdin.write(`${JSON.stringify(message)}\n`);
      if (lines.length >= count) {
        clearTimeout(timer);
        child.kill();
        resolve(lines.map((line) => JSON.parse(line) as Record<string, unknown>));
      }
    });
    child.on("exit", (code) => {
      if (text.split("\n").filter((line) => line !== "").length < count) {
        clearTimeout(timer);
        reject(new Error(`exit ${code} before ${count} answers: ${text} ${stderr}`));
      }
    });
  });
}
