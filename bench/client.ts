// Benchmark: MCP clients over stdio, side by side in one run, calling the same
// server, a fresh process per client run, serving a `search` tool with nested
// arguments, an outputSchema and a ~4.7 KB answer of three text blocks and
// structuredContent (bench/clients/corpus.ts). Two servers, one table each:
//   canned   mcpgen's server, but tools/call of `search` answered from a template of
//            mcpgen's own answer (bench/servers/search-canned.ts): the server costs less
//            per call than any client, so what is compared is the clients' own cost
//   mcpgen   mcpgen's server for every message (bench/servers/search-mcpgen.ts): end to end,
//            where with many calls in flight the server is the limit for the leaner clients
// Each client runs in a process of its own (bench/clients/run.ts), lists the tools first as a real client does, warms
// up, then calls the tool one at a time and with 64 in flight; every answer is
// checked to be the one to its call, and every client validates what it
// receives as it normally does:
//   floor                       spawns the server, writes request lines, matches answers by id with
//                               JSON.parse and nothing else: the cost of doing nothing
//   mcpgen                      Client + StdioClientTransport (mcpgen/client, dist/runtime/client),
//                               callTool(); every message checked against the wire revision's
//                               generated validators and converted to 2026-07-28's shapes
//   SDK v1                      @modelcontextprotocol/sdk Client + StdioClientTransport, callTool()
//                               (zod schemas, structuredContent checked against the outputSchema with ajv)
//   SDK v2                      @modelcontextprotocol/client Client + StdioClientTransport, callTool()
//                               (likewise); in its default versionNegotiation mode (2.4.0: "legacy", the
//                               initialize handshake) and in mode "auto" (server/discover, probed on a
//                               sibling server process it spawns and disposes of, then modern)
// Like is compared with like: the rows are grouped by the revision each client
// reports it negotiated (printed), a handshake group (2025-11-25: mcpgen
// pinned to it, the SDK v1 client, the SDK v2 client's default mode) and a
// per-request group (2026-07-28: mcpgen detecting the era, the SDK v2 client
// in mode "auto"), each with a floor that speaks the same revision. Every round
// runs every client, in rotating order; the table shows medians over rounds.
// CPU µs/call is the client process's user + system time per call (the server
// is another process), reading and writing the pipe included.
// Then the install size of each client: an empty project with only it
// installed by npm (mcpgen: the runtime package as packages/pack.mjs packs it;
// the SDKs at the versions of package.json's devDependencies, from npm's cache).
//
// Run: npm run bench:client [-- --rounds N] [--quick] [--only mcpgen,v1] [--server canned|mcpgen] [--no-install]
import { execFileSync, spawn } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { ClientKind, Phase, RunResult } from "./clients/run.js";
import { benchOptions, onlyWords, sharedOptions } from "./options.js";
import { median } from "./stats.js";

const options = benchOptions(
  "client.js",
  "The client over stdio beside the SDK v1 and v2 clients and a JSON.parse-only floor.",
  [
    sharedOptions.rounds(5),
    sharedOptions.quick,
    sharedOptions.only("the floor"),
    { name: "--no-install", help: "skip the install sizes" },
    { name: "--server", takes: "text", label: "name", help: "only against this server: canned or mcpgen" },
  ],
);
const quick = options.has("--quick");
const rounds = options.number("--rounds", quick ? 1 : 5);
const warmupCalls = quick ? 20 : 3_000;
const sequentialCalls = quick ? 20 : 3_000;
const pipelinedCalls = quick ? 128 : 20_000;
const inFlight = 64;
/** The longest a client's run may take (connect, warm-up, both phases, close) before it is killed. */
const runLimitMs = 180_000;
const installLimitMs = 300_000;

const only = onlyWords(options);
const install = !options.has("--no-install");

const root = join(import.meta.dirname, "..", "..");
const runner = join(import.meta.dirname, "clients", "run.js");
const serverName = options.text("--server");
const servers = [
  {
    name: "canned",
    script: join(import.meta.dirname, "servers", "search-canned.js"),
    what: "mcpgen's server answering tools/call from a template (client-bound)",
  },
  {
    name: "mcpgen",
    script: join(import.meta.dirname, "servers", "search-mcpgen.js"),
    what: "mcpgen's server (end to end)",
  },
].filter((s) => serverName === undefined || s.name === serverName);
if (servers.length === 0) {
  console.error(`bench/client.js: --server ${JSON.stringify(serverName)}: canned or mcpgen`);
  process.exit(2);
}

