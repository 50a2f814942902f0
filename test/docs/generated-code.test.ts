// docs/generated-code.md and docs/converting.md, run as written: each block is
// compiled in a strict nodenext project with a last line that prints the
// values it names, and the values are the ones its comments show.
import { beforeAll, expect, test } from "vitest";
import { validate as validateTasks } from "../../generated/ext/tasks/index.js";
import { compile, runScript, snippet, workFolder } from "./pages.js";

/** Each block, and the names whose values its run prints as JSON. */
const BLOCKS = {
  types: { page: "docs/generated-code.md", names: ["callTool", "lifecycle", "revisions", "params", "older"] },
  validators: { page: "docs/generated-code.md", names: ["wrongText", "params", "result", "envelope", "verdict"] },
  extensions: { page: "docs/generated-code.md", names: ["identifier", "capability", "verdict", "working"] },
  convert: { page: "docs/converting.md", names: ["upgraded", "refused"] },
} as const;

let dir: string;
beforeAll(() => {
  dir = workFolder("generated-code");
  const files: Record<string, string> = {};
  for (const [name, { page, names }] of Object.entries(BLOCKS))
    files[`${name}.ts`] = `${snippet(page, name)}\nconsole.log(JSON.stringify({ ${names.join(", ")} }));\n`;
  expect(compile(dir, files)).toBe("exit 0");
}, 120_000);

function printed(name: keyof typeof BLOCKS): Record<string, any> {
  const run = runScript(dir, `${name}.js`);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const lines = run.stdout.trim().split("\n");
  return JSON.parse(lines.at(-1)!);
}

test("types: the method table entry, the revision's lifecycle, the revisions", () => {
  const values = printed("types");
  expect(values["callTool"]).toEqual({
    kind: "request",
    direction: "client-to-server",
    type: "CallToolRequest",
    params: "CallToolRequestParams",
    paramsRequired: true,
    result: "CallToolResult",
    resultResponse: "CallToolResultResponse",
    capability: { holder: "server", path: ["tools"] },
    inputRequest: false,
  });
  expect(values["lifecycle"]).toBe("per-request");
  expect(values["revisions"].map((r: { name: string }) => r.name)).toEqual([
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "draft",
  ]);
  for (const revision of values["revisions"]) expect(revision.schemaSha256).toMatch(/^[0-9a-f]{64}$/);
});

test("validators: the verdicts the comments show", () => {
  const values = printed("validators");
  expect(values["wrongText"]).toEqual({
    valid: false,
    errors: [{ path: "/content/0/text", message: "must be string", keyword: "type" }],
  });
  expect(values["params"]).toEqual({ valid: true });
  expect(values["result"].valid).toBe(false);
  expect(values["result"].errors[0]).toMatchObject({ path: "/tools/0/inputSchema", keyword: "required" });
  expect(values["envelope"]).toEqual({ kind: "invalid", reason: "id must not be null", path: "/id" });
  expect(values["verdict"]).toEqual({
    classification: { kind: "result", id: 7 },
    method: "tools/list",
    type: "ListToolsResult",
    result: { valid: true },
  });
});

test("extensions: the identifier, a method's capability, a verdict, and a typed result that validates", () => {
  const values = printed("extensions");
  expect(values["identifier"]).toBe("io.modelcontextprotocol/tasks");
  expect(values["capability"]).toEqual({ holder: "server", path: ["extensions", "io.modelcontextprotocol/tasks"] });
  expect(values["verdict"]).toEqual({
    valid: false,
    errors: [{ path: "/resultType", keyword: "required", message: "is required" }],
  });
  expect(validateTasks("GetTaskResult", values["working"])).toEqual({ valid: true });
});

test("convert: a result upgraded with what was defaulted, and a request that cannot go down", () => {
  const values = printed("convert");
  expect(values["upgraded"].message.result).toEqual({
    tools: [{ name: "echo", inputSchema: { type: "object" } }],
    resultType: "complete",
    ttlMs: 0,
    cacheScope: "private",
  });
  expect(values["upgraded"].changes[0]).toEqual({
    path: "/result/resultType",
    change: "defaulted",
    detail: 'Result.resultType is required in 2026-07-28: set to "complete"',
  });
  expect(values["refused"]).toBe(
    "cannot convert from 2026-07-28 to 2024-11-05 at /method: server/discover does not exist in 2025-11-25",
  );
});
