// The README's shell blocks: the two development commands are the ones CI
// runs (and CONTRIBUTING.md repeats), the install block names the two packages packages/ publishes, and the
// generator block's commands run as written (the CLI in-process, in a new folder).
// The five-minute server and client are test/server/quick-start.test.ts and
// test/client/quick-client.test.ts.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { captureIo, projectRoot, tempDir } from "../helpers.js";
import { codeBlocks, snippet } from "./pages.js";

/** A block's commands: each line without its comment. */
const commands = (block: string) =>
  block
    .trim()
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim());

test("the README opens with the two development commands, which CI runs", () => {
  const [first] = codeBlocks("README.md");
  expect(first?.name).toBe("development");
  expect(first?.line).toBe(3);
  const development = commands(snippet("README.md", "development"));
  expect(development).toEqual(["npm ci && npm run generate", "npm test"]);
  const ci = readFileSync(join(projectRoot, ".ci", "run"), "utf8").split("\n");
  for (const command of development) expect(ci).toContain(command);
  expect(commands(snippet("CONTRIBUTING.md", "development"))).toEqual(development);
});

test("the install block installs the two published packages", () => {
  const names = ["runtime", "generator"].map(
    (dir) => JSON.parse(readFileSync(join(projectRoot, "packages", dir, "package.json"), "utf8")).name,
  );
  expect(commands(snippet("README.md", "install"))).toEqual([`npm install ${names[0]}`, `npm install -D ${names[1]}`]);
});

test("the generator block's commands run as written", async () => {
  const cwd = tempDir();
  const ran: string[] = [];
  for (const line of commands(snippet("README.md", "generator"))) {
    expect(line).toMatch(/^npx mcpgen-generator /);
    const args = line.slice("npx mcpgen-generator ".length).split(" ");
    const io = captureIo({ cwd });
    expect(await main(args, io), `${line}\n${io.err}`).toBe(0);
    ran.push(args[0]!);
    if (args[0] === "init") expect(existsSync(join(cwd, args[1]!, "src", "server.ts"))).toBe(true);
    if (args[0] === "diff") expect(io.out).toMatch(new RegExp(`^${args[1]} → ${args[2]}: \\d+ differences`));
  }
  expect(ran).toEqual(["init", "diff"]);
});
