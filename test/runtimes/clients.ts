// What the runtime tests run against a served example: the official
// conformance suite (.ci/conformance --url) and the official SDK clients.
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { projectRoot } from "../helpers.js";

/** .ci/conformance against `url` for the given selections: its exit code and output. */
export function conformance(url: string, ...selections: string[]): Promise<{ code: number | null; output: string }> {
  const run = spawn("bash", [join(projectRoot, ".ci", "conformance"), "--url", url, ...selections], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  run.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  run.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => run.once("close", (code) => resolve({ code, output })));
}

/** The official clients the tests call a tool with: SDK v1 (a 2025 session), SDK v2 pinned to 2026-07-28 and in auto mode. */
export type SdkClient = "v1" | "v2 pinned to 2026-07-28" | "v2 in auto mode";
export const SDK_CLIENTS: readonly SdkClient[] = ["v1", "v2 pinned to 2026-07-28", "v2 in auto mode"];

/**
 * Connects `which` to `url`, calls tool `name` with `args`, closes: the
 * revision the client settled on, the server's name and the first content
 * block's text.
 */
export async function callTool(
  which: SdkClient,
  url: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ revision: string | undefined; server: string | undefined; text: string | undefined }> {
  const text = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;
  if (which === "v1") {
    const client = new ClientV1({ name: "v1", version: "1.32.2" });
    try {
      await client.connect(new HttpV1(new URL(url)));
      const result = await client.callTool({ name, arguments: args });
      return { revision: undefined, server: client.getServerVersion()?.name, text: text(result) };
    } finally {
      await client.close();
    }
  }
  const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
    versionNegotiation:
      which === "v2 in auto mode"
        ? { mode: "auto", probe: { timeoutMs: 5_000 } }
        : { mode: { pin: "2026-07-28" }, probe: { timeoutMs: 5_000 } },
  } as never);
  try {
    await client.connect(new HttpV2(new URL(url)));
    const result = await client.callTool({ name, arguments: args });
    return {
      revision: client.getNegotiatedProtocolVersion(),
      server: client.getServerVersion()?.name,
      text: text(result),
    };
  } finally {
    await client.close();
  }
}
