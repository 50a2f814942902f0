// The runtimes bench:fetch starts servers on: .ci/runtimes installs the npm
// packages bun and deno into the CI cache (as the runtime tests use them) and
// prints the folder; MCPGEN_RUNTIMES names one already installed.
import { execFileSync } from "node:child_process";
import { join } from "node:path";

/** The executables of bun and deno, and their versions. */
export function installedRuntimes(root: string): Record<"bun" | "deno", { bin: string; version: string }> {
  const folder =
    process.env["MCPGEN_RUNTIMES"] ??
    execFileSync("bash", [join(root, ".ci", "runtimes")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
  const runtime = (name: string) => {
    const bin = join(folder, "node_modules", ".bin", name);
    const version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim().split("\n")[0]!;
    return { bin, version };
  };
  return { bun: runtime("bun"), deno: runtime("deno") };
}
