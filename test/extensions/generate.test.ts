// Extensions as generator inputs: the pinned tasks extension generates
// deterministically against its base revision and type-checks with it; a base
// type it imports that the base lacks stops generation at the import; an
// extension never seen before generates with no code change.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { formatDiagnostic, SchemaError } from "../../generator/diagnostics.js";
import { extensionOutput } from "../../generator/emit/extension-files.js";
import { revisionOutput } from "../../generator/emit/run.js";
import { buildExtension, buildModel, type ExtensionSource } from "../../generator/generate.js";
import type { RevisionModel } from "../../generator/model/types.js";
import { extensionOverlay } from "../../generator/overlay/extensions.js";
import { pinnedExtensionSource, pinnedSource, projectRoot, tempDir, typeCheck } from "../helpers.js";

const tasks = pinnedExtensionSource("tasks");
const base = buildModel(pinnedSource(tasks.base));

/** Writes an extension's files and its base revision's into a fresh folder laid out as generated/; returns the .ts paths. */
async function writeTree(extension: ExtensionSource, baseModel: RevisionModel): Promise<string[]> {
  const out = tempDir();
  const files = [
    ...(await revisionOutput(baseModel)),
    ...(await extensionOutput(buildExtension(extension, baseModel), baseModel)),
  ];
  for (const file of files) {
    mkdirSync(dirname(join(out, file.path)), { recursive: true });
    writeFileSync(join(out, file.path), file.content);
  }
  return files.filter((f) => f.path.startsWith("ext/")).map((f) => join(out, f.path));
}

describe("the tasks extension (io.modelcontextprotocol/tasks)", () => {
  test("generates the same bytes twice, into ext/tasks/, importing its base revision's types", async () => {
    const first = await extensionOutput(buildExtension(tasks, base), base);
    const second = await extensionOutput(buildExtension(tasks, base), base);
    expect(first.map((f) => f.path)).toEqual(
      ["types", "methods", "checks", "tables", "validators", "guards", "extension", "index"].map(
        (n) => `ext/tasks/${n}.ts`,
      ),
    );
    expect(second).toEqual(first);
    const types = first.find((f) => f.path === "ext/tasks/types.ts")!.content;
    expect(types).toContain(`from "../../${tasks.base}/types.js"`);
    // Base types are imported, never declared again.
    expect(types).not.toMatch(/^export (interface|type) (Result|JSONRPCRequest|InputRequests)\b/m);
    expect(first.find((f) => f.path === "ext/tasks/extension.ts")!.content).toContain(
      '"identifier": "io.modelcontextprotocol/tasks"',
    );
  });

  test("its method table: senders from the reviewed overlay, results paired by @category, the receiver's capability", () => {
    const model = buildExtension(tasks, base);
    expect(
      model.methods.map((m) => [m.name, m.kind, m.direction, m.type, m.result?.name ?? null, m.capability?.holder]),
    ).toEqual([
      ["notifications/tasks", "notification", "server-to-client", "TaskStatusNotification", null, "client"],
      ["tasks/cancel", "request", "client-to-server", "CancelTaskRequest", "CancelTaskResult", "server"],
      ["tasks/get", "request", "client-to-server", "GetTaskRequest", "GetTaskResult", "server"],
      ["tasks/update", "request", "client-to-server", "UpdateTaskRequest", "UpdateTaskResult", "server"],
    ]);
    expect(
      model.methods.every((m) => m.capability?.path.join(".") === "extensions.io.modelcontextprotocol/tasks"),
    ).toBe(true);
    // The params of JSONRPCRequest & { params: {...} }: the extension's, required (the intersection's narrower side).
    expect(model.methods.find((m) => m.name === "tasks/get")!.params?.required).toBe(true);
    expect(model.augments).toEqual({ "tools/call": ["CreateTaskResult"] });
    // The overlay's transport and checking facts (tasks.md#streamable-http-routing-headers, #task-update-requests).
    expect(model.nameHeaders).toEqual({ "tasks/cancel": "taskId", "tasks/get": "taskId", "tasks/update": "taskId" });
    expect(model.selfChecked).toEqual({ "tasks/update": ["inputResponses"] });
  });

  test("an overlay entry naming a request the extension lacks stops a pinned extension, naming it", () => {
    const rule = extensionOverlay["tasks"]!;
    const build = (changed: Partial<typeof rule>) => () =>
      buildExtension(tasks, base, { tasks: { ...rule, ...changed } });
    expect(build({ nameHeaders: { ...rule.nameHeaders, "tasks/list": "taskId" } })).toThrow(
      "error E_OVERLAY_UNKNOWN_METHOD: overlay names the Mcp-Name field of tasks/list, which is not a request of tasks",
    );
    expect(build({ selfChecked: { "tasks/nope": ["x"] } })).toThrow(
      "error E_OVERLAY_UNKNOWN_METHOD: overlay names params checked by the receiver of tasks/nope, which is not a request of tasks",
    );
  });

  test("its output type-checks with tsc --strict beside its base revision", async () => {
    expect(typeCheck(await writeTree(tasks, base))).toEqual([]);
  });

  test("a base type it imports that the base revision lacks stops generation at the import", () => {
    const withoutInputResponses: RevisionModel = {
      ...base,
      declarations: base.declarations.filter((d) => d.name !== "InputResponses"),
    };
    let diagnostics: string[] = [];
    try {
      buildExtension(tasks, withoutInputResponses);
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      diagnostics = error.diagnostics.map((d) => formatDiagnostic(d));
    }
    const line = tasks.text.split("\n").findIndex((l) => l.trim() === "InputResponses,") + 1;
    expect(diagnostics).toEqual([
      `${tasks.file}:${line}:3: error E_UNKNOWN_IMPORT: type InputResponses is not declared in the base revision ${tasks.base}`,
    ]);
  });
});

