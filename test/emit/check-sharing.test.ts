// Check functions shared between revisions (generator/emit/check-sharing.ts):
// a function whose text consecutive revisions have alike is printed once, in
// checks/, and each revision's checks.ts makes and links its own set of those
// it has. Identical revisions print nothing of their own; a changed type gives
// its check, nothing else (the checks that call it stay shared, and so do the
// types that extend it); a revision's checks.ts loads no function the revision
// does not have (the newest: at most the earlier versions of what it changed);
// and re-pinning the newest revision to a schema with a few more constraints
// rewrites its checks.ts alone, by the functions whose text those constraints change.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { describe, expect, test } from "vitest";
import { run } from "../../generator/emit/run.js";
import { buildModel } from "../../generator/generate.js";
import type { ValidationResult } from "../../runtime/validation.js";
import { pinnedSource, projectRoot, snippetSource, tempDir, typeCheck } from "../helpers.js";

const schema = readFileSync(join(projectRoot, "test", "cases", "minimal-revision", "schema.ts"), "utf8");
const model = (revision: string, text = schema) => buildModel(snippetSource(text, { revision }));
/** CreateMessageResult gains a member: a type no other type refers to. */
const leafChanged = schema.replace(
  "  model: string;\n  content: TextContent;",
  "  model: string;\n  stopReason?: string;\n  content: TextContent;",
);
/** TextContent gains a member: results and sampling refer to it. */
const sharedChanged = schema.replace(
  '  type: "text";\n  text: string;',
  '  type: "text";\n  text: string;\n  mimeType?: string;',
);

type Files = Map<string, string>;
const checkFilesOf = (files: { path: string; content: string }[]): Files =>
  new Map(files.filter((f) => /(^checks\/|\/checks\.ts$)/.test(f.path)).map((f) => [f.path, f.content]));
const generateChecks = async (...models: ReturnType<typeof model>[]) => checkFilesOf((await run(models)).files);

/**
 * The check functions a module defines itself, with their doc comments: name →
 * text, as a revision's checks.ts prints it (a shared module's are methods,
 * indented, and their text is the same but for `export function `).
 */
function definedIn(text: string): Map<string, string> {
  const functions = new Map<string, string>();
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const head = /^( *)(?:export function )?([\w$]+)\(v: [^)]*\): boolean \{$/.exec(line);
    if (!head) return;
    const indent = head[1]!;
    const end = lines.findIndex((l, j) => j > i && (l === `${indent}}` || l === `${indent}},`));
    const start = lines[i - 1]?.startsWith(`${indent}/**`) ? i - 1 : i;
    const own = lines.slice(start, end + 1).map((l) => l.slice(indent.length));
    own[own.length - 1] = "}";
    if (!own[i - start]!.startsWith("export function ")) own[i - start] = `export function ${own[i - start]}`;
    functions.set(head[2]!, own.join("\n"));
  });
  return functions;
}

/**
 * What importing `<revision>/checks.ts` loads: the functions it exports (its
 * own, else the one of the module it re-exports) and the other functions the
 * modules it loads define (`unused`, by module).
 */
function loadedBy(files: Files, revision: string): { functions: Map<string, string>; unused: string[] } {
  const own = `${revision}/checks.ts`;
  const modules: string[] = [];
  const visit = (path: string) => {
    if (modules.includes(path)) return;
    const text = files.get(path);
    if (text === undefined) throw new Error(`${path} is imported but not generated`);
    modules.push(path);
    for (const m of text.matchAll(/ from "(\.\.?\/[^"]+)\.js";/g)) visit(posix.join(posix.dirname(path), `${m[1]}.ts`));
  };
  visit(own);
  const functions = definedIn(files.get(own)!);
  const unused: string[] = [];
  for (const path of modules.slice(1)) {
    for (const [name, fn] of definedIn(files.get(path)!)) {
      if (functions.has(name)) unused.push(`${path}: ${name}`);
      else functions.set(name, fn);
    }
  }
  return { functions, unused };
}

/** The lines a line diff of two texts adds and removes (n + m - 2 * their longest common subsequence). */
function changedLines(before: string, after: string): number {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const next = new Int32Array(b.length + 1);
    for (let j = 1; j <= b.length; j++)
      next[j] = a[i - 1] === b[j - 1] ? row[j - 1]! + 1 : Math.max(row[j]!, next[j - 1]!);
    row = next;
  }
  return a.length + b.length - 2 * row[b.length]!;
}

