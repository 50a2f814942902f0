// The mcpgen command line. The only code that reads the environment, touches
// the file system (through ./io.ts and the command modules) or sets exit codes.
//
// Exit codes: 0 success; 1 `generate --check` found differences, `validate`
// found an invalid message, or `call` failed (no connection, an error answer, a
// tool result with isError), or `snapshot`'s build failed (the script threw
// or its warm-up failed); 2 bad input
// (usage, unknown revision, unreadable or invalid schema, a file that does not
// match the lock, `init` into a folder that is not empty).
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { SpecError } from "../lock/lock.js";
import { SchemaError, SchemaFailure, formatDiagnostic } from "../diagnostics.js";
import type { Io } from "./io.js";
import { listSpec, pinSpec, syncSpec, type SpecPaths } from "./spec-commands.js";
import { validateCommand } from "./validate-command.js";
import { callCommand } from "./call-command.js";
import { initCommand } from "./init-command.js";
import { snapshotCommand } from "./snapshot-command.js";

/**
 * The manifest names the CLI runs under: "mcpgen" is the repository's checkout
 * (where defaults are the checkout's own folders), "mcpgen-generator" the
 * published generator package (packages/generator), installed into a user's
 * project, where defaults are that project's folders.
 */
const CHECKOUT = "mcpgen";
const GENERATOR_PACKAGE = "mcpgen-generator";