describe("the generated tasks extension (generated/ext/tasks)", () => {
  test("validates with JSON pointers and guards by the extension's types", async () => {
    const ext = (await import(join(projectRoot, "generated", "ext", "tasks", "index.ts"))) as Record<string, any>;
    const task = {
      taskId: "t1",
      status: "completed",
      createdAt: "2026-11-23T10:00:00Z",
      lastUpdatedAt: "2026-11-23T10:00:05Z",
      ttlMs: null,
      result: { content: [] },
      resultType: "complete",
    };
    expect(ext["validate"]("GetTaskResult", task)).toEqual({ valid: true });
    expect(ext["isGetTaskResult"](task)).toBe(true);
    // The status picks the variant: a completed task needs its result; a failed one's error is the base's Error.
    expect(ext["validate"]("GetTaskResult", { ...task, result: undefined })).toEqual({
      valid: false,
      errors: [{ path: "/result", keyword: "required", message: "is required" }],
    });
    expect(ext["validateFailedTask"]({ ...task, status: "failed", error: { code: "x", message: "m" } })).toEqual({
      valid: false,
      errors: [{ path: "/error/code", keyword: "type", message: "must be number" }],
    });
    expect(ext["validate"]("CreateTaskResult", { ...task, status: "working", resultType: "task" })).toEqual({
      valid: true,
    });
    expect(ext["validate"]("TasksExtensionCapability", { setting: 1 })).toEqual({
      valid: false,
      errors: [{ path: "/setting", keyword: "not", message: "must not be present" }],
    });
    expect(ext["extension"]).toEqual({ name: "tasks", identifier: "io.modelcontextprotocol/tasks", base: tasks.base });
  });
});

