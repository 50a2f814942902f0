// What the client tests share: the compiled server fixtures, started as child
// processes and stopped, and a tool result's text.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";

/** A compiled fixture server: dist/test/fixtures/servers/<name>. */
export const fixture = (name: string) =>
  fileURLToPath(new URL(`../../dist/test/fixtures/servers/${name}`, import.meta.url));

/** A child process that prints its URL first; stop it with stopChild. */
export async function startUrlServer(
  script: string,
  args: string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").once("data", (chunk: string) => resolve(chunk.trim().split("\n")[0]!));
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { url, child };
}

/** mcpgen's Streamable HTTP fixture server, started before the enclosing suite's tests and stopped after. */
export function httpFixtureServer(): { readonly url: string } {
  let server: { url: string; child: ChildProcess } | undefined;
  beforeAll(async () => {
    server = await startUrlServer(fixture("http.js"));
  });
  afterAll(async () => {
    if (server) await stopChild(server.child);
  });
  return {
    get url() {
      return server!.url;
    },
  };
}

/** SIGTERM, resolved once the process has exited. */
export const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

/** A tool result's content as text (non-text blocks as [type]). */
export const text = (result: { content: readonly { type: string }[] }) =>
  result.content.map((block) => ("text" in block ? String(block.text) : `[${block.type}]`)).join("");