/** The folder holding the CLI's package.json, and that manifest. */
export function packageRoot(): { dir: string; name: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version: string };
      if (name === CHECKOUT || name === GENERATOR_PACKAGE) return { dir, name, version };
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("mcpgen: cannot find mcpgen's package.json above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/**
 * Default paths. The pinned lock always comes with the CLI. In a checkout the
 * cache, output and surface summaries are its spec/, generated/ and
 * spec/surface/; an installed generator writes into the project it runs in
 * (the current folder): .mcpgen/spec/ and generated/, and no surface summaries
 * (they are the repository's review aid).
 */
function defaultPaths(root: { dir: string; name: string }, cwd: string) {
  const lock = join(root.dir, "spec", "revisions.json");
  if (root.name === CHECKOUT) {
    return {
      lock,
      cache: join(root.dir, "spec"),
      out: join(root.dir, "generated"),
      surface: join(root.dir, "spec", "surface"),
    };
  }
  return { lock, cache: join(cwd, ".mcpgen", "spec"), out: join(cwd, "generated"), surface: undefined };
}

export async function main(argv: readonly string[], io: Io): Promise<number> {
  const root = packageRoot();
  const defaults = defaultPaths(root, io.cwd);
  const relativeToCwd = (path: string) => relative(io.cwd, path) || ".";
  let exitCode = 0;
  const specPaths = (options: { lock?: string; cache?: string }): SpecPaths => ({
    lock: resolve(io.cwd, options.lock ?? defaults.lock),
    cache: resolve(io.cwd, options.cache ?? defaults.cache),
  });
  const lockOption = () =>
    new Option("--lock <file>", "the lock file (default: the one pinned with mcpgen, spec/revisions.json)");
  const cacheOption = () =>
    new Option("--cache <dir>", `the spec cache folder (default: ${relativeToCwd(defaults.cache)})`);

  const program = new Command("mcpgen")
    .description("Generate typed MCP runtimes from each protocol revision's schema.ts")
    .version(root.version)
    .exitOverride()
    // `call` passes everything after the server's command to it (passThroughOptions needs this).
    .enablePositionalOptions()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      outputError: (text, write) => write(`mcpgen: ${text.replace(/^error: /, "")}`),
    })
    .showHelpAfterError("(run mcpgen --help for usage)");

  const spec = program
    .command("spec")
    .description("manage the pinned upstream schema files (spec/revisions.json and the spec/<rev>/ cache)");
  spec
    .command("sync")
    .description("copy each revision's pinned files into the cache, verifying every sha256")
    .option("--from <dir>", "read <dir>/<rev>/schema.ts etc. instead of downloading (default: $MCP_SPEC_DIR)")
    .option(
      "--ext-from <dir>",
      "read <dir>/<extension>/<its files> instead of downloading (default: $MCP_EXT_DIR, else extensions/ beside --from)",
    )
    .option("--rev <name...>", "only these revisions", [])
    .option("--ext <name...>", "only these extensions (with --rev: those revisions and these extensions)")
    .option("--force", "fetch again even when the cache already matches the lock", false)
    .option("--quiet", "no progress output", false)
    .addOption(lockOption())
    .addOption(cacheOption())
    .action(async (options) => {
      const from = options.from ?? io.env["MCP_SPEC_DIR"];
      // The shared spec folder holds schema/ and extensions/ side by side.
      const extensionsFrom =
        options.extFrom ??
        (io.env["MCP_EXT_DIR"] || (from ? join(resolve(io.cwd, from), "..", "extensions") : undefined));
      exitCode = await syncSpec(io, specPaths(options), {
        from: from || undefined,
        extensionsFrom: extensionsFrom || undefined,
        revisions: options.rev,
        ...(options.ext ? { extensions: options.ext } : {}),
        force: options.force,
        quiet: options.quiet,
      });
    });
  spec
    .command("list")
    .description("list the pinned revisions and whether each is synced and verified")
    .option("--json", "print JSON", false)
    .addOption(lockOption())
    .addOption(cacheOption())
    .action(async (options) => {
      exitCode = await listSpec(io, specPaths(options), { json: options.json });
    });
  spec
    .command("pin")
    .description("add or update a revision in the lock from a folder of upstream files")
    .argument("<rev>", "the revision name, e.g. 2026-07-28")
    .requiredOption("--from <dir>", "folder holding <rev>/schema.ts, <rev>/schema.json and <rev>/examples/")
    .requiredOption("--commit <sha>", "the upstream commit the files come from")
    .option(
      "--path <folder>",
      "the folder the files are in upstream at that commit, for the lock's URLs (default: where <rev> was pinned before, else schema/<rev>)",
    )
    .addOption(
      new Option(
        "--lock <file>",
        root.name === CHECKOUT
          ? "the lock file to write (default: the checkout's spec/revisions.json)"
          : "the lock file to write, the project's own (needed: the CLI never writes into its package); a new file starts as a copy of the lock mcpgen ships",
      ),
    )
    .action(async (revision, options) => {
      // An installed CLI's lock is part of its package, which an update or reinstall replaces.
      if (root.name !== CHECKOUT && options.lock === undefined)
        throw new SpecError(
          `spec pin writes a lock, and ${relativeToCwd(defaults.lock)} belongs to the installed ${GENERATOR_PACKAGE}: ` +
            `pass --lock FILE for this project's own lock (e.g. --lock spec/revisions.json; a new file starts as a copy of that one), ` +
            `then give the other commands the same --lock`,
        );
      const paths = specPaths(options);
      if (root.name !== CHECKOUT && isInside(root.dir, paths.lock))
        throw new SpecError(
          `--lock ${relativeToCwd(paths.lock)} is inside the installed ${GENERATOR_PACKAGE}: name a file of this project`,
        );
      exitCode = await pinSpec(io, paths, {
        revision,
        from: options.from,
        commit: options.commit,
        ...(options.path !== undefined ? { path: options.path } : {}),
        template: defaults.lock,
      });
    });

  program
    .command("generate")
    .description("generate types and method tables for each revision into <out>/<rev>/")
    .option("--rev <name...>", "only these revisions (default: every revision in the lock)", [])
    .option("--out <dir>", `output folder (default: ${relativeToCwd(defaults.out)})`)
    .option("--schema <path>", "generate from this schema.ts instead of the lock (needs --rev NAME)")
    .option(
      "--surface <dir>",
      defaults.surface === undefined
        ? "where surface summaries go (default: none)"
        : "where surface summaries go (default: spec/surface/ of the checkout for pinned revisions, none with --schema)",
    )
    .option("--check", "write nothing; exit 1 and list the files that differ from a fresh generation", false)
    .option("--quiet", "no progress output", false)
    .option("--json", "print a JSON report on stdout", false)
    .addOption(lockOption())
    .addOption(cacheOption())
    .action(async (options) => {
      const paths = specPaths(options);
      const surface = options.surface ?? (options.schema === undefined ? defaults.surface : undefined);
      // Commands that parse schemas load the parser (ts-morph, half a second) only when they run.
      const { generateCommand } = await import("./generate-command.js");
      exitCode = await generateCommand(io, {
        ...paths,
        revisions: options.rev,
        out: resolve(io.cwd, options.out ?? defaults.out),
        surface: surface === undefined ? undefined : resolve(io.cwd, surface),
        ...(options.schema !== undefined ? { schema: options.schema } : {}),
        check: options.check,
        quiet: options.quiet,
        json: options.json,
      });
    });

  program
    .command("diff")
    .description("show what changed between two protocol revisions (or, with --all, how much between every pair)")
    .argument("[from]", "the older revision, e.g. 2025-06-18")
    .argument("[to]", "the newer revision, e.g. 2025-11-25")
    .option("--all", "print the number of differences for every pair of pinned revisions", false)
    .addOption(new Option("--format <format>", "output format").choices(["text", "markdown", "json"]).default("text"))
    .option("--schema <path>", "a schema.ts for whichever of the two revisions the lock does not pin")
    .option("--ext <name>", "compare the pinned extension NAME with another version of it (--schema PATH)")
    .option("--base <rev>", "with --ext: the revision the --schema version builds on (default: the pinned one's)")
    .addOption(lockOption())
    .addOption(cacheOption())
    .action(async (from, to, options) => {
      const { diffCommand } = await import("./diff-command.js");
      exitCode = await diffCommand(io, {
        ...specPaths(options),
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
        all: options.all,
        format: options.format,
        ...(options.schema !== undefined ? { schema: options.schema } : {}),
        ...(options.ext !== undefined ? { extension: options.ext } : {}),
        ...(options.base !== undefined ? { base: options.base } : {}),
      });
    });

  program
    .command("validate")
    .description("check one JSON message or a JSONL capture (one message per line) against a revision's validators")
    .argument("<file>", "the messages: a file, or - for standard input")
    .requiredOption("--rev <name>", "the revision the messages speak (with --schema: the name to give it)")
    .option("--schema <path>", "generate the revision from this schema.ts instead of the one the runtime package holds")
    .option("--type <name>", "check every message as this schema type instead of inferring it from its method")
    .option("--quiet", "no summary line", false)
    .option("--json", "print the verdicts as JSON", false)
    .action(async (input, options) => {
      exitCode = await validateCommand(io, {
        revision: options.rev,
        ...(options.schema !== undefined ? { schema: options.schema } : {}),
        ...(options.type !== undefined ? { type: options.type } : {}),
        input,
        json: options.json,
        quiet: options.quiet,
      });
    });

  program
    .command("call")
    .description(
      "call a tool, read a resource, get a prompt or list them on a server: a URL (Streamable HTTP) or a command (stdio)",
    )
    .argument("<server...>", "http(s)://host/path, or the command that starts the server and its arguments")
    .option("--tool <name>", "call this tool")
    .option("--resource <uri>", "read this resource")
    .option("--prompt <name>", "get this prompt")
    .option("--list <what>", "list tools, resources, templates or prompts")
    .option("--args <json>", "the tool's or prompt's arguments, a JSON object")
    .option("--rev <name>", "speak this revision (default: the server's era is detected)")
    .option(
      "--header <header>",
      "an HTTP header, 'Name: value' (repeatable)",
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option("--timeout <ms>", "longest wait for the answer", "60000")
    .option("--json", "print the result as JSON", false)
    .passThroughOptions()
    .action(async (server: string[], options) => {
      const timeoutMs = Number(options.timeout);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
        throw new SpecError(`--timeout must be a positive integer, not ${options.timeout}`);
      exitCode = await callCommand(io, {
        server,
        ...(options.tool !== undefined ? { tool: options.tool } : {}),
        ...(options.resource !== undefined ? { resource: options.resource } : {}),
        ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
        ...(options.list !== undefined ? { list: options.list } : {}),
        ...(options.args !== undefined ? { args: options.args } : {}),
        ...(options.rev !== undefined ? { revision: options.rev } : {}),
        headers: options.header,
        timeoutMs,
        json: options.json,
      });
    });

  program
    .command("init")
    .description("create an MCP server project on the mcpgen runtime: one tool, resource and prompt, a test, a README")
    .argument("<dir>", "the project folder: new or empty; its name becomes the package's")
    .option("--runtime <name>", "where it runs: node, bun, deno or workers (Cloudflare)", "node")
    .option("--http", "node: serve over Streamable HTTP instead of stdio (the other runtimes always serve HTTP)")
    .action(async (dir: string, options) => {
      exitCode = await initCommand(io, {
        dir,
        runtime: options.runtime,
        transport: options.http ? "http" : "stdio",
        version: root.version,
      });
    });

  program
    .command("snapshot")
    .description(
      "build a V8 startup snapshot of a stdio server whose script calls serveStdioFromSnapshot (mcpgen/snapshot): it starts with `node --snapshot-blob BLOB`",
    )
    .argument("<script>", "the server's script")
    .option("-o, --out <blob>", "the blob to write (default: the script's name with .blob, in the current folder)")
    .option("--no-minify", "bundle without minifying (minified, function and class names are kept)")
    .action(async (script: string, options) => {
      exitCode = await snapshotCommand(io, {
        script,
        ...(options.out !== undefined ? { out: options.out } : {}),
        minify: options.minify,
      });
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    return reportError(io, error);
  }
}

function isInside(dir: string, path: string): boolean {
  const fromDir = relative(dir, path);
  return fromDir !== ".." && !fromDir.startsWith(`..${sep}`) && !isAbsolute(fromDir);
}

function reportError(io: Io, error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and version are not errors; commander has already printed everything.
    return error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.code === "commander.help"
      ? 0
      : 2;
  }
  if (error instanceof SchemaFailure) {
    io.stderr(`${error.format()}\n`);
    return 2;
  }
  if (error instanceof SchemaError) {
    io.stderr(`${error.diagnostics.map((d) => formatDiagnostic(d, { file: error.file })).join("\n")}\n`);
    return 2;
  }
  if (error instanceof SpecError) {
    io.stderr(`mcpgen: ${error.message}\n`);
    return 2;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr(`mcpgen: internal error: ${message}\n`);
  return 70;
}

/** The process's own Io. */
export function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    fetch: globalThis.fetch,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}
