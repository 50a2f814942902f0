// An extension's generated tables merged into a revision's at run time
// (runtime/extensions.ts): its methods route and validate with its own checks,
// and the base request it augments accepts its result type too.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkMessage, type MessageTables } from "../../runtime/messages.js";
import { withExtensions, type ExtensionTables } from "../../runtime/extensions.js";
import { importGenerated, projectRoot } from "../helpers.js";

const draft = (await importGenerated<{ messageTables: MessageTables }>("draft", "tables")).messageTables;
const tasks = (
  (await import(join(projectRoot, "generated", "ext", "tasks", "tables.ts"))) as {
    extensionTables: ExtensionTables;
  }
).extensionTables;
const { extensions, loadExtensionTables } = (await import(join(projectRoot, "generated", "index.ts"))) as {
  extensions: readonly { name: string; identifier: string; base: string }[];
  loadExtensionTables: Record<string, () => Promise<ExtensionTables>>;
};

const meta = {
  "io.modelcontextprotocol/protocolVersion": "DRAFT-2026-v1",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const getTask = { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: "t1", _meta: meta } };
const handle = {
  jsonrpc: "2.0",
  id: 2,
  result: {
    taskId: "t1",
    status: "working",
    createdAt: "2026-11-23T10:00:00Z",
    lastUpdatedAt: "2026-11-23T10:00:00Z",
    ttlMs: 60000,
    resultType: "task",
  },
};

describe("withExtensions", () => {
  const merged = withExtensions(draft, [tasks]);

  test("carries the extension's Mcp-Name fields, and leaves the entries of selfChecked maps to the receiver", () => {
    expect(merged.nameHeaders).toEqual({ "tasks/cancel": "taskId", "tasks/get": "taskId", "tasks/update": "taskId" });
    expect(draft.nameHeaders).toBeUndefined();
    const update = (inputResponses: unknown) => ({
      jsonrpc: "2.0",
      id: 3,
      method: "tasks/update",
      params: { taskId: "t1", inputResponses, _meta: meta },
    });
    // An answer to a key the task never asked is not the message's fault (tasks.md#task-update-requests)...
    expect(checkMessage(update({ "unknown-key": { ignored: true } }), merged).result).toEqual({ valid: true });
    // ...but the map itself must still be there, and be a map.
    expect(checkMessage(update("nope"), merged).result.valid).toBe(false);
    expect(checkMessage({ ...update({}), params: { taskId: "t1", _meta: meta } }, merged).result.valid).toBe(false);
  });

  test("the generated root index lists every extension and loads its tables", async () => {
    expect(extensions.map((e) => `${e.name} ${e.identifier} ${e.base}`)).toEqual([
      "skills io.modelcontextprotocol/skills 2026-07-28",
      "tasks io.modelcontextprotocol/tasks draft",
    ]);
    expect((await loadExtensionTables["tasks"]!()).identifier).toBe("io.modelcontextprotocol/tasks");
  });

  test("an extension's method routes and validates only in the merged tables", () => {
    expect(checkMessage(getTask, draft).result).toMatchObject({ valid: false });
    const verdict = checkMessage(getTask, merged);
    expect([verdict.type, verdict.result]).toEqual(["tasks:GetTaskRequest", { valid: true }]);
    const wrong = checkMessage({ ...getTask, params: { ...getTask.params, taskId: 7 } }, merged);
    expect(wrong.result).toEqual({
      valid: false,
      errors: [{ path: "/params/taskId", keyword: "type", message: "must be string" }],
    });
    expect(merged.methods["tasks/get"]).toMatchObject({
      type: "tasks:GetTaskRequest",
      result: "tasks:GetTaskResult",
      capability: { holder: "server", path: ["extensions", "io.modelcontextprotocol/tasks"] },
    });
  });

  test("the request it augments accepts its result type, and still its own", async () => {
    expect(checkMessage(handle, merged, "tools/call").result).toEqual({ valid: true });
    const complete = { jsonrpc: "2.0", id: 3, result: { content: [], resultType: "complete" } };
    expect(checkMessage(complete, merged, "tools/call").result).toEqual({ valid: true });
    // draft's tools/call result admits InputRequiredResult, which takes almost anything; 2025-06-18's
    // requires content, so there the augment is what lets a task handle through.
    const older = (await importGenerated<{ messageTables: MessageTables }>("2025-06-18", "tables")).messageTables;
    expect(checkMessage(handle, older, "tools/call").result).toMatchObject({
      valid: false,
      errors: [{ path: "/result/content", keyword: "required" }],
    });
    expect(checkMessage(handle, withExtensions(older, [tasks]), "tools/call").result).toEqual({ valid: true });
    expect(
      checkMessage(
        { ...handle, result: { ...handle.result, resultType: "other" } },
        withExtensions(older, [tasks]),
        "tools/call",
      ).result,
    ).toMatchObject({
      valid: false,
      errors: [{ path: "/result/content", keyword: "required" }],
    });
  });

  test("the revision's own tables are untouched, and a method declared twice is refused", () => {
    expect("tasks/get" in draft.methods).toBe(false);
    expect(() => withExtensions(draft, [tasks, tasks])).toThrow(
      "extension io.modelcontextprotocol/tasks declares notifications/tasks, which draft already has",
    );
  });
});
