// A directory of skills (the io.modelcontextprotocol/skills extension,
// skills.mdx) read into the entries skills/list and skills/get answer and the
// files resources/read serves. Every directory holding a SKILL.md is a skill
// (#nested-skills: at any depth); its path below the root is its <skill-path>,
// whose last segment must be its frontmatter name (#resource-mapping). A skill
// that breaks a rule fails here, naming the file and the rule, so that a bad
// directory stops at registration rather than serving something hosts reject.
import { builtinModule } from "../../builtin.js";
import { nodeCrypto } from "../../node-crypto.js";
import { loadYaml, type ParseYaml } from "../../optional-yaml.js";

// Loaded when a skill is first read: a server without skills never needs it (start-up time).
const fs = async () => builtinModule<typeof import("node:fs/promises")>("node:fs/promises");
const nodePath = () => builtinModule<typeof import("node:path")>("node:path");

/** A file of a skill as the entries list it and resources/read serves it. */
export interface SkillFile {
  /** skill://<skill-path>/<file-path> */
  readonly uri: string;
  /** Where it is on disk. */
  readonly path: string;
  /** The bytes read (and digested) at load: what resources/read serves, so that digest and content agree. */
  readonly bytes: Uint8Array;
  /** #skill-entries: `sha256:<64 lowercase hex>` of the raw bytes. */
  readonly digest: string;
  /** Bytes. */
  readonly size: number;
  readonly mimeType: string;
}

/** One skill: its entry and its files (SKILL.md first). */
export interface LoadedSkill {
  /** The entry skills/list and skills/get return (#skill-entries). */
  readonly entry: {
    readonly uri: string;
    readonly frontmatter: { readonly name: string; readonly description: string; readonly [key: string]: unknown };
    readonly resources: readonly { readonly uri: string; readonly digest: string; readonly size: number }[];
  };
  readonly files: readonly SkillFile[];
}

/** A skill directory that breaks a rule of the extension or of the Agent Skills format. */
export class SkillError extends Error {
  override name = "SkillError";
  constructor(
    /** The file (or directory) at fault. */
    readonly file: string,
    /** The rule, with the section it comes from. */
    readonly rule: string,
  ) {
    super(`${file}: ${rule}`);
  }
}

/** #limits: what every conforming host accepts; a server SHOULD NOT serve more. */
export const SKILL_LIMITS = { resources: 512, totalBytes: 16 * 1024 * 1024 } as const;

/** Agent Skills `name`: 1-64 lowercase letters, digits and hyphens, no hyphen at either end or twice in a row. */
const NAME = /^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/;

/** Reads every skill under `root`, sorted by URI. Throws SkillError on the first rule broken. */
export async function loadSkills(root: string): Promise<LoadedSkill[]> {
  const parseYaml = await loadYaml("server.skills() reads SKILL.md frontmatter");
  const files = await listFiles(root);
  const skillDirs = files
    .filter((f) => f === "SKILL.md" || f.endsWith("/SKILL.md"))
    .map((f) => f.slice(0, -"SKILL.md".length));
  if (skillDirs.some((dir) => dir === ""))
    throw new SkillError(
      nodePath().join(root, "SKILL.md"),
      "a skill is a directory below the root: its path is the skill's <skill-path> (#resource-mapping)",
    );
  const skills: LoadedSkill[] = [];
  for (const dir of skillDirs.sort()) {
    const skillPath = dir.slice(0, -1); // without the trailing "/"
    const own = files.filter((f) => f.startsWith(dir));
    skills.push(await loadSkill(root, skillPath, own, parseYaml));
  }
  return skills.sort((a, b) => (a.entry.uri < b.entry.uri ? -1 : a.entry.uri > b.entry.uri ? 1 : 0));
}

