// docs/client.md, run as written: its blocks, compiled in a strict nodenext
// project, run in a folder whose server.js (written here: an echo tool that
// asks the user's name and reports progress, and one resource) is the server
// they start; what they print is checked.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { compile, runScript, snippet, workFolder } from "./pages.js";

const PAGE = "docs/client.md";
const SERVER = `import { McpServer } from "mcpgen/server";
import { serveStdio } from "mcpgen/stdio";

const server = new McpServer({ name: "docs-client", version: "1.0.0" });
server.tool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  async ({ text }, context) => {
    const answer = await context.elicit({
      mode: "form",
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    context.progress(1, 1);
    return text + ", " + answer.content?.name;
  },
);
server.resource("file:///a.md", { name: "a", mimeType: "text/markdown" }, () => "# A");
serveStdio(server);
`;

let dir: string;
beforeAll(() => {
  dir = workFolder("client");
  writeFileSync(join(dir, "server.js"), SERVER);
  expect(compile(dir, { "connect.ts": snippet(PAGE, "connect"), "subscribe.ts": snippet(PAGE, "subscribe") })).toBe(
    "exit 0",
  );
}, 120_000);

test("the connect block lists the tools, answers the elicitation, hears progress and prints the result", () => {
  const run = runScript(dir, "connect.js");
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout).toBe(
    ["[ 'echo' ]", "1 1", "modern 2026-07-28 [ { type: 'text', text: 'hi, Ada' } ]", ""].join("\n"),
  );
});

test("the subscribe block prints what the server honors and closes", () => {
  const run = runScript(dir, "subscribe.js");
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout).toBe("{ toolsListChanged: true, resourceSubscriptions: [ 'file:///a.md' ] }\n");
});

test("the blocks start the server.js of the folder they run in", () => {
  writeFileSync(join(dir, "server.js"), "process.exit(3);\n");
  try {
    expect(runScript(dir, "connect.js").status).not.toBe(0);
  } finally {
    writeFileSync(join(dir, "server.js"), SERVER);
  }
});
