// A revision imports the checks it shares with the revision before it
// (generator/emit/check-sharing.ts): identical revisions share every check, a
// changed type takes its own check and those of everything that calls it, and
// a revision that shares too little of the previous one's code imports none.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { sameChecks, sharedChecks } from "../../generator/emit/check-sharing.js";
import { revisionFolder, run } from "../../generator/emit/run.js";
import { buildModel } from "../../generator/generate.js";
import type { ValidationResult } from "../../runtime/validation.js";
import { projectRoot, snippetSource, tempDir, typeCheck } from "../helpers.js";

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

const ownFunctions = (text: string) => [...text.matchAll(/^export function (c[\w$]+)\(/gm)].map((m) => m[1]!);
const checksFile = (files: { path: string; content: string }[], revision: string) =>
  files.find((f) => f.path === `${revision}/checks.ts`)!.content;

describe("checks shared between revisions", () => {
  test("an identical revision imports every check from the one before it, and its validators use them", async () => {
    expect(leafChanged).not.toBe(schema);
    const output = await run([model("2025-02-02"), model("2025-01-01")]);
    const first = checksFile(output.files, "2025-01-01");
    const second = checksFile(output.files, "2025-02-02");
    expect(ownFunctions(first).length).toBeGreaterThan(20);
    expect(ownFunctions(second)).toEqual([]);
    expect(second).toContain(`from "../2025-01-01/checks.js"`);
    expect(second).not.toContain("mcpgen/runtime"); // nothing of its own to import the runtime for

    const dir = tempDir();
    for (const file of output.files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    expect(typeCheck([join(dir, "2025-02-02", "index.ts")])).toEqual([]);
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
    const [olderChecks, newerChecks] = await Promise.all(
      ["2025-01-01", "2025-02-02"].map((r) => import(/* @vite-ignore */ join(dir, r, "checks.ts"))),
    );
    expect(newerChecks.cCallToolRequest).toBe(olderChecks.cCallToolRequest);
  });

  test("a changed type's check is the revision's own, and so is every check that calls it", () => {
    const base = revisionFolder(model("2025-01-01")).checks;
    const leaf = revisionFolder(model("2025-02-02", leafChanged), base);
    const leafOwn = ownFunctions(leaf.files.find((f) => f.path.endsWith("checks.ts"))!.toString());
    expect(leafOwn).toEqual(["cCreateMessageResult"]);

    const wide = revisionFolder(model("2025-02-02", sharedChanged)).checks;
    const same = sameChecks(base, wide);
    for (const changed of ["cTextContent", "cCallToolResult", "cCallToolResult$content", "cCreateMessageResult"])
      expect(same.has(changed), changed).toBe(false);
    for (const kept of ["cTool", "cListToolsResult", "cCallToolRequest", "cRequestId"])
      expect(same.has(kept), kept).toBe(true);
  });

  test("a revision that shares less than the threshold of the previous one's check code imports none of it", () => {
    const base = revisionFolder(model("2025-01-01")).checks;
    const wide = revisionFolder(model("2025-02-02", sharedChanged)).checks;
    const same = sameChecks(base, wide);
    expect(same.size).toBeGreaterThan(0);
    const bytes = (names: Iterable<string>) =>
      [...names].reduce((n, name) => n + base.functions.get(name)!.text.length, 0);
    // The rule applies on this pair: it shares some, but less than 90% of the previous revision's bytes.
    expect(bytes(same)).toBeLessThan(0.9 * bytes(base.functions.keys()));
    expect(sharedChecks(base, wide)).toEqual(new Set());
    expect(sharedChecks(base, revisionFolder(model("2025-02-02")).checks).size).toBe(base.functions.size);
  });
});
