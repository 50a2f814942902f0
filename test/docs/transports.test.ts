// docs/transports.md, run as written: the Streamable HTTP block, compiled in a
// strict nodenext project and started on a free loopback port (PORT=0), serves
// mcpgen's client per request (2026-07-28), in a 2025-11-25 session, and over
// the 2024-11-05 HTTP+SSE transport beside it.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Client, LegacySseClientTransport, StreamableHttpClientTransport } from "mcpgen/client";
import { compile, snippet, workFolder } from "./pages.js";

let child: ChildProcess;
let url: string;

beforeAll(async () => {
  const dir = workFolder("transports");
  expect(compile(dir, { "http.ts": snippet("docs/transports.md", "http") })).toBe("exit 0");
  child = spawn(process.execPath, [join(dir, "http.js")], {
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const served = /^serving (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(stdout);
      if (served) resolve(served[1]!);
    });
    child.once("exit", (code) => reject(new Error(`http.js exited with ${code}: ${stderr}`)));
  });
}, 120_000);

afterAll(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
});

const cases = [
  {
    name: "per request (2026-07-28)",
    transport: () => new StreamableHttpClientTransport(url),
    options: { revision: undefined },
    era: "modern",
  },
  {
    name: "a 2025-11-25 session",
    transport: () => new StreamableHttpClientTransport(url),
    options: { revision: "2025-11-25" },
    era: "legacy",
  },
  {
    name: "2024-11-05 HTTP+SSE",
    transport: () => new LegacySseClientTransport(url.replace(/\/mcp$/, "/sse")),
    options: { revision: "2024-11-05" },
    era: "legacy",
  },
] as const;

for (const { name, transport, options, era } of cases) {
  test(`the served endpoint answers ${name}`, async () => {
    const client = await Client.connect(transport(), options);
    try {
      expect([client.era, client.revision.name]).toEqual([era, options.revision ?? "2026-07-28"]);
      const result = await client.callTool("now");
      expect(result.content).toEqual([{ type: "text", text: "1970-01-01T00:00:00.000Z" }]);
    } finally {
      await client.close();
    }
  });
}
