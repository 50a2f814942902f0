// `mcpgen generate`, in-process against temporary output folders, plus the real
// binary for exit codes. The spec cache is the one `npm run generate` filled.
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { captureIo, lock, pinnedSource, projectRoot, tempDir, typeCheck } from "../helpers.js";

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("generate from the lock", () => {
  test("writes <out>/<rev>/{types,methods,revision,checks,validators,guards,index}.ts, the root index and the surface, one progress line per revision", async () => {
    const out = tempDir();
    const surface = tempDir();
    const io = captureIo();
    expect(await main(["generate", "--rev", "2025-06-18", "2024-11-05", "--out", out, "--surface", surface], io)).toBe(
      0,
    );
    // checks/: the check functions the two revisions have alike (generator/emit/check-sharing.ts).
    expect(readdirSync(out).sort()).toEqual(["2024-11-05", "2025-06-18", "checks", "index.ts", "shims"]);
    expect(readdirSync(join(out, "checks"))).toEqual(["2024-11-05--2025-06-18.ts"]);
    expect(readdirSync(join(out, "shims")).sort()).toEqual([
      "2024-11-05--2025-06-18.ts",
      "2024-11-05.ts",
      "2025-06-18.ts",
      "index.ts",
    ]);
    expect(readdirSync(join(out, "2025-06-18")).sort()).toEqual([
      "checks.ts",
      "guards.ts",
      "index.ts",
      "methods.ts",
      "revision.ts",
      "tables.ts",
      "types.ts",
      "validators.ts",
    ]);
    expect(readdirSync(surface).sort()).toEqual(["2024-11-05.json", "2025-06-18.json"]);
    const lines = io.err.trim().split("\n");
    expect(lines[0]).toMatch(/^generated 2024-11-05 +24 methods +79 types +\d+ ms$/);
    expect(lines[1]).toMatch(/^generated 2025-06-18 +25 methods +91 types +\d+ ms$/);
    expect(lines[2]).toMatch(/^generated 2 revision\(s\) into .+ in \d+ ms$/);
    expect(io.out).toBe("");
  });

  test("--check passes on fresh output, then lists changed, missing and extra files with exit 1", async () => {
    const out = tempDir();
    const surface = tempDir();
    const args = ["generate", "--rev", "2025-06-18", "--out", out, "--surface", surface];
    await main(args, captureIo());
    expect(await main([...args, "--check", "--quiet"], captureIo())).toBe(0);

    appendFileSync(join(out, "2025-06-18", "types.ts"), "// edited by hand\n");
    rmSync(join(surface, "2025-06-18.json"));
    writeFileSync(join(out, "2025-06-18", "stale.ts"), "");
    const io = captureIo({ cwd: out });
    expect(await main([...args, "--check", "--quiet"], io)).toBe(1);
    expect(io.err.split("\n")).toEqual([
      "mcpgen: generate --check: 3 file(s) differ from a fresh generation:",
      "  changed  2025-06-18/types.ts",
      expect.stringMatching(/^ {2}missing +.*2025-06-18\.json$/),
      "  extra    2025-06-18/stale.ts",
      "",
    ]);
  });

  test("generating one revision into a full output leaves it as a full generation does: what every revision shares (shims/, the root index, ext/, checks/) covers them all", async () => {
    const out = tempDir();
    const surface = tempDir();
    expect(await main(["generate", "--out", out, "--surface", surface, "--quiet"], captureIo())).toBe(0);
    const before = new Map(allFiles(out).map((f) => [f, readFileSync(f, "utf8")]));
    // draft's checks are those it has alike with 2026-07-28 (check-sharing.ts), which is not generated again here.
    expect(before.get(join(out, "draft", "checks.ts"))).toContain(`from "../checks/2026-07-28--draft.js";`);
    for (const revision of ["2025-06-18", "draft"]) {
      const io = captureIo({ cwd: out });
      expect(await main(["generate", "--rev", revision, "--out", out, "--surface", surface], io)).toBe(0);
      const others = lock.revisions.map((r) => r.name).filter((name) => name !== revision);
      expect(io.err).toContain(
        `reading ${others.join(", ")} too: the shims, the root index and the shared checks cover every revision in .`,
      );
      // The same files, byte for byte.
      expect(new Map(allFiles(out).map((f) => [f, readFileSync(f, "utf8")]))).toEqual(before);
    }
    expect(await main(["generate", "--out", out, "--surface", surface, "--check", "--quiet"], captureIo())).toBe(0);
  }, 90_000);

  test("generating a revision again writes the checks.ts of the revisions beside it in the output, and nothing else of theirs", async () => {
    const out = tempDir();
    const surface = tempDir();
    const generate = (...revisions: string[]) =>
      main(["generate", "--rev", ...revisions, "--out", out, "--surface", surface], io);
    let io = captureIo();
    expect(await generate("2025-11-25", "2026-07-28", "draft")).toBe(0);
    const left = "// left from an earlier generation\n";
    for (const file of ["draft/checks.ts", "2025-11-25/checks.ts", "draft/tables.ts", "checks/2026-07-28--draft.ts"])
      appendFileSync(join(out, file), left);
    writeFileSync(join(out, "checks", "2020-01-01--2020-02-02.ts"), left);

    io = captureIo({ cwd: out });
    expect(await generate("2026-07-28")).toBe(0);
    expect(io.err).toContain("reading 2025-11-25, draft too:");
    expect(io.err).not.toMatch(/^generated (2025-11-25|draft) /m);
    // Which of a revision's check functions are shared depends on the revisions beside it: their checks.ts and
    // checks/ are written again; their other files are not.
    for (const file of ["draft/checks.ts", "2025-11-25/checks.ts", "checks/2026-07-28--draft.ts"])
      expect(readFileSync(join(out, file), "utf8"), file).not.toContain(left);
    expect(existsSync(join(out, "checks", "2020-01-01--2020-02-02.ts"))).toBe(false);
    expect(readFileSync(join(out, "draft", "tables.ts"), "utf8")).toContain(left);
  });

  test("--json reports what was generated on stdout and nothing on stderr", async () => {
    const io = captureIo();
    expect(
      await main(["generate", "--rev", "2026-07-28", "--out", tempDir(), "--surface", tempDir(), "--json"], io),
    ).toBe(0);
    const report = JSON.parse(io.out);
    expect(report.revisions).toEqual([
      { revision: "2026-07-28", methods: 21, types: 155, files: 8, ms: expect.any(Number), warnings: [] },
    ]);
    expect(io.err).toBe("");
  });

  test("--quiet prints nothing", async () => {
    const io = captureIo();
    expect(
      await main(["generate", "--rev", "2026-07-28", "--out", tempDir(), "--surface", tempDir(), "--quiet"], io),
    ).toBe(0);
    expect(io.err + io.out).toBe("");
  });

  test("a revision whose cache does not match the lock is refused", async () => {
    const cache = tempDir();
    mkdirSync(join(cache, "2025-06-18"));
    writeFileSync(join(cache, "2025-06-18", "schema.ts"), "export type X = string;\n");
    const io = captureIo({ cwd: cache });
    expect(await main(["generate", "--rev", "2025-06-18", "--cache", cache, "--out", tempDir()], io)).toBe(2);
    expect(io.err).toMatch(
      /^mcpgen: 2025-06-18\/schema\.ts: sha256 mismatch: expected 7d7f4cc6[0-9a-f]{56}, actual [0-9a-f]{64}; run `mcpgen spec sync` to restore the pinned file\n$/,
    );

    const missing = captureIo({ cwd: cache });
    expect(await main(["generate", "--rev", "2024-11-05", "--cache", cache, "--out", tempDir()], missing)).toBe(2);
    expect(missing.err).toBe(
      "mcpgen: revision 2024-11-05 is not synced (2024-11-05/schema.ts is missing): run `mcpgen spec sync`\n",
    );
  });
});

