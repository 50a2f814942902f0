// `mcpgen spec sync | list | pin`, run in-process against temporary caches and locks. Downloads
// are served by a loopback HTTP server the test starts and stops.
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { formatLock, sha256, type Lock } from "../../generator/lock/lock.js";
import { captureIo, lock, lockPath, projectRoot, tempDir } from "../helpers.js";

/** The upstream folder the README's test command points MCP_SPEC_DIR at. */
const specDir = resolve(projectRoot, process.env["MCP_SPEC_DIR"] ?? "../shared/mcp-spec/schema");

/** A copy of the upstream folder for 2025-06-18 that a test may damage. */
function copyOfSpec(): string {
  const dir = tempDir();
  cpSync(join(specDir, "2025-06-18"), join(dir, "2025-06-18"), { recursive: true });
  return dir;
}

describe("spec sync --from", () => {
  test("copies and verifies every pinned revision, then spec list says verified", async () => {
    const cache = tempDir();
    const io = captureIo();
    expect(await main(["spec", "sync", "--from", specDir, "--cache", cache], io)).toBe(0);
    expect(io.err.trim().split("\n")).toHaveLength(lock.revisions.length + (lock.extensions ?? []).length);
    // Extensions are read from extensions/ beside the revisions' folder.
    expect(io.err).toMatch(
      /^synced extension tasks \(5 files\) from .*shared\/mcp-spec\/extensions\/tasks in \d+ ms$/m,
    );
    expect(readFileSync(join(cache, "ext", "tasks", "schema", "draft", "schema.ts"), "utf8")).toContain("tasks/get");
    expect(io.err).toMatch(/^synced 2024-11-05 \(2 files\) from .*shared\/mcp-spec\/schema\/2024-11-05 in \d+ ms$/m);
    expect(io.err).toMatch(/^synced 2026-07-28 \(131 files\) from /m);
    expect(
      readFileSync(join(cache, "2026-07-28", "examples", "CallToolRequest", "call-tool-request.json"), "utf8"),
    ).toContain("tools/call");

    const list = captureIo();
    expect(await main(["spec", "list", "--cache", cache, "--json"], list)).toBe(0);
    expect(JSON.parse(list.out).map((s: { name: string; status: string }) => `${s.name} ${s.status}`)).toEqual([
      ...lock.revisions.map((r) => `${r.name} verified`),
      ...(lock.extensions ?? []).map((e) => `ext/${e.name} verified`),
    ]);

    // A second sync finds nothing to do (and so works offline); --force fetches again.
    const again = captureIo();
    expect(await main(["spec", "sync", "--cache", cache, "--rev", "2025-06-18"], again)).toBe(0);
    expect(again.err).toBe("up to date 2025-06-18 (2 files verified in the cache)\n");
    const forced = captureIo();
    expect(
      await main(["spec", "sync", "--from", specDir, "--cache", cache, "--rev", "2025-06-18", "--force"], forced),
    ).toBe(0);
    expect(forced.err).toMatch(/^synced 2025-06-18 \(2 files\)/);
  });

  test("an extension: --ext selects it, $MCP_EXT_DIR or --ext-from name its folder, a damaged file is refused", async () => {
    const extensionsDir = resolve(specDir, "..", "extensions");
    const cache = tempDir();
    const io = captureIo({ env: { MCP_EXT_DIR: extensionsDir } });
    expect(await main(["spec", "sync", "--ext", "tasks", "--cache", cache], io)).toBe(0);
    expect(io.err).toMatch(/^synced extension tasks \(5 files\) from .*extensions\/tasks in \d+ ms\n$/);
    expect(existsSync(join(cache, "2025-06-18"))).toBe(false);

    const damaged = tempDir();
    cpSync(join(extensionsDir, "tasks"), join(damaged, "tasks"), { recursive: true });
    writeFileSync(join(damaged, "tasks", "specification", "draft", "tasks.md"), "changed");
    const refused = captureIo();
    expect(
      await main(["spec", "sync", "--ext", "tasks", "--ext-from", damaged, "--cache", cache, "--force"], refused),
    ).toBe(2);
    expect(refused.err).toMatch(
      /^mcpgen: spec sync: .*tasks\/specification\/draft\/tasks\.md: sha256 mismatch: expected [0-9a-f]{64}, actual [0-9a-f]{64}$/m,
    );
    // The cache keeps the verified copy.
    expect(readFileSync(join(cache, "ext", "tasks", "specification", "draft", "tasks.md"), "utf8")).not.toBe("changed");

    const unknown = captureIo();
    expect(await main(["spec", "sync", "--ext", "nope", "--cache", cache], unknown)).toBe(2);
    expect(unknown.err).toBe('mcpgen: unknown extension "nope": spec/revisions.json pins tasks, skills\n');
  });

  test("reads $MCP_SPEC_DIR when --from is absent", async () => {
    const cache = tempDir();
    const io = captureIo({ env: { MCP_SPEC_DIR: specDir } });
    expect(await main(["spec", "sync", "--rev", "2025-06-18", "--cache", cache], io)).toBe(0);
    expect(existsSync(join(cache, "2025-06-18", "schema.ts"))).toBe(true);
    expect(existsSync(join(cache, "2024-11-05"))).toBe(false);
  });

  test("a hash mismatch names the file, the expected and the actual hash, exits 2 and keeps the old cache", async () => {
    const cache = tempDir();
    await main(["spec", "sync", "--from", specDir, "--rev", "2025-06-18", "--cache", cache], captureIo());
    const from = copyOfSpec();
    const damaged = `${readFileSync(join(from, "2025-06-18", "schema.ts"), "utf8")}\n// tampered\n`;
    writeFileSync(join(from, "2025-06-18", "schema.ts"), damaged);

    const io = captureIo({ cwd: from });
    expect(await main(["spec", "sync", "--from", ".", "--rev", "2025-06-18", "--cache", cache, "--force"], io)).toBe(2);
    const expected = lock.revisions
      .find((r) => r.name === "2025-06-18")!
      .files.find((f) => f.path === "schema.ts")!.sha256;
    expect(io.err.split("\n")[0]).toBe(
      `mcpgen: spec sync: 2025-06-18/schema.ts: sha256 mismatch: expected ${expected}, actual ${sha256(damaged)}`,
    );
    expect(sha256(readFileSync(join(cache, "2025-06-18", "schema.ts")))).toBe(expected);
  });

  test("a missing file is named with the hash it should have", async () => {
    const from = copyOfSpec();
    rmSync(join(from, "2025-06-18", "schema.json"));
    const io = captureIo({ cwd: from });
    expect(await main(["spec", "sync", "--from", ".", "--rev", "2025-06-18", "--cache", tempDir()], io)).toBe(2);
    const expected = lock.revisions
      .find((r) => r.name === "2025-06-18")!
      .files.find((f) => f.path === "schema.json")!.sha256;
    expect(io.err.split("\n")[0]).toBe(
      `mcpgen: spec sync: 2025-06-18/schema.json: missing (expected sha256 ${expected})`,
    );
  });

  test("an unknown revision is one line listing the pinned ones, exit 2", async () => {
    const io = captureIo();
    expect(await main(["spec", "sync", "--from", specDir, "--rev", "2099-01-01", "--cache", tempDir()], io)).toBe(2);
    expect(io.err).toBe(
      'mcpgen: unknown revision "2099-01-01": spec/revisions.json pins 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft\n',
    );
  });
});

