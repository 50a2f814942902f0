// The skills directory loader (runtime/server/skills/load.ts): a fixture directory
// with nested skills and supporting files, every entry checked against the
// generated Skill validator and every digest and size recomputed from the
// bytes; each bad SKILL.md refused with its file and the rule it breaks.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadSkills, SkillError } from "../../runtime/server/skills/load.js";
import { McpServer } from "../../runtime/server/index.js";
import { WireClient } from "./per-request-support.js";
import { projectRoot, tempDir } from "../helpers.js";

function tree(files: Record<string, string | Buffer>): string {
  const root = tempDir();
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const skillMd = (name: string, description: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nInstructions.\n`;

describe("loadSkills", () => {
  test("nested skills and supporting files: complete resource lists with digests and sizes of the bytes", async () => {
    const root = tree({
      "pdf-processing/SKILL.md": skillMd(
        "pdf-processing",
        "Extract text from PDFs.",
        "license: MIT\nmetadata:\n  version: 2\n",
      ),
      "pdf-processing/references/FORMS.md": "# Forms\n",
      "pdf-processing/scripts/extract.py": "print('x')\n",
      "pdf-processing/forms/SKILL.md": skillMd("forms", "Fill PDF forms."),
      "pdf-processing/forms/template.bin": Buffer.from([0, 1, 2, 255]),
      "acme/billing/refunds/SKILL.md": skillMd("refunds", "Issue refunds."),
      "README.md": "not a skill\n",
    });
    const skills = await loadSkills(root);
    expect(skills.map((s) => s.entry.uri)).toEqual([
      "skill://acme/billing/refunds/SKILL.md",
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/forms/SKILL.md",
    ]);
    const pdf = skills[1]!;
    expect(pdf.entry.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract text from PDFs.",
      license: "MIT",
      metadata: { version: 2 },
    });
    // Complete: SKILL.md first, every supporting file, the nested skill's files too (#resources).
    expect(pdf.entry.resources.map((r) => r.uri)).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/forms/SKILL.md",
      "skill://pdf-processing/forms/template.bin",
      "skill://pdf-processing/references/FORMS.md",
      "skill://pdf-processing/scripts/extract.py",
    ]);
    for (const skill of skills)
      for (const file of skill.files) {
        const bytes = readFileSync(file.path);
        expect(file.digest).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
        expect(file.size).toBe(bytes.length);
      }
    expect(pdf.files.map((f) => f.mimeType)).toEqual([
      "text/markdown",
      "text/markdown",
      "application/octet-stream",
      "text/markdown",
      "text/x-python",
    ]);
    const { validate } = (await import(join(projectRoot, "generated", "ext", "skills", "tables.ts"))) as {
      validate: (type: string, value: unknown) => unknown;
    };
    for (const skill of skills) expect(validate("Skill", skill.entry)).toEqual({ valid: true });
  });

  test.each([
    [
      "no frontmatter",
      { "a/SKILL.md": "# a\n" },
      "a/SKILL.md: SKILL.md must begin with YAML frontmatter between --- lines (#skill-format)",
    ],
    [
      "a name that is not the directory's",
      { "a/SKILL.md": skillMd("b", "x") },
      `a/SKILL.md: frontmatter name "b" must equal the skill directory's name "a" (#resource-mapping)`,
    ],
    [
      "an upper-case name",
      { "Bad/SKILL.md": skillMd("Bad", "x") },
      `Bad/SKILL.md: frontmatter name "Bad" must be 1-64 lowercase letters, digits and hyphens, not starting or ending with a hyphen, without "--" (Agent Skills name field)`,
    ],
    [
      "a double hyphen",
      { "a--b/SKILL.md": skillMd("a--b", "x") },
      `a--b/SKILL.md: frontmatter name "a--b" must be 1-64 lowercase letters, digits and hyphens, not starting or ending with a hyphen, without "--" (Agent Skills name field)`,
    ],
    [
      "no description",
      { "a/SKILL.md": "---\nname: a\n---\n" },
      "a/SKILL.md: frontmatter description must be a non-empty string of at most 1024 characters",
    ],
    [
      "a description over 1024 characters",
      { "a/SKILL.md": skillMd("a", "x".repeat(1025)) },
      "a/SKILL.md: frontmatter description must be a non-empty string of at most 1024 characters",
    ],
    [
      "frontmatter that is not YAML",
      { "a/SKILL.md": "---\nname: [a\n---\n" },
      /^a\/SKILL\.md: the frontmatter is not valid YAML: /,
    ],
    [
      "a SKILL.md at the root",
      { "SKILL.md": skillMd("x", "y") },
      "SKILL.md: a skill is a directory below the root: its path is the skill's <skill-path> (#resource-mapping)",
    ],
  ])("refuses %s, naming the file and the rule", async (_, files, message) => {
    const root = tree(files as Record<string, string>);
    const refused = await loadSkills(root).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SkillError);
    const text = (refused as SkillError).message.slice(root.length + 1);
    if (typeof message === "string") expect(text).toBe(message);
    else expect(text).toMatch(message);
  });

  test("a skill over the per-skill limits is refused (#limits)", async () => {
    const files: Record<string, string> = { "big/SKILL.md": skillMd("big", "x") };
    for (let i = 0; i < 512; i++) files[`big/f${i}.txt`] = "x";
    const root = tree(files);
    await expect(loadSkills(root)).rejects.toThrow(
      `${join(root, "big")}: 513 files exceed the 512 resources a host must accept per skill (#limits)`,
    );
  });
});