interface Row {
  name: string;
  kind: ClientKind;
  floor: boolean;
}
const allRows: Row[] = [
  { name: "floor (JSON.parse only)", kind: "floor-legacy", floor: true },
  { name: "mcpgen (pinned 2025-11-25)", kind: "mcpgen-legacy", floor: false },
  { name: "SDK v1", kind: "sdk-v1", floor: false },
  { name: "SDK v2 (default mode)", kind: "sdk-v2-default", floor: false },
  { name: "floor, per-request body", kind: "floor-modern", floor: true },
  { name: "mcpgen (era detected)", kind: "mcpgen-modern", floor: false },
  { name: 'SDK v2 (mode "auto")', kind: "sdk-v2-auto", floor: false },
];
const rows = allRows.filter((r) => r.floor || only === undefined || only.some((word) => r.name.includes(word)));

/** One client's run in its own process; rejects if it fails, prints to stderr, or outlives runLimitMs. */
function runClient(row: Row, server: string): Promise<RunResult> {
  const args = [runner, row.kind, server, warmupCalls, sequentialCalls, pipelinedCalls, inFlight].map(String);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill("SIGKILL"), runLimitMs);
  return new Promise((resolve, reject) => {
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
      if (code !== 0 || !line || stderr !== "")
        reject(
          new Error(
            `${row.name}: the client's run ${signal ? `was killed (${signal}, limit ${runLimitMs} ms)` : `exited with ${code}`}` +
              `${stderr ? `; stderr: ${stderr.trim().slice(-2000)}` : ""}`,
          ),
        );
      else resolve(JSON.parse(line.slice("RESULT ".length)) as RunResult);
    });
  });
}

const results = new Map<string, RunResult[]>(
  servers.flatMap((server) => rows.map((r) => [`${server.name} ${r.name}`, []] as [string, RunResult[]])),
);
for (let round = 0; round < rounds; round++)
  for (const server of servers)
    for (let i = 0; i < rows.length; i++) {
      const row = rows[(i + round) % rows.length]!;
      results.get(`${server.name} ${row.name}`)!.push(await runClient(row, server.script));
    }

interface Summary {
  name: string;
  floor: boolean;
  speaks: string;
  sequential: Phase;
  pipelined: Phase;
}
const ratio = (value: number, base: number | undefined) => (base ? `${(value / base).toFixed(2)}×` : "-");