describe("an extension never seen before", () => {
  test("a name mcpgen generates for every extension stops generation at its declaration", async () => {
    const clash: ExtensionSource = {
      extension: "clash",
      identifier: "com.example/clash",
      base: base.revision,
      file: "clash/schema.ts",
      text: `export interface Thing { a: string }\nexport type extensionTables = string;`,
      sha256: "0".repeat(64),
      locked: false,
    };
    await expect(extensionOutput(buildExtension(clash, base), base)).rejects.toThrow(
      "clash/schema.ts:2:1: error E_NAME_COLLISION: the schema declares extensionTables, a name mcpgen generates for every extension",
    );
  });

  test("generates and type-checks with no code change", async () => {
    const unseen: ExtensionSource = {
      extension: "reminders",
      identifier: "com.example/reminders",
      base: base.revision,
      file: "reminders/schema.ts",
      text: [
        `import type { JSONRPCRequest, Result as BaseResult } from "./spec.types.js";`,
        `/** When to remind. */`,
        `export interface Reminder { at: string; /** @minimum 0 */ repeat?: number; note?: string }`,
        `export type SetReminderRequest = JSONRPCRequest & { method: "reminders/set"; params: { reminder: Reminder } };`,
        `export interface SetReminderResult extends BaseResult { id: string }`,
        `export type RemindersCapability = Record<string, never>;`,
      ].join("\n"),
      sha256: "0".repeat(64),
      locked: false,
    };
    const paths = await writeTree(unseen, base);
    expect(typeCheck(paths)).toEqual([]);
    const model = buildExtension(unseen, base);
    // No overlay entry says who sends reminders/set: left out, with a warning (not an error: it is not pinned).
    expect(model.methods).toEqual([]);
    expect(model.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(["warning E_METHOD_DIRECTION"]);
    const routed = buildExtension(unseen, base, {
      reminders: { cite: "a test", senders: { "reminders/set": "client" } },
    });
    expect(routed.methods.map((m) => [m.name, m.result?.name])).toEqual([["reminders/set", "SetReminderResult"]]);
    expect(model.declarations.map((d) => d.name)).toEqual([
      "Reminder",
      "RemindersCapability",
      "SetReminderRequest",
      "SetReminderResult",
    ]);
    // The interface extending a base type has the base's fields resolved in.
    const result = model.declarations.find((d) => d.name === "SetReminderResult")!;
    expect(result.kind === "interface" && result.resolved.properties.map((p) => p.name)).toContain("resultType");
  });
});

describe("the skills extension (io.modelcontextprotocol/skills), from the project's transcription of its prose", () => {
  const skills = pinnedExtensionSource("skills");
  const base2026 = buildModel(pinnedSource(skills.base));

  test("generates against 2026-07-28 and type-checks beside it", async () => {
    const model = buildExtension(skills, base2026);
    expect(model.methods.map((m) => [m.name, m.direction, m.result?.name])).toEqual([
      ["resources/directory/read", "client-to-server", "ReadResourceDirectoryResult"],
      ["skills/get", "client-to-server", "GetSkillResult"],
      ["skills/list", "client-to-server", "ListSkillsResult"],
    ]);
    expect(typeCheck(await writeTree(skills, base2026))).toEqual([]);
  });

  test("the generated validators hold a skill entry to the prose's rules", async () => {
    const ext = (await import(join(projectRoot, "generated", "ext", "skills", "index.ts"))) as Record<string, any>;
    const entry = {
      uri: "skill://pdf-processing/SKILL.md",
      frontmatter: { name: "pdf-processing", description: "Extract text from PDFs.", license: "MIT" },
      resources: [{ uri: "skill://pdf-processing/SKILL.md", digest: `sha256:${"a".repeat(64)}`, size: 120 }],
    };
    expect(ext["validate"]("Skill", entry)).toEqual({ valid: true });
    expect(ext["validate"]("Skill", { ...entry, resources: "dynamic" })).toEqual({ valid: true });
    const broken = (change: object) => ext["validate"]("Skill", { ...entry, ...change }).errors[0];
    expect(broken({ resources: [{ ...entry.resources[0], digest: "sha256:ABC" }] })).toMatchObject({
      path: "/resources/0/digest",
      keyword: "pattern",
    });
    expect(broken({ resources: [{ ...entry.resources[0], size: 1.5 }] })).toMatchObject({
      path: "/resources/0/size",
      keyword: "type",
    });
    expect(broken({ resources: "static" })).toMatchObject({ path: "/resources" });
    expect(broken({ frontmatter: { description: "no name" } })).toEqual({
      path: "/frontmatter/name",
      keyword: "required",
      message: "is required",
    });
  });
});
