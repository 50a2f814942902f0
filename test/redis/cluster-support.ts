// Processes of test/fixtures/servers/cluster.ts for the tests of several
// processes sharing Redis: start one, call it per request (2026-07-28), stop it.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { post } from "../server/http-support.js";

const FIXTURE = fileURLToPath(new URL("../../dist/test/fixtures/servers/cluster.js", import.meta.url));
const TASKS = "io.modelcontextprotocol/tasks";
export const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} }, extensions: { [TASKS]: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "cluster-test", version: "1" },
};
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Node {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  readonly stderr: string[];
}

/** Starts one process on a free loopback port; `extra` are more command-line options. */
export async function startNode(redisUrl: string, route: string, extra: readonly string[] = []): Promise<Node> {
  const child = spawn(process.execPath, [FIXTURE, "--port", "0", "--redis", redisUrl, "--route", route, ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 15 s: ${stderr.join("")}`)), 15_000);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const match = /ready (\S+)/.exec(chunk);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${stderr.join("")}`)));
  });
  return { url, port: Number(new URL(url).port), child, stderr };
}

export async function stopNode(node: Node): Promise<void> {
  if (node.child.exitCode !== null) return;
  const exited = new Promise((resolve) => node.child.once("exit", resolve));
  node.child.kill("SIGTERM");
  const timer = setTimeout(() => node.child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** One per-request (2026-07-28) POST with the headers the revision requires. */
export async function call(node: Node, method: string, params: Record<string, unknown>, name?: string) {
  const response = await post(
    node.url,
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } },
    {
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(name !== undefined ? { "Mcp-Name": name } : {}),
    },
  );
  return { status: response.status, body: JSON.parse(response.body) as Record<string, any> };
}
