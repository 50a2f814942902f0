// docs/generator.md, run as written: the CLI (in-process) runs each block's
// command and prints what the block shows: init's two projects, the diff
// excerpt and a JSON entry of the same diff, the code frame of a broken
// schema.ts, and validate's verdicts on a capture written here.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { captureIo, tempDir } from "../helpers.js";
import { snippet } from "./pages.js";

const PAGE = "docs/generator.md";

/** A shown command and what it printed: `$ mcpgen <args>` on the first line, the output after it. */
function shownRun(name: string): { args: string[]; output: string } {
  const [command, ...output] = snippet(PAGE, name).split("\n");
  expect(command).toMatch(/^\$ mcpgen /);
  return { args: command!.slice("$ mcpgen ".length).split(" "), output: output.join("\n") };
}

test("init: both projects of the block", async () => {
  const lines = snippet(PAGE, "init")
    .trim()
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, ""));
  expect(lines).toHaveLength(2);
  for (const line of lines) {
    expect(line).toMatch(/^npx mcpgen-generator init /);
    const args = line.slice("npx mcpgen-generator ".length).split(" ");
    const cwd = tempDir();
    const io = captureIo({ cwd });
    expect(await main(args, io), io.err).toBe(0);
    const project = join(cwd, args[1]!);
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).name).toBe("my-server");
    const main_ = readFileSync(join(project, "src", "main.ts"), "utf8");
    expect(main_).toContain(args.includes("--http") ? "serveHttp" : "serveStdio");
  }
});

test("diff: the excerpt's lines are the command's, in order", async () => {
  const io = captureIo();
  expect(await main(["diff", "2025-06-18", "2025-11-25"], io)).toBe(0);
  const printed = io.out.split("\n");
  const shown = snippet(PAGE, "diff-excerpt").split("\n");
  expect(shown[0]).toBe(printed[0]);
  let at = 0;
  for (const line of shown.filter((l) => l !== "..." && l !== "")) {
    const found = printed.indexOf(line, at);
    expect(found, `not printed (after line ${at + 1}): ${line}`).toBeGreaterThanOrEqual(at);
    at = found + 1;
  }
});

test("diff --format json: the entry shown is the diff's", async () => {
  const io = captureIo();
  expect(await main(["diff", "2025-06-18", "2025-11-25", "--format", "json"], io)).toBe(0);
  const report = JSON.parse(io.out) as { format: string; entries: { id: string }[] };
  expect(report.format).toBe("mcpgen-diff/1");
  const shown = JSON.parse(snippet(PAGE, "diff-entry")) as { id: string };
  expect(report.entries.find((entry) => entry.id === shown.id)).toEqual(shown);
});

test("generate: a broken schema.ts gets the code frame shown, and nothing is written", async () => {
  const { args, output } = shownRun("schema-error");
  const cwd = tempDir();
  writeFileSync(
    join(cwd, "schema.ts"),
    'export const LATEST_PROTOCOL_VERSION = "x";\nexport interface Broken {\n  field: string\n  other: = 1;\n}\n',
  );
  const io = captureIo({ cwd });
  expect(await main(args, io)).toBe(2);
  expect(io.err).toBe(output);
  expect(existsSync(join(cwd, "out"))).toBe(false);
});

test("validate: the verdicts shown, for a capture of a request, its answer, a cut line and a null id", async () => {
  const { args, output } = shownRun("validate-output");
  const cwd = tempDir();
  const capture = [
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}',
    '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":5}]}}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"',
    '{"jsonrpc":"2.0","id":null,"method":"ping"}',
  ];
  writeFileSync(join(cwd, args.at(-1)!), capture.join("\n") + "\n");
  const io = captureIo({ cwd });
  expect(await main(args, io)).toBe(1);
  expect(io.out).toBe(output);
  expect(io.err).toBe("4 message(s) checked against revision 2025-06-18: 1 valid, 3 invalid\n");
});
