// The conformance fixture as a Worker on Cloudflare's workerd, bundled from the
// built package and started by miniflare on a loopback port
// (test/runtimes/workerd.ts), in two shapes:
// - examples/conformance-durable-object.ts, whose one Durable Object owns the
//   handler: the official conformance suite (.ci/conformance --url), the
//   2026-07-28 requirements and every scenario;
// - examples/conformance-worker.ts, the handler in the Worker's isolate: the
//   2026-07-28 requirements pass but for the tasks extension's scenarios, whose
//   work outlives its request, which workerd does not allow (the baseline
//   conformance-worker-baseline.yml lists them; the CLI fails if one passes).
// Both: SDK v2 pinned to 2026-07-28, v2 in auto mode and v1 call a tool.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { projectRoot } from "../helpers.js";
import { callTool, conformance, SDK_CLIENTS } from "./clients.js";
import { startWorker, type RunningWorker, type WorkerOptions } from "./workerd.js";

const WORKERS: Record<string, { options: WorkerOptions; selections: string[] }> = {
  "conformance-durable-object": {
    options: { durableObjects: { MCP: "McpObject" } },
    selections: ["0.2.0-alpha.12:--requirements 2026-07-28", "0.2.0-alpha.12:--suite all"],
  },
  // The tasks that outlive their request time out there (test/runtimes/conformance-worker-baseline.yml).
  "conformance-worker": {
    options: {},
    selections: [
      "0.2.0-alpha.12:--requirements 2026-07-28 --timeout 10000 --expected-failures test/runtimes/conformance-worker-baseline.yml",
    ],
  },
};

describe.each(Object.keys(WORKERS))("examples/%s on workerd", (name) => {
  const { options, selections } = WORKERS[name]!;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    const entry = join(projectRoot, "dist", "examples", `${name}.js`);
    worker = await startWorker(entry, join(projectRoot, "dist", "runtimes-test", name), options);
  }, 360_000);
  afterAll(async () => await worker?.stop());

  test.each(selections)(
    "the official conformance suite passes: %s",
    async (selection) => {
      const { code, output } = await conformance(worker!.url, selection);
      expect(code, output).toBe(0);
      expect(output).toMatch(/^Total: [1-9]\d* passed/m);
      if (selection.includes("--expected-failures")) expect(output).toMatch(/Baseline check passed/);
    },
    600_000,
  );

  test.each(SDK_CLIENTS)("the official SDK %s client calls a tool", async (which) => {
    expect(await callTool(which, worker!.url, "test_simple_text")).toEqual({
      revision: which === "v1" ? undefined : "2026-07-28",
      server: "mcpgen-conformance",
      text: "This is a simple text response for testing.",
    });
  });
});
