// `mcpgen snapshot <script> [-o <blob>]`: a V8 startup snapshot of a stdio
// server, started with `node --snapshot-blob <blob>`. The script builds its
// server and calls serveStdioFromSnapshot (mcpgen/snapshot). Node's snapshot
// builder runs one CommonJS file that may require only Node's built-ins, so the
// script and everything it imports are bundled first (rolldown), with every
// dynamic import inlined: a process started from a snapshot cannot import().
import { spawn } from "node:child_process";
import { copyFile, mkdtemp, rename, rm, stat } from "node:fs/promises";
import { constants, tmpdir } from "node:os";
import { basename, dirname, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { SpecError } from "../lock/lock.js";
import { displayPath, type Io } from "./io.js";

export interface SnapshotCommandOptions {
  /** The server's script, as given (relative to io.cwd). */
  script: string;
  /** The blob to write; default the script's name with ".blob", in the current folder. */
  out?: string;
  /** Minify the bundle (keeping function and class names): a smaller heap to load at each start. */
  minify: boolean;
}

export async function snapshotCommand(io: Io, options: SnapshotCommandOptions): Promise<number> {
  const script = resolve(io.cwd, options.script);
  const out = resolve(io.cwd, options.out ?? `${basename(script, extname(script))}.blob`);
  const isFile = await stat(script).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) throw new SpecError(`${displayPath(io, script)}: no such file (the server's script)`);

  // The environment as the CLI was given it (Io), as everywhere else in the CLI: a caller can give
  // the build a temporary folder of its own.
  const work = await mkdtemp(join(io.env["TMPDIR"] || tmpdir(), "mcpgen-snapshot-"));
  try {
    const bundle = join(work, "server.cjs");
    const blob = join(work, "server.blob");
    await bundleScript(io, script, bundle, options.minify);
    const { code, output } = await run(["--snapshot-blob", blob, "--build-snapshot", bundle], dirname(script));
    if (output) io.stderr(output);
    const built = await stat(blob).then(
      () => true,
      () => false,
    );
    if (code !== 0 || !built) {
      io.stderr(
        `mcpgen snapshot: Node's snapshot builder ${
          code !== 0
            ? `failed (exit ${code})`
            : "wrote no snapshot: the script ended the process (a script for a snapshot serves through serveStdioFromSnapshot, not serveStdio)"
        } running ${displayPath(io, script)}; nothing written\n` +
          // Seen on Node 22.23: the builder aborts on an Error object in the heap whose stack was never read.
          (output.includes("std::length_error")
            ? "(Node 22's builder aborts so when the heap holds an Error whose stack was never read: an Error made at the top level and kept; read its .stack once, or make it where it is thrown)\n"
            : ""),
      );
      return 1;
    }
    // A blob can build and not start: one whose heap holds a module that the script loaded from
    // node_modules at build time fails an assertion of Node's before it runs anything (Node 20).
    // Started with its input closed, a stdio server ends at once, with exit 0.
    const start = await run(["--snapshot-blob", blob], dirname(script));
    if (start.code !== 0) {
      io.stderr(
        `${start.output}mcpgen snapshot: the snapshot built from ${displayPath(io, script)} does not start (exit ${start.code}); ` +
          "did the script load a package while it was built (require or createRequire)? Nothing written\n",
      );
      return 1;
    }
    // Into place whole: a blob that exists already stays as it was until the new one is complete.
    const staged = `${out}.tmp-${process.pid}`;
    await copyFile(blob, staged);
    await rename(staged, out);
    const { size } = await stat(out);
    io.stdout(
      `Wrote ${displayPath(io, out)} (${(size / 1024 / 1024).toFixed(1)} MB) from ${displayPath(io, script)}.\n` +
        `Start the server with: node --snapshot-blob ${displayPath(io, out)}\n` +
        `(only on this Node, ${process.version} at ${process.execPath}: a blob starts on the binary that built it)\n`,
    );
    return 0;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The script and what it imports as one CommonJS file, Node's built-ins left as requires. */
async function bundleScript(io: Io, script: string, into: string, minify: boolean): Promise<void> {
  // Loaded here, not with the CLI: only this command bundles.
  const { rolldown } = await import("rolldown");
  let bundle;
  try {
    bundle = await rolldown({
      input: script,
      platform: "node",
      external: [/^node:/],
      logLevel: "warn",
      // The bundle is written to a temporary folder: a module's URL is the script's, so that what
      // the code finds beside itself (mcpgen: ajv, through createRequire) is found from the project.
      transform: { define: { "import.meta.url": JSON.stringify(pathToFileURL(script).href) } },
    });
    await bundle.write({
      file: into,
      format: "cjs",
      codeSplitting: false,
      // ASCII only, no comments: the blob keeps the script's source, and every start loads it.
      charset: "ascii",
      comments: { legal: false, annotation: false, jsdoc: false },
      minify: minify ? { compress: true, mangle: { keepNames: true } } : false,
    });
  } catch (error) {
    // rolldown's message names the file, line and column, with a code frame in colours.
    const message = stripVTControlCharacters(error instanceof Error ? error.message : String(error));
    throw new SpecError(`cannot bundle ${displayPath(io, script)}: ${message}`);
  } finally {
    await bundle?.close();
  }
}

// Node warns that node:module is not "fully verified" in a snapshot: mcpgen uses its createRequire
// only (for node:crypto and ajv, when first needed), which keeps no state in the heap.
const NODE_MODULE_WARNING =
  /^\(node:\d+\) Warning: It's not yet fully verified whether built-in module "node:module" works in user snapshot builder scripts\.\n(?:It may still work.*\n)?(?:To request support.*\n)?(?:\(Use `node --trace-warnings.*\n)?/m;

const MAX_OUTPUT = 64 * 1024;
const MAX_LINE = 300;

/** Node prints the source line of an uncaught error: a minified bundle's is the whole bundle. */
function shortLines(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE)} ... (${line.length - MAX_LINE} more characters)`,
    )
    .join("\n");
}

/** Runs this Node with `args` in `cwd`, its input closed; its exit code and what it printed. */
function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    // What it prints, kept to its last MAX_OUTPUT characters.
    let output = "";
    const keep = (text: string) => {
      output += text;
      if (output.length > 2 * MAX_OUTPUT) output = output.slice(-MAX_OUTPUT);
    };
    child.stdout.setEncoding("utf8").on("data", keep);
    child.stderr.setEncoding("utf8").on("data", keep);
    child.on("error", fail);
    child.on("close", (code, signal) =>
      done({
        // Killed by a signal: the shell's convention, 128 + its number (an abort is 134).
        code: code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0),
        output: shortLines(output.replace(NODE_MODULE_WARNING, "")),
      }),
    );
  });
}