describe("bad input: one clear error, non-zero exit", () => {
  test("an unknown revision", async () => {
    const io = captureIo();
    expect(await main(["generate", "--rev", "2030-01-01", "--out", tempDir()], io)).toBe(2);
    expect(io.err).toBe(
      'mcpgen: unknown revision "2030-01-01": spec/revisions.json pins 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft\n',
    );
  });

  test("an unknown option", async () => {
    const io = captureIo();
    expect(await main(["generate", "--frobnicate"], io)).toBe(2);
    expect(io.err.split("\n")[0]).toBe("mcpgen: unknown option '--frobnicate'");
  });

  test("an unreadable schema", async () => {
    const io = captureIo({ cwd: tempDir() });
    expect(await main(["generate", "--schema", "nowhere.ts", "--rev", "x", "--out", tempDir()], io)).toBe(2);
    expect(io.err).toBe("mcpgen: cannot read schema nowhere.ts: no such file\n");
  });

  test("--schema without a revision name", async () => {
    const io = captureIo();
    expect(await main(["generate", "--schema", "x.ts", "--out", tempDir()], io)).toBe(2);
    expect(io.err).toBe("mcpgen: --schema needs exactly one --rev NAME to call the revision\n");
  });

  test("a revision name that is not a plain folder name", async () => {
    const io = captureIo();
    expect(await main(["generate", "--schema", "x.ts", "--rev", "../escape", "--out", tempDir()], io)).toBe(2);
    expect(io.err).toBe('mcpgen: "../escape" is not a valid revision name (letters, digits, ".", "_", "-")\n');
  });

  test("a syntax error in schema.ts: file:line:col, code and code frame", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "schema.ts"),
      'export const LATEST_PROTOCOL_VERSION = "x";\nexport interface Broken {\n  field: string\n  other: = 1;\n}\n',
    );
    const io = captureIo({ cwd: dir });
    expect(await main(["generate", "--schema", "schema.ts", "--rev", "broken", "--out", join(dir, "out")], io)).toBe(2);
    expect(io.err).toBe(
      [
        "schema.ts:4:10: error E_SYNTAX: TS1110: Type expected.",
        "  2 | export interface Broken {",
        "  3 |   field: string",
        "> 4 |   other: = 1;",
        "    |          ^",
        "  5 | }",
        "",
      ].join("\n"),
    );
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});