describe("spec sync from the pinned URLs (a loopback server stands in for GitHub)", () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url!);
      // /<commit>/schema/<rev>/<path> → ../shared/mcp-spec/schema/<rev>/<path>
      const match = /^\/[0-9a-f]{40}\/schema\/(.+)$/.exec(request.url ?? "");
      const file = match && join(specDir, decodeURIComponent(match[1]!));
      if (file && file.startsWith(specDir) && existsSync(file)) response.end(readFileSync(file));
      else response.writeHead(404).end();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  function loopbackLock(revisions: string[], mutate: (lock: Lock) => void = () => {}): string {
    const local: Lock = {
      upstream: lock.upstream,
      revisions: lock.revisions
        .filter((r) => revisions.includes(r.name))
        .map((r) => ({
          ...r,
          files: r.files.map((f) => ({ ...f, url: f.url.replace(lock.upstream.rawBaseUrl, base) })),
        })),
    };
    mutate(local);
    const path = join(tempDir(), "revisions.json");
    writeFileSync(path, formatLock(local));
    return path;
  }

  test("downloads every file of a revision, examples included, and verifies it", async () => {
    const cache = tempDir();
    const io = captureIo({ fetch: globalThis.fetch });
    requests.length = 0;
    expect(await main(["spec", "sync", "--lock", loopbackLock(["2026-07-28"]), "--cache", cache], io)).toBe(0);
    expect(io.err).toMatch(/^synced 2026-07-28 \(131 files\) from the pinned upstream URLs in \d+ ms\n$/);
    expect(requests).toHaveLength(131);
    expect(
      existsSync(join(cache, "2026-07-28", "examples", "DiscoverResult", "server-capabilities-discovery.json")),
    ).toBe(true);
  });

  test("a URL that answers 404 is a missing file; a wrong body is a mismatch", async () => {
    const path = loopbackLock(["2025-06-18"], (l) => {
      const files = l.revisions[0]!.files;
      files[0] = { ...files[0]!, url: `${base}/nowhere` };
      files[1] = { ...files[1]!, sha256: "0".repeat(64) };
    });
    const io = captureIo({ fetch: globalThis.fetch });
    expect(await main(["spec", "sync", "--lock", path, "--cache", tempDir()], io)).toBe(2);
    const lines = io.err.trim().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(`^mcpgen: spec sync: ${base}/nowhere: missing \\(expected sha256 [0-9a-f]{64}\\)$`),
    );
    expect(lines[1]).toMatch(
      /^mcpgen: spec sync: http:\/\/127\.0\.0\.1:\d+\/.*\/schema\.ts: sha256 mismatch: expected 0{64}, actual [0-9a-f]{64}$/,
    );
  });
});

