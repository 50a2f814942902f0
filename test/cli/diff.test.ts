// `mcpgen diff`, in-process.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { captureIo, pinnedExtensionSource, pinnedSource, tempDir } from "../helpers.js";

async function diff(args: string[], options: { tty?: boolean; env?: Record<string, string>; cwd?: string } = {}) {
  const io = captureIo({ ...(options.env ? { env: options.env } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) });
  io.stdoutIsTTY = options.tty ?? false;
  const code = await main(["diff", ...args], io);
  return { code, out: io.out, err: io.err };
}

describe("mcpgen diff", () => {
  test("text: a one-line summary of counts first, then entries grouped by area, no colour when not a TTY", async () => {
    const { code, out } = await diff(["2024-11-05", "2025-03-26"]);
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines[0]).toBe(
      "2024-11-05 → 2025-03-26: 23 differences (envelope 2, methods 1, capabilities 1, constants 1, types 13, fields 5; 13 added, 1 removed, 9 changed)",
    );
    expect(lines).toContain("JSON-RPC envelope and lifecycle");
    expect(lines).toContain("  ~ JSON-RPC batching: false → true");
    expect(lines).toContain("  ~ completion/complete capability: none → server:completions");
    expect(out).not.toContain("\u001b[");
  });

  test("colour on a TTY, none with NO_COLOR", async () => {
    expect((await diff(["2024-11-05", "2025-03-26"], { tty: true })).out).toContain("\u001b[32m+\u001b[0m");
    expect((await diff(["2024-11-05", "2025-03-26"], { tty: true, env: { NO_COLOR: "1" } })).out).not.toContain(
      "\u001b[",
    );
  });

  test("markdown and json", async () => {
    const markdown = (await diff(["2025-06-18", "2025-11-25", "--format", "markdown"])).out;
    expect(markdown.split("\n")[0]).toBe("## MCP schema changes: 2025-06-18 → 2025-11-25");
    expect(markdown).toContain("- **Added** `tasks/get` (request, both)");
    const json = JSON.parse((await diff(["2025-06-18", "2025-11-25", "--format", "json"])).out);
    expect(json.format).toBe("mcpgen-diff/1");
    expect(json.from).toEqual({
      revision: "2025-06-18",
      protocolVersion: "2025-06-18",
      schemaSha256: pinnedSource("2025-06-18").sha256,
    });
    expect(json.entries).toContainEqual({
      id: "methods:tasks/get::added",
      area: "methods",
      change: "added",
      subject: "tasks/get",
      to: "request, both",
    });
    expect(json.summary.total).toBe(json.entries.length);
  });

  test("the same revision twice is an empty diff", async () => {
    expect(await diff(["2025-06-18", "2025-06-18"])).toEqual({
      code: 0,
      out: "2025-06-18 → 2025-06-18: no differences\n",
      err: "",
    });
  });

  test("--all prints the matrix of counts", async () => {
    const { out } = await diff(["--all"]);
    const lines = out.trim().split("\n");
    expect(lines).toHaveLength(8);
    expect(lines[1]!.split(/\s+/)).toEqual([
      "from",
      "\\",
      "to",
      "2024-11-05",
      "2025-03-26",
      "2025-06-18",
      "2025-11-25",
      "2026-07-28",
      "draft",
    ]);
    expect(lines[2]!.split(/\s+/).slice(0, 3)).toEqual(["2024-11-05", "0", "23"]);
    const json = JSON.parse((await diff(["--all", "--format", "json"])).out);
    // Each cell is the count the pair's own diff reports (draft's follows upstream: no fixed figure).
    const pair = JSON.parse((await diff(["2026-07-28", "draft", "--format", "json"])).out);
    expect(json.differences["2026-07-28"]["draft"]).toBe(pair.summary.total);
    expect(json.differences["2025-03-26"]["2024-11-05"]).toBe(23);
  });

  test("a revision from --schema", async () => {
    const dir = tempDir();
    const next =
      pinnedSource("2026-07-28").text.replace(
        "export type ClientRequest =\n",
        "export type ClientRequest =\n  | FrobnicateRequest\n",
      ) +
      `\nexport interface FrobnicateRequest extends JSONRPCRequest { method: "widgets/frobnicate"; params: RequestParams }\nexport interface FrobnicateResult extends Result { n: number }\n`;
    writeFileSync(join(dir, "schema.ts"), next);
    const { code, out } = await diff(["2026-07-28", "next", "--schema", "schema.ts"], { cwd: dir });
    expect(code).toBe(0);
    expect(out).toContain("  + widgets/frobnicate (request, client-to-server)");
    expect(out).toContain("  + FrobnicateRequest (interface)");
  });

  test("--ext: the pinned extension against another version of it", async () => {
    const pinned = pinnedExtensionSource("tasks");
    const next = join(tempDir(), "schema.ts");
    writeFileSync(
      next,
      pinned.text.replace("export interface Task {", "export interface Task {\n  /** Who asked. */\n  owner?: string;"),
    );
    const { code, out } = await diff(["--ext", "tasks", "--schema", next]);
    expect(code).toBe(0);
    expect(out.split("\n")[0]).toMatch(/^ext\/tasks → .*schema\.ts: 1 differences \(fields 1; 1 added\)$/);
    expect(out).toContain("  + Task.owner (optional): string");
    const same = join(tempDir(), "schema.ts");
    writeFileSync(same, pinned.text);
    expect((await diff(["--ext", "tasks", "--schema", same])).out).toMatch(/: no differences/);
    const unknown = await diff(["--ext", "nope", "--schema", same]);
    expect([unknown.code, unknown.err]).toEqual([
      2,
      'mcpgen: unknown extension "nope": spec/revisions.json pins tasks, skills\n',
    ]);
  });

  test("bad input: one clear error, exit 2", async () => {
    expect(await diff(["2025-06-18", "2099-01-01"])).toEqual({
      code: 2,
      out: "",
      err: 'mcpgen: unknown revision "2099-01-01": spec/revisions.json pins 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft (use --schema PATH for a revision it does not pin)\n',
    });
    expect((await diff(["2025-06-18"])).err).toBe("mcpgen: diff needs two revisions: mcpgen diff A B (or --all)\n");
    expect((await diff(["2025-06-18", "2025-11-25", "--schema", "x.ts"])).err).toBe(
      "mcpgen: --schema is for a revision the lock does not pin, and both 2025-06-18 and 2025-11-25 are pinned\n",
    );
    const format = await diff(["2025-06-18", "2025-11-25", "--format", "yaml"]);
    expect(format.code).toBe(2);
    expect(format.err).toMatch(
      /^mcpgen: option '--format <format>' argument 'yaml' is invalid. Allowed choices are text, markdown, json./,
    );
    expect((await diff(["--all", "2025-06-18"])).err).toBe(
      "mcpgen: --all takes no revisions: it compares every pinned revision with every other\n",
    );
  });
});
