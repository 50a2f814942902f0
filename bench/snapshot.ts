// A server as its author may start it for the fastest start: a V8 startup
// snapshot of its script, built by `mcpgen snapshot` (the checkout's CLI, as a
// user runs the installed one) in the project that installed the runtime
// package, and started with `node --snapshot-blob`.
import { execFileSync } from "node:child_process";
import { join } from "node:path";

/** Builds the blob of `dir/script` into `dir/blob` with mcpgen snapshot; returns the node arguments that start it. */
export function snapshotServer(root: string, dir: string, script: string, blob: string): string[] {
  try {
    execFileSync(process.execPath, [join(root, "bin", "mcpgen.js"), "snapshot", script, "-o", blob], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`mcpgen snapshot failed: ${failure.message}\n${failure.stdout ?? ""}${failure.stderr ?? ""}`);
  }
  return ["--snapshot-blob", join(dir, blob)];
}