describe("checks shared between revisions", () => {
  test("identical revisions print no check of their own: both make their set of the module they share, and validate alike", async () => {
    const output = await run([model("2025-02-02"), model("2025-01-01")]);
    const files = checkFilesOf(output.files);
    expect([...files.keys()].sort()).toEqual([
      "2025-01-01/checks.ts",
      "2025-02-02/checks.ts",
      "checks/2025-01-01--2025-02-02.ts",
    ]);
    expect(definedIn(files.get("checks/2025-01-01--2025-02-02.ts")!).size).toBeGreaterThan(20);
    for (const revision of ["2025-01-01", "2025-02-02"]) {
      const own = files.get(`${revision}/checks.ts`)!;
      expect(definedIn(own).size).toBe(0);
      expect(own).toContain(`from "../checks/2025-01-01--2025-02-02.js";`);
      expect(own).not.toContain("mcpgen/runtime"); // nothing of its own to import the runtime for
    }

    const dir = tempDir();
    for (const file of output.files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    expect(typeCheck([join(dir, "2025-01-01", "index.ts"), join(dir, "2025-02-02", "index.ts")])).toEqual([]);
    type Module = { validate(type: string, value: unknown): ValidationResult };
    const older = (await import(/* @vite-ignore */ join(dir, "2025-01-01", "tables.ts"))) as Module;
    const newer = (await import(/* @vite-ignore */ join(dir, "2025-02-02", "tables.ts"))) as Module;
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } };
    expect(newer.validate("CallToolRequest", call)).toEqual({ valid: true });
    expect(newer.validate("CallToolRequest", { ...call, params: {} })).toEqual(
      older.validate("CallToolRequest", { ...call, params: {} }),
    );
    expect(newer.validate("CallToolRequest", { ...call, params: {} })).toMatchObject({
      valid: false,
      errors: [{ path: "/params/name", keyword: "required" }],
    });
  });

  test("a changed type's check is each revision's own; the checks that call it stay shared, and each revision's call its own version", async () => {
    // 2025-02-02 and 2025-03-03 have the changed type alike; the newest, 2025-03-03, is not the one that changed it.
    const leaf = await generateChecks(
      model("2025-01-01"),
      model("2025-02-02", leafChanged),
      model("2025-03-03", leafChanged),
    );
    expect([...definedIn(leaf.get("2025-01-01/checks.ts")!).keys()]).toEqual(["cCreateMessageResult"]);
    expect(leaf.get("2025-01-01/checks.ts")).not.toContain('"stopReason"');
    expect([...definedIn(leaf.get("checks/2025-02-02--2025-03-03.ts")!).keys()]).toEqual(["cCreateMessageResult"]);
    expect(leaf.get("checks/2025-02-02--2025-03-03.ts")).toContain('"stopReason"');
    for (const revision of ["2025-02-02", "2025-03-03"])
      expect(definedIn(leaf.get(`${revision}/checks.ts`)!).size).toBe(0);

    const models = () => [model("2025-01-01", sharedChanged), model("2025-02-02"), model("2025-03-03")];
    const wide = await generateChecks(...models());
    expect([...definedIn(wide.get("2025-01-01/checks.ts")!).keys()]).toEqual(["cTextContent"]);
    const shared = definedIn(wide.get("checks/2025-01-01--2025-03-03.ts")!);
    for (const kept of [
      "cCallToolResult",
      "cCallToolResult$content",
      "cCreateMessageResult",
      "cTool",
      "cCallToolRequest",
    ])
      expect(shared.has(kept), kept).toBe(true);
    expect(shared.get("cCallToolResult$content")).toContain("cTextContent(x, f)");

    // The shared caller checks each revision's TextContent: mimeType is a string in 2025-01-01 only.
    const dir = tempDir();
    for (const file of (await run(models())).files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    expect(typeCheck(["2025-01-01", "2025-02-02"].map((revision) => join(dir, revision, "index.ts")))).toEqual([]);
    type Module = { validate(type: string, value: unknown): ValidationResult };
    const load = (revision: string) => import(/* @vite-ignore */ join(dir, revision, "tables.ts")) as Promise<Module>;
    const [changed, unchanged] = [await load("2025-01-01"), await load("2025-02-02")];
    const result = { content: [{ type: "text", text: "hi", mimeType: 5 }] };
    expect(changed.validate("CallToolResult", result)).toMatchObject({
      valid: false,
      errors: [{ path: "/content/0/mimeType", keyword: "type" }],
    });
    expect(unchanged.validate("CallToolResult", result)).toEqual({ valid: true });
  });

  test("a revision's checks load every check function it has, and none that only other revisions have; the newest, at most the earlier versions of those it changed", async () => {
    const revisions = ["2025-01-01", "2025-02-02", "2025-03-03", "2025-04-04", "2025-05-05"];
    const texts = [schema, leafChanged, sharedChanged, schema, leafChanged];
    const separately = await Promise.all(
      revisions.map(async (revision, i) =>
        definedIn((await generateChecks(model(revision, texts[i]))).get(`${revision}/checks.ts`)!),
      ),
    );
    const together = await generateChecks(...revisions.map((revision, i) => model(revision, texts[i])));
    revisions.forEach((revision, i) => {
      const { functions, unused } = loadedBy(together, revision);
      // The same functions, word for word, as the revision generated alone.
      expect(functions, revision).toEqual(separately[i]);
      if (i < revisions.length - 1) expect(unused, revision).toEqual([]);
    });
    // The newest loads the versions of the revision before it of what it changed (the one type and its callers).
    const { unused } = loadedBy(together, "2025-05-05");
    expect(unused).toEqual(["checks/2025-03-03--2025-05-05.ts: cCreateMessageResult"]);
    // Its own version is the one it exports and validates with, and tsc accepts it beside the re-exported one.
    const dir = tempDir();
    for (const file of (await run(revisions.map((revision, i) => model(revision, texts[i])))).files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    expect(typeCheck(revisions.map((revision) => join(dir, revision, "index.ts")))).toEqual([]);
    type Module = { validate(type: string, value: unknown): ValidationResult };
    const load = (revision: string) => import(/* @vite-ignore */ join(dir, revision, "tables.ts")) as Promise<Module>;
    const [before, newest] = [await load("2025-04-04"), await load("2025-05-05")];
    const result = { model: "m", content: { type: "text", text: "hi" }, stopReason: 5 };
    expect(before.validate("CreateMessageResult", result)).toEqual({ valid: true });
    expect(newest.validate("CreateMessageResult", result)).toMatchObject({
      valid: false,
      errors: [{ path: "/stopReason", keyword: "type" }],
    });
    // Printed once per run of revisions that have it alike: fewer functions in all than the revisions have.
    const printed = [...together.values()].reduce((n, text) => n + definedIn(text).size, 0);
    const perRevision = separately.reduce((n, functions) => n + functions.size, 0);
    expect(printed).toBeLessThan(perRevision / 2);
  });

  test("the same revisions in any order give the same files", async () => {
    const models = () => [model("2025-03-03", sharedChanged), model("2025-01-01"), model("2025-02-02", leafChanged)];
    const forward = await generateChecks(...models());
    const backward = await generateChecks(...models().reverse());
    expect(backward).toEqual(forward);
  });
});

/** A JSDoc annotation added to a field of an interface of the schema. */
type Constraint = readonly [iface: string, field: string, annotation: string];

function constrain(text: string, [iface, field, annotation]: Constraint): string {
  const start = text.indexOf(`export interface ${iface} `);
  const body = text.slice(start, text.indexOf("\n}\n", start));
  const at = body.search(new RegExp(`\\n  ${field.replace(/\$/g, "\\$")}\\??: `));
  if (start < 0 || at < 0) throw new Error(`the schema has no ${iface}.${field}`);
  const before = text.slice(0, start + at + 1);
  const documented = before.endsWith("   */\n")
    ? `${before.slice(0, -"   */\n".length)}   * ${annotation}\n   */\n`
    : `${before}  /** ${annotation} */\n`;
  return documented + text.slice(start + at + 1);
}

/** Size limits of the kind upstream adds to metadata, descriptions and lists. */
const constraints: Constraint[] = [
  ["BaseMetadata", "name", "@maxLength 128"],
  ["BaseMetadata", "title", "@maxLength 256"],
  ["Implementation", "version", "@maxLength 64"],
  ["Implementation", "description", "@maxLength 4096"],
  ["Tool", "description", "@maxLength 8192"],
  ["Icon", "src", "@maxLength 8192"],
  ["Icon", "mimeType", "@maxLength 255"],
  ["Icon", "sizes", "@maxItems 32"],
  ["Resource", "uri", "@maxLength 8192"],
  ["Resource", "description", "@maxLength 8192"],
  ["Resource", "mimeType", "@maxLength 255"],
  ["ResourceTemplate", "uriTemplate", "@maxLength 8192"],
  ["ResourceTemplate", "description", "@maxLength 8192"],
  ["ResourceTemplate", "mimeType", "@maxLength 255"],
  ["Prompt", "description", "@maxLength 8192"],
  ["Prompt", "arguments", "@maxItems 256"],
  ["PromptArgument", "description", "@maxLength 4096"],
  ["GetPromptRequestParams", "name", "@maxLength 128"],
  ["CallToolRequestParams", "name", "@pattern ^[A-Za-z0-9_.-]{1,128}$"],
  ["ListToolsResult", "tools", "@maxItems 10000"],
  ["ToolAnnotations", "title", "@maxLength 256"],
  ["LoggingMessageNotificationParams", "logger", "@maxLength 256"],
  ["Root", "uri", "@maxLength 8192"],
  ["ModelHint", "name", "@maxLength 256"],
];

describe("re-pinning the newest revision to a nearby schema state", () => {
  test.each([1, 6, constraints.length])(
    "draft with %i more constraints: only draft's checks.ts changes, by the functions whose text the constraints change (not their callers, not the types that extend them)",
    async (n) => {
      const stable = buildModel(pinnedSource("2026-07-28"));
      const draft = pinnedSource("draft");
      const text = constraints.slice(0, n).reduce(constrain, draft.text);
      const before = await generateChecks(stable, buildModel(draft));
      const after = await generateChecks(stable, buildModel(snippetSource(text, { revision: "draft" })));

      // What the constraints change: the functions whose text differs in draft.
      const [old, now] = [loadedBy(before, "draft").functions, loadedBy(after, "draft").functions];
      const changed = new Set([...now].filter(([name, fn]) => old.get(name) !== fn).map(([name]) => name));
      expect(changed.size).toBeGreaterThan(0);
      // Each function, a blank line after it.
      const changedLines_ = [...changed].reduce((lines, name) => lines + now.get(name)!.split("\n").length + 1, 0);

      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [path, content] of after) if (path !== "draft/checks.ts") expect(content, path).toBe(before.get(path));
      // draft's own functions are those it changed, and nothing else.
      expect([...definedIn(after.get("draft/checks.ts")!).keys()].sort()).toEqual([...changed].sort());
      const diff = changedLines(before.get("draft/checks.ts")!, after.get("draft/checks.ts")!);
      // The changed functions; a line of names per shared module they leave, the line of all, the header's hash.
      expect(diff).toBeGreaterThanOrEqual(changedLines_);
      expect(diff).toBeLessThanOrEqual(changedLines_ + 20);
      if (n === 1) {
        // A member of a base interface: its check and the function for its members, not every type that extends it.
        expect([...changed].sort()).toEqual(["cBaseMetadata", "membersOfBaseMetadata"]);
      }
    },
    60_000,
  );

  test("a constraint on a base interface's member is checked in every extending type, at the same path as before", async () => {
    const draft = pinnedSource("draft");
    const text = constrain(draft.text, ["BaseMetadata", "name", "@maxLength 8"]);
    const dir = tempDir();
    const models = [buildModel(pinnedSource("2026-07-28")), buildModel(snippetSource(text, { revision: "draft" }))];
    for (const file of (await run(models)).files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    type Module = { validate(type: string, value: unknown): ValidationResult };
    const load = (revision: string) => import(/* @vite-ignore */ join(dir, revision, "tables.ts")) as Promise<Module>;
    const [stable, constrained] = [await load("2026-07-28"), await load("draft")];
    const tool = { name: "a-long-tool-name", inputSchema: { type: "object" } };
    expect(stable.validate("Tool", tool)).toEqual({ valid: true });
    expect(constrained.validate("Tool", tool)).toMatchObject({
      valid: false,
      errors: [{ path: "/name", keyword: "maxLength" }],
    });
    expect(constrained.validate("ListToolsResult", { tools: [tool], resultType: "complete" })).toMatchObject({
      valid: false,
      errors: [{ path: "/tools/0/name", keyword: "maxLength" }],
    });
    // The first problem in member order, as when the inherited members were checked inline.
    expect(constrained.validate("Tool", { name: "a-long-tool-name", inputSchema: 5 })).toMatchObject({
      valid: false,
      errors: [{ path: "/inputSchema" }],
    });
    expect(constrained.validate("Tool", { ...tool, name: "short" })).toEqual({ valid: true });
  }, 60_000);
});