async function loadSkill(
  root: string,
  skillPath: string,
  paths: readonly string[],
  parseYaml: ParseYaml,
): Promise<LoadedSkill> {
  const skillMd = nodePath().join(root, ...skillPath.split("/"), "SKILL.md");
  const frontmatter = parseFrontmatter(skillMd, await (await fs()).readFile(skillMd, "utf8"), parseYaml);
  const name = frontmatter["name"];
  const segments = skillPath.split("/");
  if (typeof name !== "string" || !NAME.test(name))
    throw new SkillError(
      skillMd,
      `frontmatter name ${JSON.stringify(name)} must be 1-64 lowercase letters, digits and hyphens, not starting or ending with a hyphen, without "--" (Agent Skills name field)`,
    );
  if (name !== segments.at(-1))
    throw new SkillError(
      skillMd,
      `frontmatter name "${name}" must equal the skill directory's name "${segments.at(-1)}" (#resource-mapping)`,
    );
  const description = frontmatter["description"];
  if (typeof description !== "string" || description.trim() === "" || description.length > 1024)
    throw new SkillError(skillMd, "frontmatter description must be a non-empty string of at most 1024 characters");
  if (paths.length > SKILL_LIMITS.resources)
    throw new SkillError(
      nodePath().join(root, ...segments),
      `${paths.length} files exceed the ${SKILL_LIMITS.resources} resources a host must accept per skill (#limits)`,
    );
  const uriOf = (path: string) => `skill://${path}`;
  const files: SkillFile[] = [];
  let total = 0;
  for (const path of paths) {
    const full = nodePath().join(root, ...path.split("/"));
    const bytes = await (await fs()).readFile(full);
    total += bytes.length;
    files.push({
      uri: uriOf(path),
      path: full,
      bytes,
      digest: `sha256:${nodeCrypto().createHash("sha256").update(bytes).digest("hex")}`,
      size: bytes.length,
      mimeType: mimeTypeOf(path),
    });
  }
  if (total > SKILL_LIMITS.totalBytes)
    throw new SkillError(
      nodePath().join(root, ...segments),
      `${total} bytes exceed the ${SKILL_LIMITS.totalBytes} a host must accept per skill (#limits)`,
    );
  const skillUri = uriOf(`${skillPath}/SKILL.md`);
  // SKILL.md first, then the rest in code-unit order of URI.
  files.sort((a, b) => (a.uri === skillUri ? -1 : b.uri === skillUri ? 1 : a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return {
    entry: {
      uri: skillUri,
      frontmatter: frontmatter as LoadedSkill["entry"]["frontmatter"],
      resources: files.map(({ uri, digest, size }) => ({ uri, digest, size })),
    },
    files,
  };
}

/** The YAML between the opening and closing `---` lines of a SKILL.md, as a JSON object. */
function parseFrontmatter(file: string, text: string, parseYaml: ParseYaml): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!match) throw new SkillError(file, "SKILL.md must begin with YAML frontmatter between --- lines (#skill-format)");
  let value: unknown;
  try {
    value = parseYaml(match[1]!, { schema: "core" });
  } catch (error) {
    throw new SkillError(file, `the frontmatter is not valid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new SkillError(file, "the frontmatter must be a YAML mapping (#frontmatter)");
  // #frontmatter: "rendered verbatim as a JSON object": a value JSON cannot carry is refused, not mangled.
  const json = JSON.stringify(value);
  if (json === undefined || JSON.stringify(JSON.parse(json)) !== json)
    throw new SkillError(file, "the frontmatter must be representable as JSON");
  return JSON.parse(json) as Record<string, unknown>;
}

/** Every regular file below `root`, "/"-separated and relative, sorted; links are not followed. */
async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const { lstat, readdir } = await fs();
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = nodePath().join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && (await lstat(full)).isFile())
        out.push(nodePath().relative(root, full).split(nodePath().sep).join("/"));
    }
  };
  await walk(root);
  return out.sort();
}

const MIME_TYPES: { readonly [extension: string]: string } = {
  md: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  py: "text/x-python",
  js: "text/javascript",
  ts: "text/x-typescript",
  sh: "application/x-sh",
  html: "text/html",
  csv: "text/csv",
  xml: "application/xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  pdf: "application/pdf",
};

/** #resource-metadata: SKILL.md is text/markdown; other files by their extension. */
function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  const extension = dot > path.lastIndexOf("/") ? path.slice(dot + 1).toLowerCase() : "";
  return MIME_TYPES[extension] ?? "application/octet-stream";
}