describe("a revision the lock has never heard of generates with no code change", () => {
  // The latest pinned revision plus what a spec release typically adds: a new
  // request with its result, a notification, and a new server capability.
  const latest = pinnedSource("2026-07-28").text;
  const next = `${latest
    .replace("export type ClientRequest =\n", "export type ClientRequest =\n  | FrobnicateWidgetsRequest\n")
    .replace("export type ServerNotification =\n", "export type ServerNotification =\n  | WidgetsChangedNotification\n")
    .replace(
      /(export interface ServerCapabilities \{\n)/,
      "$1  /** Present if the server offers widgets. */\n  widgets?: { listChanged?: boolean };\n",
    )
    .replace(
      'export const LATEST_PROTOCOL_VERSION = "2026-07-28";',
      'export const LATEST_PROTOCOL_VERSION = "2027-03-01";',
    )}
/** @category \`widgets/frobnicate\` */
export interface FrobnicateWidgetsRequestParams extends RequestParams {
  widget: string;
  force?: boolean;
}

/** @category \`widgets/frobnicate\` */
export interface FrobnicateWidgetsRequest extends JSONRPCRequest {
  method: "widgets/frobnicate";
  params: FrobnicateWidgetsRequestParams;
}

/** @category \`widgets/frobnicate\` */
export interface FrobnicateWidgetsResult extends Result {
  frobnicated: number;
}

/** @category \`notifications/widgets/changed\` */
export interface WidgetsChangedNotification extends JSONRPCNotification {
  method: "notifications/widgets/changed";
  params?: NotificationParams;
}
`;

  test("the test's schema really has the additions", () => {
    for (const added of [
      "| FrobnicateWidgetsRequest",
      "| WidgetsChangedNotification",
      "widgets?: { listChanged?: boolean }",
      '"2027-03-01"',
    ]) {
      expect(next).toContain(added);
    }
  });

  test("generate --schema PATH --rev NAME --out DIR", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "schema.ts"), next);
    const out = join(dir, "out");
    const io = captureIo({ cwd: dir });
    expect(await main(["generate", "--schema", "schema.ts", "--rev", "2027-03-01", "--out", out], io)).toBe(0);
    expect(io.err).not.toMatch(/warning|error/);
    expect(io.err).toMatch(/^generated 2027-03-01 +23 methods +159 types +\d+ ms$/m);

    const { methods } = await import(/* @vite-ignore */ join(out, "2027-03-01", "methods.ts"));
    expect(methods["widgets/frobnicate"]).toEqual({
      kind: "request",
      direction: "client-to-server",
      type: "FrobnicateWidgetsRequest",
      params: "FrobnicateWidgetsRequestParams",
      paramsRequired: true,
      result: "FrobnicateWidgetsResult",
      resultResponse: null,
      capability: null,
      inputRequest: false,
    });
    expect(methods["notifications/widgets/changed"]).toMatchObject({
      kind: "notification",
      direction: "server-to-client",
    });
    // Open-ended overlay entries still apply to the new revision.
    expect(methods["tools/call"].capability).toEqual({ holder: "server", path: ["tools"] });
    const types = readFileSync(join(out, "2027-03-01", "types.ts"), "utf8");
    expect(types).toContain("widgets?: {\n    listChanged?: boolean;\n  };");
    const { revision } = await import(/* @vite-ignore */ join(out, "2027-03-01", "revision.ts"));
    expect(revision).toMatchObject({ protocolVersion: "2027-03-01", commit: null });
    expect(readFileSync(join(out, "index.ts"), "utf8")).toContain('name: "2027-03-01"');
    // No surface is written for an unpinned revision unless asked for.
    expect(existsSync(join(projectRoot, "spec", "surface", "2027-03-01.json"))).toBe(false);

    const usage = join(out, "usage.ts");
    writeFileSync(
      usage,
      `import type { ParamsOf, ResultOf, ServerCapabilities } from "./2027-03-01/index.js";
export const params: ParamsOf<"widgets/frobnicate"> = { widget: "w", _meta: { "io.modelcontextprotocol/protocolVersion": "2027-03-01", "io.modelcontextprotocol/clientCapabilities": {} } };
export const result: ResultOf<"widgets/frobnicate"> = { frobnicated: 1, resultType: "complete" };
export const caps: ServerCapabilities = { widgets: { listChanged: true } };
`,
    );
    expect(typeCheck([...allFiles(out).filter((f) => f.endsWith(".ts"))])).toEqual([]);
  });
});