describe("spec list", () => {
  test("tells verified, not synced and modified apart", async () => {
    const cache = tempDir();
    const entry = lock.revisions.find((r) => r.name === "2025-06-18")!;
    mkdirSync(join(cache, "2025-06-18"), { recursive: true });
    writeFileSync(join(cache, "2025-06-18", "schema.ts"), "changed");
    writeFileSync(join(cache, "2025-06-18", "schema.json"), "{}");
    const io = captureIo();
    expect(await main(["spec", "list", "--cache", cache], io)).toBe(0);
    const lines = io.out.split("\n");
    expect(lines[0]).toBe(`2024-11-05   not synced     2 files  commit ${entry.commit.slice(0, 12)}`);
    expect(lines).toContain(`2025-06-18   modified       2 files  commit ${entry.commit.slice(0, 12)}`);
  });

  test("a malformed lock is an error naming the lock and the JSON pointer", async () => {
    const path = join(tempDir(), "revisions.json");
    const broken = JSON.parse(readFileSync(lockPath, "utf8"));
    broken.revisions[2].files[0].sha256 = "not-a-hash";
    writeFileSync(path, JSON.stringify(broken));
    const io = captureIo({ cwd: resolve(path, "..") });
    expect(await main(["spec", "list", "--lock", path], io)).toBe(2);
    expect(io.err).toBe("mcpgen: revisions.json: /revisions/2/files/0/sha256: expected 64 lowercase hex digits\n");
  });
});