describe("server.skills(dir): the io.modelcontextprotocol/skills extension served", () => {
  const SKILLS = "io.modelcontextprotocol/skills";
  const fixture = () =>
    tree({
      "pdf-processing/SKILL.md": skillMd("pdf-processing", "Extract text from PDFs.", "license: MIT\n"),
      "pdf-processing/references/FORMS.md": "\uFEFF# Forms\n",
      "pdf-processing/forms/SKILL.md": skillMd("forms", "Fill PDF forms."),
      "pdf-processing/forms/template.bin": Buffer.from([0, 1, 2, 255]),
      "acme/billing/refunds/SKILL.md": skillMd("refunds", "Issue refunds."),
    });

  async function served(options: { directoryRead?: boolean; pageSize?: number } = {}) {
    const server = new McpServer({ name: "skills", version: "1.0.0" }, { pageSize: options.pageSize ?? 100 });
    await server.skills(fixture(), { directoryRead: options.directoryRead, cache: { ttlMs: 60_000 } });
    const client = await WireClient.connect(server, "2026-07-28", { extensions: ["skills"] });
    return { server, client };
  }

  test("declares the extension (with directoryRead) and resources; skills/list pages through every entry", async () => {
    const { client } = await served({ pageSize: 2 });
    const discover = await client.call("server/discover");
    expect(discover["result"].capabilities.extensions).toEqual({ [SKILLS]: { directoryRead: true } });
    expect(discover["result"].capabilities.resources).toBeDefined();
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.call("skills/list", cursor ? { cursor } : {});
      expect(page["result"]).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "private" });
      uris.push(...page["result"].skills.map((s: { uri: string }) => s.uri));
      cursor = page["result"].nextCursor;
    } while (cursor);
    expect(uris).toEqual([
      "skill://acme/billing/refunds/SKILL.md",
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/forms/SKILL.md",
    ]);
    expect(client.problems).toEqual([]);
  });

  test("digests and sizes recomputed from resources/read agree with every entry (text byte for byte, binary as blob)", async () => {
    const { client } = await served();
    const list = await client.call("skills/list");
    let files = 0;
    for (const skill of list["result"].skills)
      for (const resource of skill.resources) {
        const read = await client.call("resources/read", { uri: resource.uri });
        const content = read["result"].contents[0];
        const bytes =
          content.text !== undefined ? Buffer.from(content.text, "utf8") : Buffer.from(content.blob, "base64");
        expect(`sha256:${createHash("sha256").update(bytes).digest("hex")}`).toBe(resource.digest);
        expect(bytes.length).toBe(resource.size);
        files++;
      }
    expect(files).toBe(7); // pdf-processing lists its nested skill's files too
    const listed = await client.call("resources/list");
    const skillMdResource = listed["result"].resources.find(
      (r: { uri: string }) => r.uri === "skill://pdf-processing/SKILL.md",
    );
    expect(skillMdResource).toMatchObject({
      name: "pdf-processing",
      description: "Extract text from PDFs.",
      mimeType: "text/markdown",
    });
    expect(client.problems).toEqual([]);
  });

  test("skills/get answers any served skill; an unknown URI is -32602 naming it", async () => {
    const { client } = await served();
    const got = await client.call("skills/get", { uri: "skill://pdf-processing/forms/SKILL.md" });
    expect(got["result"].skill.frontmatter).toEqual({ name: "forms", description: "Fill PDF forms." });
    const unknown = await client.call("skills/get", { uri: "skill://nope/SKILL.md" });
    expect(unknown["error"]).toMatchObject({ code: -32602, message: "No skill is served at skill://nope/SKILL.md" });
    expect(client.problems).toEqual([]);
  });

  test("resources/directory/read lists direct children, subdirectories as inode/directory; a file or unknown URI is -32602", async () => {
    const { client } = await served();
    const root = await client.call("resources/directory/read", { uri: "skill://pdf-processing" });
    expect(root["result"].resources.map((r: { uri: string; mimeType: string }) => [r.uri, r.mimeType])).toEqual([
      ["skill://pdf-processing/SKILL.md", "text/markdown"],
      ["skill://pdf-processing/forms", "inode/directory"],
      ["skill://pdf-processing/references", "inode/directory"],
    ]);
    const prefix = await client.call("resources/directory/read", { uri: "skill://acme" });
    expect(prefix["result"].resources).toEqual([
      { uri: "skill://acme/billing", name: "billing", mimeType: "inode/directory" },
    ]);
    const file = await client.call("resources/directory/read", { uri: "skill://pdf-processing/SKILL.md" });
    expect(file["error"]).toMatchObject({
      code: -32602,
      message: "skill://pdf-processing/SKILL.md is not a directory resource",
    });
    const missing = await client.call("resources/directory/read", { uri: "skill://nowhere" });
    expect(missing["error"]?.code).toBe(-32602);
    expect(client.problems).toEqual([]);
  });

  test("a directory with a bad skill fails at registration with the file and the rule, and serves nothing", async () => {
    const root = tree({
      "good/SKILL.md": skillMd("good", "Fine."),
      "bad/SKILL.md": skillMd("worse", "Misnamed."),
    });
    const server = new McpServer({ name: "skills", version: "1.0.0" });
    const refused = await server.skills(root).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SkillError);
    expect((refused as SkillError).file).toBe(join(root, "bad", "SKILL.md"));
    expect((refused as SkillError).rule).toContain("#resource-mapping");
    const client = await WireClient.connect(server, "2026-07-28", { extensions: ["skills"] });
    const listed = await client.call("resources/list");
    expect(listed["result"]?.resources ?? []).toEqual([]);
    expect((await client.call("server/discover"))["result"].capabilities.extensions).toBeUndefined();
  });

  test("without directoryRead the setting is absent and the method unknown; a handshake revision has no skills methods", async () => {
    const { client } = await served({ directoryRead: false });
    const discover = await client.call("server/discover");
    expect(discover["result"].capabilities.extensions).toEqual({ [SKILLS]: {} });
    const read = await client.call("resources/directory/read", { uri: "skill://pdf-processing" });
    expect(read["error"]?.code).toBe(-32601);
    const legacy = await WireClient.connect((await served()).server, "2025-11-25");
    await legacy.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "legacy", version: "1" },
    });
    const init = legacy.received.find((m) => m["result"]?.capabilities);
    expect(init?.["result"].capabilities.extensions).toBeUndefined();
    const list = await legacy.request("skills/list", {});
    expect(list["error"]?.code).toBe(-32601);
    expect(client.problems).toEqual([]);
  });
});