function table(header: string[], body: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  for (const row of [header, ...body])
    console.log(row.map((cell, i) => (i <= 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
}

console.log(
  `tools/call "search" over stdio from each client to the same server, Node ${process.version}; ` +
    `medians of ${rounds} round(s): ${sequentialCalls} sequential calls, ${pipelinedCalls} with ${inFlight} in flight, ` +
    `after ${warmupCalls} warm-up calls; a fresh client process and server process per run`,
);
for (const server of servers) {
  const summary: Summary[] = rows.map((row) => {
    const runs = results.get(`${server.name} ${row.name}`)!;
    const speaks = [...new Set(runs.map((r) => `${r.revision} (${r.era === "legacy" ? "handshake" : "per-request"})`))];
    const phase = (key: "sequential" | "pipelined"): Phase => ({
      rps: median(runs.map((r) => r[key].rps)),
      cpuUsPerCall: median(runs.map((r) => r[key].cpuUsPerCall)),
    });
    return {
      name: row.name,
      floor: row.floor,
      speaks: speaks.join(" / "),
      sequential: phase("sequential"),
      pipelined: phase("pipelined"),
    };
  });
  // Each row's floor: the floor that speaks the same revision and era.
  const floorOf = (s: Summary) => summary.find((f) => f.floor && f.speaks === s.speaks);

  console.log(`\nserver: ${server.name}, ${server.what}\n`);
  table(
    ["client", "speaks", "seq req/s", "×floor", "CPU µs/call", `${inFlight}-deep req/s`, "×floor", "CPU µs/call"],
    summary.map((s) => {
      const floor = floorOf(s);
      return [
        s.name,
        s.speaks,
        s.sequential.rps.toFixed(0),
        ratio(s.sequential.rps, floor?.sequential.rps),
        s.sequential.cpuUsPerCall.toFixed(1),
        s.pipelined.rps.toFixed(0),
        ratio(s.pipelined.rps, floor?.pipelined.rps),
        s.pipelined.cpuUsPerCall.toFixed(1),
      ];
    }),
  );

  // mcpgen ÷ SDK, each SDK row against the mcpgen row that speaks what it speaks; and the floor ÷ SDK,
  // the most any client could reach against that SDK client with this server.
  const comparisons: string[][] = [];
  for (const sdk of summary.filter((s) => s.name.startsWith("SDK"))) {
    const floor = floorOf(sdk);
    const ours = summary.find((s) => s.name.startsWith("mcpgen") && s.speaks === sdk.speaks);
    comparisons.push([
      `${ours?.name ?? "(no mcpgen row)"} ÷ ${sdk.name}`,
      sdk.speaks,
      ours ? ratio(ours.sequential.rps, sdk.sequential.rps) : "-",
      ours ? ratio(ours.pipelined.rps, sdk.pipelined.rps) : "-",
      ours ? ratio(sdk.pipelined.cpuUsPerCall, ours.pipelined.cpuUsPerCall) : "-",
      floor
        ? `${ratio(floor.sequential.rps, sdk.sequential.rps)} / ${ratio(floor.pipelined.rps, sdk.pipelined.rps)}`
        : "-",
    ]);
  }
  if (comparisons.length > 0) {
    console.log("");
    table(
      [
        "mcpgen ÷ SDK",
        "speaks",
        "seq req/s",
        `${inFlight}-deep req/s`,
        `${inFlight}-deep CPU/call, SDK ÷ mcpgen`,
        "floor ÷ SDK (seq / deep)",
      ],
      comparisons,
    );
  }
}
console.log(
  `\n×floor: against the floor speaking the same revision (the per-request floor sends the same _meta as the ` +
    `per-request clients). CPU µs/call: the client process's CPU time per call, reading and writing the pipe ` +
    `included (a client that falls behind reads more answers per wake-up, so this is not its work alone). ` +
    `floor ÷ SDK: the ratio no client can pass with that server.\n`,
);

// --- install size --------------------------------------------------------------

/** The bytes of the regular files under `dir` (symbolic links not followed). */
function bytesUnder(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    if (entry.parentPath === dir && entry.name === ".package-lock.json") continue; // npm's own bookkeeping
    bytes += lstatSync(join(entry.parentPath, entry.name)).size;
    files++;
  }
  return { bytes, files };
}

/** Runs a command with a time limit; its output is shown only if it fails (npm warns on stderr). */
function quiet(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      timeout: installLimitMs,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(" ")} failed: ${failure.message}\n${failure.stdout ?? ""}${failure.stderr ?? ""}`,
    );
  }
}

if (install) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const devDependencies = (
    JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    }
  ).devDependencies;
  const scratch = mkdtempSync(join(tmpdir(), "mcpgen-bench-client-"));
  try {
    const packed = quiet(process.execPath, [join(root, "packages", "pack.mjs"), join(scratch, "packs")], root);
    const runtime = packed.trim().split("\n")[0]!;
    if (!runtime.endsWith(".tgz")) throw new Error(`packages/pack.mjs printed ${packed}`);
    const version = (name: string) => `${name}@${devDependencies[name]}`;
    const installs = [
      { name: "mcpgen (the runtime package)", spec: runtime, label: `${basename(runtime, ".tgz")}.tgz (packed)` },
      { name: "SDK v1", spec: version("@modelcontextprotocol/sdk"), label: version("@modelcontextprotocol/sdk") },
      { name: "SDK v2", spec: version("@modelcontextprotocol/client"), label: version("@modelcontextprotocol/client") },
    ];
    const body: string[][] = [];
    for (const [i, { name, spec, label }] of installs.entries()) {
      const project = join(scratch, `project-${i}`);
      mkdirSync(project);
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", private: true, type: "module" }));
      quiet(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", spec], project);
      const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as {
        packages: Record<string, unknown>;
      };
      const packages = Object.keys(lock.packages).filter((key) => key.startsWith("node_modules/")).length;
      const { bytes, files } = bytesUnder(join(project, "node_modules"));
      body.push([name, label, String(packages), String(files), (bytes / 1e6).toFixed(1)]);
    }
    table(["install", "what", "packages", "files", "MB of files"], body);
    console.log(
      `\ninstall: \`npm install --prefer-offline\` of the one package into an empty project; packages: entries of ` +
        `its package-lock.json (the package and its dependencies); MB: the bytes of the files under node_modules (10^6). ` +
        `mcpgen's package is the whole runtime (server, transports, client, six revisions' validators).`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