describe("spec pin", () => {
  test("writes a lock entry with every file sorted, its raw URL at the commit and its sha256", async () => {
    const from = tempDir();
    mkdirSync(join(from, "2027-01-01", "examples", "Ping"), { recursive: true });
    writeFileSync(join(from, "2027-01-01", "schema.ts"), "export type X = string;\n");
    writeFileSync(join(from, "2027-01-01", "schema.json"), "{}\n");
    writeFileSync(join(from, "2027-01-01", "examples", "Ping", "ping.json"), '{"method":"ping"}\n');
    writeFileSync(join(from, "2027-01-01", "notes.md"), "not part of a revision\n");
    const lockFile = join(tempDir(), "revisions.json");
    writeFileSync(lockFile, formatLock({ upstream: lock.upstream, revisions: [] }));
    const commit = "a".repeat(40);

    const io = captureIo({ cwd: from });
    expect(await main(["spec", "pin", "2027-01-01", "--from", ".", "--commit", commit, "--lock", lockFile], io)).toBe(
      0,
    );
    const pinned = JSON.parse(readFileSync(lockFile, "utf8")) as Lock;
    const raw = `${lock.upstream.rawBaseUrl}/${commit}/schema/2027-01-01`;
    expect(pinned.revisions).toEqual([
      {
        name: "2027-01-01",
        commit,
        files: [
          {
            path: "examples/Ping/ping.json",
            url: `${raw}/examples/Ping/ping.json`,
            sha256: sha256('{"method":"ping"}\n'),
          },
          { path: "schema.json", url: `${raw}/schema.json`, sha256: sha256("{}\n") },
          { path: "schema.ts", url: `${raw}/schema.ts`, sha256: sha256("export type X = string;\n") },
        ],
      },
    ]);

    // Pinned files then sync and verify like any other revision.
    const cache = tempDir();
    expect(await main(["spec", "sync", "--from", from, "--lock", lockFile, "--cache", cache], captureIo())).toBe(0);
    expect(readFileSync(join(cache, "2027-01-01", "examples", "Ping", "ping.json"), "utf8")).toBe(
      '{"method":"ping"}\n',
    );
  });

  test("refuses a folder without schema.json, a bad commit and a bad revision name", async () => {
    const from = tempDir();
    mkdirSync(join(from, "r1"));
    writeFileSync(join(from, "r1", "schema.ts"), "");
    const lockFile = join(tempDir(), "revisions.json");
    writeFileSync(lockFile, formatLock({ upstream: lock.upstream, revisions: [] }));
    const run = async (args: string[]) => {
      const io = captureIo({ cwd: from });
      return [await main(["spec", "pin", ...args, "--lock", lockFile], io), io.err];
    };
    expect(await run(["r1", "--from", ".", "--commit", "b".repeat(40)])).toEqual([
      2,
      "mcpgen: revision r1: schema.json is missing\n",
    ]);
    expect(await run(["r1", "--from", ".", "--commit", "HEAD"])).toEqual([
      2,
      'mcpgen: "HEAD" is not a 40-digit commit hash\n',
    ]);
    expect(await run(["../r1", "--from", ".", "--commit", "b".repeat(40)])).toEqual([
      2,
      'mcpgen: "../r1" is not a valid revision name (letters, digits, ".", "_", "-")\n',
    ]);
  });

  /** The upstream files of 2026-07-28 laid out as <dir>/<name>/, and a lock pinning them under that name. */
  async function pinnedCopy(name: string) {
    const from = tempDir();
    cpSync(join(specDir, "2026-07-28"), join(from, name), { recursive: true });
    const lockFile = join(tempDir(), "revisions.json");
    writeFileSync(lockFile, formatLock({ upstream: lock.upstream, revisions: [] }));
    const pin = async (...args: string[]) => {
      const io = captureIo({ cwd: from });
      const code = await main(["spec", "pin", name, "--from", ".", "--lock", lockFile, ...args], io);
      return { code, err: io.err, text: readFileSync(lockFile, "utf8") };
    };
    return { from, lockFile, pin };
  }

  test("a re-pin changes the lock's entries of the files that changed, and nothing else", async () => {
    const { from, pin } = await pinnedCopy("2027-01-01");
    const first = await pin("--commit", "a".repeat(40));
    expect(first.code).toBe(0);
    const files = (JSON.parse(first.text) as Lock).revisions[0]!.files;
    expect(files.length).toBeGreaterThan(3);

    // Upstream changes schema.ts and one example, adds an example and removes another.
    const examples = files.filter((f) => f.path.startsWith("examples/")).map((f) => f.path);
    appendFileSync(join(from, "2027-01-01", "schema.ts"), "\n/** A change upstream. */\nexport type Added = string;\n");
    writeFileSync(join(from, "2027-01-01", ...examples[0]!.split("/")), "{}\n");
    rmSync(join(from, "2027-01-01", ...examples[1]!.split("/")));
    mkdirSync(join(from, "2027-01-01", "examples", "Added"));
    writeFileSync(join(from, "2027-01-01", "examples", "Added", "added.json"), '"added"\n');
    const second = await pin("--commit", "b".repeat(40));
    expect(second.code).toBe(0);
    expect(second.err).toMatch(
      new RegExp(
        `^pinned 2027-01-01 \\(${files.length} files, 3 new or changed, 1 removed; upstream folder schema/2027-01-01\\) in `,
      ),
    );

    const changedLines = lineDiff(first.text, second.text);
    const raw = (commit: string, path: string) =>
      `${lock.upstream.rawBaseUrl}/${commit.repeat(40)}/schema/2027-01-01/${path}`;
    // The commit, then per changed file its URL (at the new commit) and hash; the removed file's three lines.
    expect(changedLines.added.filter((l) => l.includes('"url"'))).toEqual(
      [examples[0]!, "examples/Added/added.json", "schema.ts"].map((p) => `"url": "${raw("b", p)}",`).sort(),
    );
    expect(changedLines.removed.filter((l) => l.includes('"url"'))).toEqual(
      [examples[0]!, examples[1]!, "schema.ts"].map((p) => `"url": "${raw("a", p)}",`).sort(),
    );
    expect(changedLines.added.filter((l) => l.includes('"commit"'))).toEqual([`"commit": "${"b".repeat(40)}",`]);
    // An unchanged file keeps its URL at the commit it was pinned at, which serves the same bytes.
    expect(second.text).toContain(`"url": "${raw("a", "schema.json")}"`);
  });

  test("--path: the folder the files are in upstream, e.g. a draft pinned under a new name; a re-pin keeps it", async () => {
    const { pin } = await pinnedCopy("2027-01-01");
    const first = await pin("--commit", "a".repeat(40), "--path", "schema/draft");
    expect(first.code).toBe(0);
    const urls = (text: string) => (JSON.parse(text) as Lock).revisions[0]!.files.map((f) => f.url);
    expect(
      urls(first.text).every((url) => url.startsWith(`${lock.upstream.rawBaseUrl}/${"a".repeat(40)}/schema/draft/`)),
    ).toBe(true);
    expect(first.err).toContain("upstream folder schema/draft)");
    // Without --path, a re-pin keeps the folder the revision was pinned at: nothing changed, nothing moves.
    const again = await pin("--commit", "c".repeat(40));
    expect(lineDiff(first.text, again.text).added).toEqual([`"commit": "${"c".repeat(40)}",`]);
    // A folder that moved upstream: every URL follows it.
    const moved = await pin("--commit", "d".repeat(40), "--path", "schema/2027-01-01");
    expect(
      urls(moved.text).every((url) =>
        url.startsWith(`${lock.upstream.rawBaseUrl}/${"d".repeat(40)}/schema/2027-01-01/`),
      ),
    ).toBe(true);
    expect((await pin("--commit", "d".repeat(40), "--path", "../up")).err).toBe(
      `mcpgen: "../up" is not a folder of the upstream repository (a relative path without '..')\n`,
    );
  });

  test("a lock file that does not exist yet starts as a copy of the pinned one, with the transcriptions it names beside it", async () => {
    const from = tempDir();
    cpSync(join(specDir, "2025-06-18"), join(from, "2027-01-01"), { recursive: true });
    const project = tempDir();
    const io = captureIo({ cwd: project });
    const args = [
      "spec",
      "pin",
      "2027-01-01",
      "--from",
      from,
      "--commit",
      "e".repeat(40),
      "--lock",
      "spec/revisions.json",
    ];
    expect(await main(args, io)).toBe(0);
    const transcriptions = (lock.extensions ?? []).flatMap((e) => (e.projectSchema ? [e.projectSchema] : []));
    expect(transcriptions.length).toBeGreaterThan(0);
    expect(io.err.split("\n")[0]).toBe(
      `created spec/revisions.json from ${relative(project, lockPath)} (and ${transcriptions.join(", ")} beside it)`,
    );
    const created = JSON.parse(readFileSync(join(project, "spec", "revisions.json"), "utf8")) as Lock;
    expect(created.revisions.filter((r) => r.name !== "2027-01-01")).toEqual(lock.revisions);
    expect(created.extensions).toEqual(lock.extensions);
    for (const path of transcriptions)
      expect(readFileSync(join(project, "spec", path), "utf8")).toBe(
        readFileSync(join(projectRoot, "spec", path), "utf8"),
      );
    // The project's lock then syncs and lists like the pinned one.
    const cache = tempDir();
    const sync = captureIo({ cwd: project });
    expect(
      await main(
        ["spec", "sync", "--rev", "2027-01-01", "--from", from, "--lock", "spec/revisions.json", "--cache", cache],
        sync,
      ),
    ).toBe(0);
    expect(existsSync(join(cache, "2027-01-01", "schema.ts"))).toBe(true);
  });

  test("a --from without the revision's folder names the folder it read", async () => {
    const from = tempDir();
    const lockFile = join(tempDir(), "revisions.json");
    writeFileSync(lockFile, formatLock({ upstream: lock.upstream, revisions: [] }));
    const io = captureIo({ cwd: from });
    expect(
      await main(["spec", "pin", "2027-01-01", "--from", ".", "--commit", "f".repeat(40), "--lock", lockFile], io),
    ).toBe(2);
    expect(io.err).toBe(
      "mcpgen: 2027-01-01 holds no schema.ts, schema.json or examples/: --from names the folder that holds 2027-01-01/\n",
    );
  });
});

/** The lines only in `after` and only in `before`, trimmed and sorted. */
function lineDiff(before: string, after: string): { added: string[]; removed: string[] } {
  const count = (text: string) => {
    const counts = new Map<string, number>();
    for (const line of text.split("\n").map((l) => l.trim())) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const a = count(before);
  const b = count(after);
  const only = (x: Map<string, number>, y: Map<string, number>) =>
    [...x].flatMap(([line, n]) => Array<string>(Math.max(0, n - (y.get(line) ?? 0))).fill(line)).sort();
  return { added: only(b, a), removed: only(a, b) };
}
