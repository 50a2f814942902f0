// What every scaffold of `mcpgen init` is made of: its options, its files, and
// the commands its README and the CLI's next steps both show (one source, so
// they cannot disagree with the project's scripts).

/** Where the project runs: Node (stdio or node:http), or a runtime that serves a fetch handler. */
export type Runtime = "node" | "bun" | "deno" | "workers";

export const RUNTIMES: readonly Runtime[] = ["node", "bun", "deno", "workers"];

/** How a Node project is reached; the other runtimes always serve HTTP. */
export type Transport = "stdio" | "http";

export interface InitOptions {
  /** The npm package name (see packageName), also the server's name in serverInfo. */
  name: string;
  runtime: Runtime;
  /** Node only: stdio or Streamable HTTP. */
  transport: Transport;
  /** The runtime package's version: the generator's own, as the two are released together. */
  mcpgenVersion: string;
}

export interface ProjectFile {
  /** "/"-separated, relative to the project folder. */
  path: string;
  content: string;
}

/** A command the user types, and what it does. */
export interface Command {
  run: string;
  what: string;
}

export interface ProjectCommands {
  /** Installs the dependencies. */
  install: string;
  /** What has to run between installing and starting (a build), if anything. */
  beforeStart?: string;
  start: Command;
  test: Command;
  /** Further commands the README lists after those two (deploying). */
  more: readonly Command[];
}

export interface Scaffold {
  commands(transport: Transport): ProjectCommands;
  /** Every file of a new project, sorted by path. */
  files(options: InitOptions): ProjectFile[];
}

/** The README's first block: install and start on one line, then test, then the rest, each with what it does. */
export function commandBlock(commands: ProjectCommands): string {
  const first = [commands.install, ...(commands.beforeStart ? [commands.beforeStart] : []), commands.start.run];
  const lines: Command[] = [{ run: first.join(" && "), what: commands.start.what }, commands.test, ...commands.more];
  const width = Math.max(...lines.map((line) => line.run.length));
  return "```sh\n" + lines.map((line) => `${line.run.padEnd(width)}   # ${line.what}`).join("\n") + "\n```\n";
}

/** The MCP client checks every scaffold's test runs, as [name, body]; `client` and `assert` are in scope. */
export const CLIENT_CHECKS: readonly (readonly [string, string])[] = [
  [
    "lists the add_note tool",
    `const tools = await client.listTools();
assert.deepEqual(
  tools.map((tool) => tool.name),
  ["add_note"],
);`,
  ],
  [
    "add_note saves a note that notes://all then lists",
    `const result = await client.callTool("add_note", {
  title: "groceries",
  text: "milk, eggs",
});
assert.notEqual(result.isError, true);
assert.deepEqual(result.content, [
  { type: "text", text: 'Saved "groceries" (1 note in all)' },
]);

const read = await client.readResource("notes://all");
const [contents] = read.contents;
assert.ok(contents && "text" in contents, "notes://all has a text");
assert.deepEqual(JSON.parse(contents.text), [
  { title: "groceries", text: "milk, eggs" },
]);`,
  ],
  [
    "add_note without a text is a tool error",
    `const result = await client.callTool("add_note", { title: "empty" });
assert.equal(result.isError, true);`,
  ],
  [
    "summarize_notes asks for a summary of the notes",
    `await client.callTool("add_note", { title: "ideas", text: "a garden" });
const prompt = await client.getPrompt("summarize_notes", {
  style: "one sentence",
});
const [message] = prompt.messages;
assert.equal(message?.role, "user");
assert.ok(message.content.type === "text", "the message is text");
assert.match(message.content.text, /^Summarize these notes as one sentence:/);
assert.match(message.content.text, /## ideas\\na garden/);`,
  ],
];

/** The checks as calls of `call` (test, or Deno's t.step), indented by `indent`. */
export function clientChecks(call: string, indent = ""): string {
  const pad = (text: string, by: string) =>
    text
      .split("\n")
      .map((line) => (line ? by + line : line))
      .join("\n");
  return CLIENT_CHECKS.map(([name, body]) =>
    pad(`${call}(${JSON.stringify(name)}, async () => {\n${pad(body, "  ")}\n});`, indent),
  ).join("\n\n");
}

/** A URL for a page of mcpgen's documentation, from a project that has no copy of it. */
export const docsUrl = (page: string): string => `https://github.com/mcpgen/mcpgen/blob/main/docs/${page}`;
