// `mcpgen call`, in-process, against the everything fixture: over stdio (the
// command after the options, its own arguments passed through) and over
// Streamable HTTP (a URL); text for a person, --json for scripts; exit codes.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { captureIo, tempDir } from "../helpers.js";

const fixtures = (name: string) => fileURLToPath(new URL(`../../dist/test/fixtures/servers/${name}`, import.meta.url));
const stdioServer = [process.execPath, fixtures("everything.js")];

async function call(args: string[]) {
  const io = captureIo({ cwd: tempDir() });
  const code = await main(["call", ...args], io);
  return { code, out: io.out, err: io.err };
}

let http: ChildProcess;
let url: string;
beforeAll(async () => {
  http = spawn(process.execPath, [fixtures("http.js")], { stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise<string>((resolve) =>
    http.stdout!.setEncoding("utf8").once("data", (chunk: string) => resolve(chunk.trim().split("\n")[0]!)),
  );
});
afterAll(() => {
  http?.kill();
});

describe("mcpgen call", () => {
  test("a tool over stdio: its text on stdout, exit 0", async () => {
    const { code, out } = await call(["--tool", "echo", "--args", '{"text":"from a shell"}', ...stdioServer]);
    expect([code, out]).toEqual([0, "from a shell\n"]);
  });

  test("the server command's own options pass through; --json prints the result", async () => {
    const { code, out } = await call(["--list", "tools", "--json", ...stdioServer, "--page-size", "2"]);
    expect(code).toBe(0);
    const result = JSON.parse(out) as { tools: { name: string }[] };
    // One page of 2: the fixture got --page-size.
    expect(result.tools).toHaveLength(2);
  });

  test("a resource and a prompt over Streamable HTTP, pinned to a handshake revision", async () => {
    const read = await call(["--resource", "test://static/a", "--rev", "2025-06-18", url]);
    expect([read.code, read.out]).toEqual([0, "A\n"]);
    const prompt = await call(["--prompt", "greet", "--args", '{"name":"Ada","style":"formal"}', url]);
    expect([prompt.code, prompt.out]).toEqual([0, "user: Good day, Ada.\n"]);
  });

  test("a tool result with isError exits 1; a server error names the code; exit 1", async () => {
    const failed = await call(["--tool", "fail", ...stdioServer]);
    expect([failed.code, failed.out]).toEqual([1, "the disk is full\n"]);
    // Resource not found: -32002 on a handshake revision, -32602 from 2026-07-28 (the detected era here).
    const missing = await call(["--resource", "test://nothing", "--rev", "2025-11-25", url]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/mcpgen: resources\/read test:\/\/nothing failed \(-32002\): /);
    const missingNow = await call(["--resource", "test://nothing", url]);
    expect(missingNow.code).toBe(1);
    expect(missingNow.err).toMatch(/mcpgen: resources\/read test:\/\/nothing failed \(-32602\): /);
  });

  test("bad input exits 2 naming it; an unreachable server exits 1 naming it", async () => {
    expect(await call(["--tool", "echo", "--args", "{", ...stdioServer])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--args is not JSON/),
    });
    expect(await call(["--tool", "echo", "--rev", "1999-01-01", ...stdioServer])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown protocol revision 1999-01-01/),
    });
    expect(await call([...stdioServer])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/say what to do: one of --tool NAME/),
    });
    const unreachable = await call(["--list", "tools", "http://127.0.0.1:9/mcp"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(/cannot connect to http:\/\/127\.0\.0\.1:9\/mcp/);
  });
});
