// The generated validators must run where code generation from strings is
// forbidden (a Content-Security-Policy without 'unsafe-eval'). Node's
// --disallow-code-generation-from-strings is that policy for a process.
// In the package tests: it runs the compiled package in Node processes of its own.
import { spawnSync } from "node:child_process";
import { expect, test } from "vitest";
import { projectRoot } from "../helpers.js";

function runWithoutEval(script: string) {
  return spawnSync(process.execPath, ["--disallow-code-generation-from-strings", "--input-type=module", "-e", script], {
    cwd: projectRoot,
    encoding: "utf8",
  });
}

test("every revision's validators and guards run with code generation from strings disallowed", () => {
  const run = runWithoutEval(`
    import { revisions } from "mcpgen";
    for (const { name } of revisions) {
      const r = await import("mcpgen/" + name);
      const good = r.validateMessage({ jsonrpc: "2.0", id: 1, method: "tools/list" });
      const bad = r.validate("Tool", { name: 5, inputSchema: { type: "object" } });
      console.log(name, good.result.valid, bad.valid, bad.errors[0].path, r.isTool({ name: "t", inputSchema: { type: "object" } }));
    }`);
  expect(run.stderr).toBe("");
  expect(run.stdout.trim().split("\n")).toEqual(
    ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"].map(
      (name) => `${name} ${name === "2026-07-28" || name === "draft" ? "false" : "true"} false /name true`,
    ),
  );
});

test("the policy is in force: ajv, which compiles validators with new Function, fails under it", () => {
  const run = runWithoutEval(`
    import { Ajv } from "ajv";
    try { new Ajv().compile({ type: "string" }); console.log("compiled"); } catch (e) { console.log(e.name); }`);
  expect(run.stdout.trim()).toBe("EvalError");
});