describe("a revision from --schema is added to the revisions in the output", () => {
  // The latest pinned revision under a name that sorts between two pinned ones, with one request more.
  const next = pinnedSource("2026-07-28")
    .text.replace("export type ClientRequest =\n", "export type ClientRequest =\n  | FrobnicateRequest\n")
    .concat(
      `\nexport interface FrobnicateRequest extends JSONRPCRequest { method: "widgets/frobnicate"; params: RequestParams }\nexport interface FrobnicateResult extends Result { n: number }\n`,
    );
  const pinnedAround = ["2026-07-28", "draft"];

  test("the root index lists every revision, the shims cover the new pairs, the pinned folders stay as they were, and it all type-checks", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "schema.ts"), next);
    const out = join(dir, "out");
    expect(
      await main(["generate", "--rev", ...pinnedAround, "--out", out, "--surface", tempDir(), "--quiet"], captureIo()),
    ).toBe(0);
    const pinnedFiles = () =>
      new Map(
        allFiles(out)
          .filter((f) => pinnedAround.some((rev) => f.startsWith(join(out, rev))) || f.startsWith(join(out, "ext")))
          .map((f) => [f, readFileSync(f, "utf8")]),
      );
    const before = pinnedFiles();
    expect(readdirSync(join(out, "shims"))).toContain("2026-07-28--draft.ts");

    const io = captureIo({ cwd: dir });
    expect(await main(["generate", "--schema", "schema.ts", "--rev", "2027-01-01", "--out", out], io)).toBe(0);
    expect(io.err).toContain(
      "reading 2026-07-28, draft too: the shims, the root index and the shared checks cover every revision in out",
    );
    expect(readdirSync(out).sort()).toEqual([
      "2026-07-28",
      "2027-01-01",
      "checks",
      "draft",
      "ext",
      "index.ts",
      "shims",
    ]);
    const index = readFileSync(join(out, "index.ts"), "utf8");
    expect([...index.matchAll(/name: "([^"]+)"/g)].map((m) => m[1])).toEqual(
      expect.arrayContaining(["2026-07-28", "2027-01-01", "draft"]),
    );
    const shims = readdirSync(join(out, "shims"));
    expect(shims).toEqual(
      expect.arrayContaining(["2026-07-28--2027-01-01.ts", "2027-01-01--draft.ts", "2027-01-01.ts"]),
    );
    expect(shims).not.toContain("2026-07-28--draft.ts");
    expect(pinnedFiles()).toEqual(before);
    const { methods } = await import(/* @vite-ignore */ join(out, "2027-01-01", "methods.ts"));
    expect(methods["widgets/frobnicate"]).toMatchObject({ kind: "request", result: "FrobnicateResult" });
    expect(typeCheck(allFiles(out).filter((f) => f.endsWith(".ts")))).toEqual([]);

    // Generating the pinned revisions again leaves the unpinned one out of what they share, and says so.
    const again = captureIo({ cwd: dir });
    expect(await main(["generate", "--rev", "draft", "--out", out, "--surface", tempDir()], again)).toBe(0);
    expect(again.err).toContain(
      "leaving 2027-01-01 in out out of the root index and the shims: the lock does not pin it (generate --schema again to add it back, or spec pin it)",
    );
    expect(readFileSync(join(out, "index.ts"), "utf8")).not.toContain('"2027-01-01"');
  }, 120_000);

  test("a schema under a pinned revision's name is refused where revisions generated from the lock are", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "schema.ts"), next);
    const out = join(dir, "out");
    expect(
      await main(["generate", "--rev", "2026-07-28", "--out", out, "--surface", tempDir(), "--quiet"], captureIo()),
    ).toBe(0);
    const io = captureIo({ cwd: dir });
    expect(await main(["generate", "--schema", "schema.ts", "--rev", "draft", "--out", out], io)).toBe(2);
    expect(io.err).toBe(
      "mcpgen: --rev draft names a revision the lock pins, and out holds revisions generated from the lock: give this schema another name, or --out another folder\n",
    );
    expect(readdirSync(out).sort()).toEqual(["2026-07-28", "ext", "index.ts", "shims"]);
  });
});

