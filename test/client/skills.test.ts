// The skills extension on the host's side (runtime/client/skills.ts) against
// mcpgen's server serving a skills directory over Streamable HTTP (2026-07-28).
// What the client sends is recorded through the transport's fetch, and an
// intermediary that rewrites resources/read answers stands in for a server
// whose files no longer match its entries: lazy retrieval, verification of
// size, digest and frontmatter, reads held to the entry's files.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { McpServer } from "mcpgen/server";
import { serveHttp } from "mcpgen/http";
import { Client, SkillsClient, SkillVerificationError, StreamableHttpClientTransport, type Skill } from "mcpgen/client";
import { tempDir } from "../helpers.js";

const SKILL_MD =
  "---\nname: pdf-processing\ndescription: Extract text from PDFs.\nmetadata:\n  version: 2\n---\n\nRead references/FORMS.md.\n";
const FILES: Record<string, string | Buffer> = {
  "pdf-processing/SKILL.md": SKILL_MD,
  "pdf-processing/references/FORMS.md": "# Forms\n",
  "pdf-processing/assets/logo.bin": Buffer.from([0, 1, 2, 255]),
};

/** Rewrites the text of a resources/read answer for one URI (an intermediary, or a server whose file changed). */
type Tamper = (uri: string, text: string) => string;

let handle: Awaited<ReturnType<typeof serveHttp>>;
beforeAll(async () => {
  const root = tempDir();
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const server = new McpServer({ name: "skills", version: "1.0.0" });
  await server.skills(root);
  handle = await serveHttp(server);
});
afterAll(async () => {
  await handle.close();
});

/** A client with the skills extension; `sent` lists each request as "method name". */
async function connect(tamper?: Tamper) {
  const sent: string[] = [];
  const record: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const method = headers.get("mcp-method");
    if (init?.method === "POST" && method) sent.push([method, headers.get("mcp-name")].filter(Boolean).join(" "));
    const response = await fetch(input, init);
    if (!tamper || method !== "resources/read") return response;
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { result: { contents: { uri: string; text?: string }[] } };
    for (const content of body.result.contents)
      if (typeof content.text === "string") content.text = tamper(content.uri, content.text);
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
  const client = await Client.connect(new StreamableHttpClientTransport(handle.url, { fetch: record }), {
    extensions: ["skills"],
  });
  return { client, skills: new SkillsClient(client), sent };
}

const reads = (sent: string[]) => sent.filter((s) => s.startsWith("resources/read"));

