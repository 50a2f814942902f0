// Examples started as a user starts them, on loopback, and stopped.
import { spawn, type ChildProcess } from "node:child_process";
import { projectRoot } from "../helpers.js";

/** A started example: its process, the URL it printed, everything it printed. */
export interface Started {
  child: ChildProcess;
  url: string;
  output(): string;
}

/**
 * Starts `command args`, resolves with the first match of `printed` (its group
 * 1 is the URL) in what it prints; rejects if it exits first or takes 30 s.
 */
export function startPrinting(
  command: string,
  args: string[],
  printed: RegExp,
  env?: NodeJS.ProcessEnv,
): Promise<Started> {
  const child = spawn(command, args, { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"], env: env ?? process.env });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL after 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const served = printed.exec(output);
      if (served) (clearTimeout(timer), resolve({ child, url: served[1]!, output: () => output }));
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`exited with ${code}:\n${output}`))));
    child.once("error", (error) => (clearTimeout(timer), reject(error)));
  });
}

/** SIGTERM, SIGKILL after 5 s; resolves with the exit code. */
export async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}