describe("the built binary", () => {
  const bin = join(projectRoot, "bin", "mcpgen.js");

  test("--check passes on the project's own generated/ and spec/surface/", () => {
    const result = spawnSync(process.execPath, [bin, "generate", "--check"], { cwd: projectRoot, encoding: "utf8" });
    // Per revision 8 files and a surface; shims: a shapes file per revision, a step per adjacent pair and
    // an index; the root index; per extension 8 files; a module per run of revisions that share check functions
    // (generator/emit/check-sharing.ts: how many depends on the schemas).
    const revisions = lock.revisions.length;
    const shared = readdirSync(join(projectRoot, "generated", "checks")).length;
    const files = revisions * 9 + (revisions + (revisions - 1) + 1) + 1 + (lock.extensions ?? []).length * 8 + shared;
    expect(result.stderr).toMatch(new RegExp(`up to date: ${files} files in \\d+ ms`));
    expect(result.stderr).toMatch(/^checked ext\/tasks +20 types +\d+ ms \(on draft\)$/m);
    expect(result.status).toBe(0);
  });

  test("exits 2 on an unknown revision, 0 on --help", () => {
    const bad = spawnSync(process.execPath, [bin, "generate", "--rev", "1999-01-01"], {
      cwd: projectRoot,
      encoding: "utf8",
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^mcpgen: unknown revision "1999-01-01"/);
    expect(execFileSync(process.execPath, [bin, "--help"], { encoding: "utf8" })).toMatch(
      /^Usage: mcpgen \[options\] \[command\]/,
    );
  });
});