describe("SkillsClient", () => {
  test("list and get read no file; load reads the SKILL.md alone; each further file is read when asked, verified", async () => {
    const { client, skills, sent } = await connect();
    try {
      expect(skills.offered).toBe(true);
      const [entry] = await skills.list();
      expect(entry!.uri).toBe("skill://pdf-processing/SKILL.md");
      expect(await skills.get(entry!.uri)).toEqual(entry);
      expect(reads(sent)).toEqual([]); // #lazy-retrieval: not on listing

      const skill = await skills.load(entry!);
      expect(reads(sent)).toEqual(["resources/read skill://pdf-processing/SKILL.md"]);
      expect(skill.skillFile.text).toBe(SKILL_MD);
      expect(skill.files).toEqual(expect.arrayContaining(["skill://pdf-processing/references/FORMS.md"]));

      // A relative reference resolves against the skill's root (#relative-references); a blob is verified as bytes.
      expect((await skill.read("references/FORMS.md")).text).toBe("# Forms\n");
      expect([...(await skill.read("./assets/../assets/logo.bin")).bytes]).toEqual([0, 1, 2, 255]);
      await skill.read("references/FORMS.md"); // verified once, then held
      expect(reads(sent)).toEqual([
        "resources/read skill://pdf-processing/SKILL.md",
        "resources/read skill://pdf-processing/references/FORMS.md",
        "resources/read skill://pdf-processing/assets/logo.bin",
      ]);
    } finally {
      await client.close();
    }
  });

  test("a file the held entry does not list is refused before any request (#the-acting-window-and-the-held-entry)", async () => {
    const { client, skills, sent } = await connect();
    try {
      const skill = await skills.load((await skills.list())[0]!);
      const before = sent.length;
      for (const reference of ["references/NEW.md", "../other-skill/SKILL.md", "skill://other/SKILL.md"]) {
        const error = await skill.read(reference).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SkillVerificationError);
        expect((error as SkillVerificationError).reason).toBe("unlisted");
      }
      expect(sent.length).toBe(before);
    } finally {
      await client.close();
    }
  });

  const cases: [string, Tamper, RegExp][] = [
    [
      "digest",
      (_uri, text) => text.replace("Read", "Kill") /* same length */,
      /hashes to sha256:[0-9a-f]{64}, its entry says/,
    ],
    ["size", (_uri, text) => text + "more\n", /is \d+ bytes, its entry says \d+/],
  ];
  for (const [reason, tamper, message] of cases) {
    test(`SKILL.md failing its ${reason}: not loaded, nothing more read (#verification-on-read)`, async () => {
      const { client, skills, sent } = await connect(tamper);
      try {
        const error = await skills.load((await skills.list())[0]!).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SkillVerificationError);
        expect(error).toMatchObject({ reason, uri: "skill://pdf-processing/SKILL.md" });
        expect(String(error)).toMatch(message);
        expect(reads(sent)).toEqual(["resources/read skill://pdf-processing/SKILL.md"]);
      } finally {
        await client.close();
      }
    });
  }

  test("a supporting file failing its digest is not returned; the skill's other files still are", async () => {
    const { client, skills } = await connect((uri, text) =>
      uri.endsWith("FORMS.md") ? "# Fakes\n" /* same length */ : text,
    );
    try {
      const skill = await skills.load((await skills.list())[0]!);
      await expect(skill.read("references/FORMS.md")).rejects.toMatchObject({ reason: "digest" });
      expect([...(await skill.read("assets/logo.bin")).bytes]).toEqual([0, 1, 2, 255]);
    } finally {
      await client.close();
    }
  });

  test("frontmatter that differs from the entry's fails even when size and digest match (#frontmatter-verification)", async () => {
    const { client, skills, sent } = await connect();
    try {
      const entry = (await skills.list())[0]!;
      // The entry a server would publish for SKILL.md as it is, with one frontmatter field changed.
      const forged: Skill = { ...entry, frontmatter: { ...entry.frontmatter, description: "Exfiltrate credentials" } };
      const error = await skills.load(forged).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "SkillVerificationError", reason: "frontmatter" });
      expect(String(error)).toMatch(/frontmatter field "description" is "Extract text from PDFs\." in SKILL\.md/);
      const extra: Skill = { ...entry, frontmatter: { ...entry.frontmatter, license: "MIT" } };
      await expect(skills.load(extra)).rejects.toMatchObject({ reason: "frontmatter" });
      const nested: Skill = { ...entry, frontmatter: { ...entry.frontmatter, metadata: { version: "2" } } };
      await expect(skills.load(nested)).rejects.toMatchObject({ reason: "frontmatter" });
      expect(reads(sent)).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  test("entries that may not be loaded are refused before any read (#skill-entries, #resources, #limits)", async () => {
    const { client, skills, sent } = await connect();
    try {
      const entry = (await skills.list())[0]!;
      const files = entry.resources as Exclude<Skill["resources"], "dynamic">;
      const refused: [Skill, string][] = [
        [{ ...entry, resources: "dynamic" }, "dynamic"],
        [{ ...entry, resources: files.filter((r) => r.uri !== entry.uri) }, "entry"],
        [{ ...entry, resources: [...files, { ...files[0]!, uri: "skill://elsewhere/x.md" }] }, "entry"],
        [{ ...entry, frontmatter: { ...entry.frontmatter, name: "other-name" } }, "entry"],
        [
          { ...entry, resources: [...files, { uri: `${entry.uri}.big`, digest: files[0]!.digest, size: 2 ** 25 }] },
          "limits",
        ],
      ];
      for (const [skill, reason] of refused)
        await expect(skills.load(skill)).rejects.toMatchObject({ name: "SkillVerificationError", reason });
      expect(reads(sent)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

test("without the extension in its capabilities, skills/list is not sent (#capability-negotiation)", async () => {
  const server = new McpServer({ name: "no-skills", version: "1.0.0" });
  server.tool("t", {}, () => "t");
  const plain = await serveHttp(server);
  const client = await Client.connect(new StreamableHttpClientTransport(plain.url), { extensions: ["skills"] });
  try {
    const skills = new SkillsClient(client);
    expect(skills.offered).toBe(false);
    await expect(skills.list()).rejects.toThrow(/did not declare io\.modelcontextprotocol\/skills/);
  } finally {
    await client.close();
    await plain.close();
  }
});

test("a client not given the extension does not send its methods: -32601 naming ClientOptions.extensions", async () => {
  const client = await Client.connect(new StreamableHttpClientTransport(handle.url));
  try {
    const error = await new SkillsClient(client).list().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "McpError", code: -32601 });
    expect(String(error)).toMatch(/skills\/list is not an extension method of revision 2026-07-28 .*extensions: none/);
  } finally {
    await client.close();
  }
});
