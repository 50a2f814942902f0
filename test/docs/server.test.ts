// docs/server.md, run as written: each named server block is type-checked and
// compiled in a strict nodenext project, started over stdio, and used by
// mcpgen's client in both eras (2026-07-28 per-request, 2025-11-25 handshake).
import { join } from "node:path";
import { afterEach, beforeAll, expect, test } from "vitest";
import { Client, McpError, StdioClientTransport, type ClientOptions } from "mcpgen/client";
import type { ElicitResult } from "../../generated/2026-07-28/index.js";
import { compile, snippet, workFolder } from "./pages.js";

const PAGE = "docs/server.md";
const ERAS = [
  { era: "modern", options: {} },
  { era: "legacy", options: { revision: "2025-11-25" } },
] as const;

let dir: string;
beforeAll(() => {
  dir = workFolder("server");
  const files = Object.fromEntries(
    ["templates", "errors", "input", "tasks"].map((name) => [`${name}.ts`, snippet(PAGE, name)]),
  );
  expect(compile(dir, files)).toBe("exit 0");
}, 120_000);

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

async function start(name: string, options: ClientOptions): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(dir, `${name}.js`)] });
  const client = await Client.connect(transport, { clientInfo: { name: "docs", version: "1.0.0" }, ...options });
  open.push(client);
  return client;
}

const text = (result: { content: readonly { type: string; text?: string }[] }) =>
  result.content.map((block) => block.text).join("");

async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  return (error as McpError).code;
}

for (const { era, options } of ERAS) {
  test(`templates: reads, completion, resource updates and list changes (${era})`, async () => {
    const client = await start("templates", options);
    expect(client.era).toBe(era);
    const read = await client.readResource("note:///groceries");
    expect(read.contents).toEqual([{ uri: "note:///groceries", mimeType: "text/plain", text: "eggs, milk" }]);
    const completion = await client.request("completion/complete", {
      ref: { type: "ref/resource", uri: "note:///{title}" },
      argument: { name: "title", value: "g" },
    });
    expect(completion.completion.values).toEqual(["groceries", "garden"]);
    expect(await codeOf(client.readResource("note:///missing"))).toBe(era === "modern" ? -32602 : -32002);

    const heard: string[] = [];
    const subscription = await client.subscribe(
      { resourceSubscriptions: ["note:///garden"], toolsListChanged: true },
      (notice) => heard.push(notice.method),
    );
    expect(text(await client.callTool("add_note", { title: "garden", text: "plant tulips" }))).toBe("saved garden");
    await expect.poll(() => heard).toEqual(["notifications/resources/updated"]);
    expect((await client.readResource("note:///garden")).contents).toMatchObject([{ text: "plant tulips" }]);

    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["add_note", "lock"]);
    expect(text(await client.callTool("lock"))).toBe("notes are read-only now");
    await expect.poll(() => heard).toEqual(["notifications/resources/updated", "notifications/tools/list_changed"]);
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["lock"]);
    await subscription.close();
  });

  test(`errors: isError results, a chosen JSON-RPC error, resource not found (${era})`, async () => {
    const client = await start("errors", options);
    expect(text(await client.callTool("divide", { a: 1, b: 4 }))).toBe("0.25");
    const byZero = await client.callTool("divide", { a: 1, b: 0 });
    expect(byZero.isError).toBe(true);
    expect(text(byZero)).toContain("cannot divide by zero");
    expect((await client.callTool("divide", { a: 1 })).isError).toBe(true);
    expect(await codeOf(client.callTool("no_such_tool"))).toBe(-32602);
    const tooLong = client.getPrompt("greet", { name: "x".repeat(21) });
    expect(await codeOf(tooLong)).toBe(-32602);
    await expect(tooLong).rejects.toThrow("name: at most 20 characters");
    expect((await client.readResource("user:///1")).contents).toMatchObject([{ text: "Ada" }]);
    expect(await codeOf(client.readResource("user:///2"))).toBe(era === "modern" ? -32602 : -32002);
  });

  test(`input: the awaitable and the explicit style (${era})`, async () => {
    const asked: string[] = [];
    const client = await start("input", {
      ...options,
      handlers: {
        elicitation: async (params): Promise<ElicitResult> => {
          asked.push(params.message);
          return { action: "accept", content: params.message === "How many people?" ? { people: 4 } : {} };
        },
      },
    });
    expect(text(await client.callTool("book"))).toBe("booked for 4");
    expect(text(await client.callTool("cancel"))).toBe("cancelled");
    expect(asked).toEqual(["How many people?", "Cancel the booking?"]);
  });

  test(`tasks: one handler for clients with and without tasks (${era})`, async () => {
    const handlers = { elicitation: async () => ({ action: "accept" as const, content: {} }) };
    const withTasks = await start("tasks", { ...options, handlers, extensions: ["tasks"] });
    const task = await withTasks.callToolAsTask("export_report", { month: "2026-01" });
    expect(task.taskId).toBeDefined();
    expect(text(await task.result({ timeoutMs: 20_000 }))).toBe("Sent 2 rows");

    // A call that does not ask for a task gets the plain result.
    const plain = await start("tasks", { ...options, handlers });
    expect(text(await plain.callTool("export_report", { month: "2026-02" }))).toBe("Sent 2 rows");
  });
}
