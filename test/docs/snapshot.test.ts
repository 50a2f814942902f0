// docs/snapshot.md, run as written: its server.js, inside the package (so
// that "mcpgen/..." resolves to this build), is built into a blob by the
// block's first command (the CLI in-process), and the second command starts
// it for mcpgen's client in both eras. Slow for a docs test: building the blob
// takes a few seconds.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, expect, test } from "vitest";
import { Client, StdioClientTransport } from "mcpgen/client";
import { main } from "../../generator/cli/main.js";
import { captureIo, tempDir } from "../helpers.js";
import { snippet, workFolder } from "./pages.js";

const PAGE = "docs/snapshot.md";
let dir: string;
let start: string[];

beforeAll(async () => {
  dir = workFolder("snapshot");
  const script = snippet(PAGE, "server");
  expect(script).toMatch(/^\/\/ server\.js: /);
  writeFileSync(join(dir, "server.js"), script);
  const [build, run] = snippet(PAGE, "commands")
    .trim()
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").split(" "));
  expect(build!.slice(0, 2)).toEqual(["npx", "mcpgen"]);
  const io = captureIo({ cwd: dir, env: { TMPDIR: tempDir() } });
  expect(await main(build!.slice(2), io), io.err).toBe(0);
  expect(existsSync(join(dir, "server.blob"))).toBe(true);
  expect(run!.slice(0, 2)).toEqual(["node", "--snapshot-blob"]);
  start = run!.slice(1);
}, 120_000);

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

for (const revision of [undefined, "2025-11-25"]) {
  test(`the blob serves ${revision ?? "2026-07-28 (detected)"}`, async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: start, cwd: dir });
    const client = await Client.connect(transport, revision ? { revision } : {});
    open.push(client);
    expect(client.serverInfo?.name).toBe("notes");
    expect(client.revision.name).toBe(revision ?? "2026-07-28");
    const result = await client.callTool("echo", { text: "from the snapshot" });
    expect(result.content).toEqual([{ type: "text", text: "from the snapshot" }]);
  });
}
