// Interop with the official TypeScript SDK: its Client and StdioClientTransport
// launch the example server exactly as docs/server.md says (`npm run --silent
// example:stdio` from the project root) and use every feature it offers,
// answering the server's sampling and elicitation requests.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { pageText } from "../docs/pages.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
// The command as docs/server.md gives it.
const [command, ...args] = /`(npm run [^`]*example:stdio)`/.exec(pageText("docs/server.md"))![1]!.split(" ");
let client: Client;
let transport: StdioClientTransport;
const sampled: unknown[] = [];
const elicited: unknown[] = [];

beforeAll(async () => {
  if (!existsSync(`${root}/dist/examples/notes-server.js`))
    throw new Error("dist/examples/notes-server.js is missing: run npm run generate first");
  transport = new StdioClientTransport({
    command: command!,
    args,
    cwd: root,
    stderr: "pipe",
  });
  client = new Client(
    { name: "official-sdk-client", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: { form: {} } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    sampled.push(request.params);
    return { role: "assistant", content: { type: "text", text: "A one-line summary." }, model: "test-model" };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicited.push(request.params);
    return { action: "accept", content: { confirm: true } };
  });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
});

const firstText = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text?: string }[])[0]?.text;

test("the SDK client negotiates 2025-11-25 and sees the server's capabilities", () => {
  expect(client.getServerVersion()).toMatchObject({ name: "mcpgen-notes", version: "1.0.0" });
  expect(client.getServerCapabilities()).toMatchObject({
    tools: { listChanged: true },
    resources: { subscribe: true },
    prompts: {},
    completions: {},
    logging: {},
  });
  expect(client.getInstructions()).toContain("Keeps short notes");
});

test("lists and calls tools; the first tool works with only its required arguments", async () => {
  const { tools } = await client.listTools();
  // 2026-07-28 changelog minor change 3: tools/list in a deterministic order (by name).
  expect(tools.map((t) => t.name)).toEqual(["add_note", "delete_note", "search_notes", "summarize_note"]);
  const added = await client.callTool({ name: "add_note", arguments: { title: "groceries" } });
  expect(firstText(added)).toBe('Added note "groceries" (0 characters).');
  await client.callTool({ name: "add_note", arguments: { title: "plan", body: "write the tests" } });
  // The SDK client validates structuredContent against the tool's outputSchema.
  const found = await client.callTool({ name: "search_notes", arguments: { phrase: "tests" } });
  expect(found.structuredContent).toEqual({ titles: ["plan"] });
  const invalid = await client.callTool({ name: "add_note", arguments: {} });
  expect(invalid.isError).toBe(true);
});

test("reads resources, lists templates, gets prompts and completes arguments", async () => {
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(
    expect.arrayContaining(["notes://index", "note:///welcome", "note:///plan"]),
  );
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["note:///{title}"]);
  const read = await client.readResource({ uri: "note:///plan" });
  expect(read.contents).toEqual([{ uri: "note:///plan", text: "write the tests", mimeType: "text/plain" }]);
  await expect(client.readResource({ uri: "note:///nothing" })).rejects.toThrow(/Resource not found/);
  const prompt = await client.getPrompt({ name: "review_note", arguments: { title: "plan" } });
  expect(prompt.messages[0]?.content).toMatchObject({ type: "text", text: expect.stringContaining("write the tests") });
  const completed = await client.complete({
    ref: { type: "ref/prompt", name: "review_note" },
    argument: { name: "title", value: "gr" },
  });
  expect(completed.completion.values).toEqual(["groceries"]);
  const byTemplate = await client.complete({
    ref: { type: "ref/resource", uri: "note:///{title}" },
    argument: { name: "title", value: "p" },
  });
  expect(byTemplate.completion.values).toEqual(["plan"]);
});

test("answers the server's sampling and elicitation requests", async () => {
  const summary = await client.callTool({ name: "summarize_note", arguments: { title: "plan" } });
  expect(firstText(summary)).toBe("A one-line summary.");
  expect(sampled).toHaveLength(1);
  expect(JSON.stringify(sampled[0])).toContain("write the tests");
  const deleted = await client.callTool({ name: "delete_note", arguments: { title: "groceries" } });
  expect(firstText(deleted)).toBe('Deleted "groceries".');
  expect(elicited).toEqual([expect.objectContaining({ message: 'Delete the note "groceries"?' })]);
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).not.toContain("note:///groceries");
});

test("logging/setLevel and ping are served", async () => {
  await expect(client.setLoggingLevel("error")).resolves.toEqual({});
  await expect(client.ping()).resolves.toEqual({});
});
