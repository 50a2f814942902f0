// The skills extension on the host's side (io.modelcontextprotocol/skills,
// SEP-2640, extensions/skills/skills.mdx), for a client given the "skills"
// extension (ClientOptions.extensions). What it guarantees:
// - lazy retrieval (#lazy-retrieval): listing and getting entries reads no
//   file; load() reads the SKILL.md and nothing else; a supporting file is
//   read when read() asks for it;
// - verification on read (#verification-on-read): every file is checked
//   against the held entry's size (first, #resources: a size mismatch fails
//   "whether or not the host goes on to compute the digest") and digest, and
//   a SKILL.md's frontmatter against the entry's field by field
//   (#frontmatter-verification); content that fails is never returned;
// - the held entry (#the-acting-window-and-the-held-entry): a loaded skill
//   reads only the files its entry lists; any other is a verification failure,
//   refused before anything is sent.
// Approval, origin tagging and what reaches the model are the host's; the
// entry (LoadedSkill.entry) is what an approval binds to.
import { createHash } from "node:crypto";
import { isObject } from "../validation.js";
import type { Client } from "./client.js";
import type { RequestOptions } from "./connection.js";
import type { Skill, SkillResource } from "../../generated/ext/skills/types.js";
import { loadYaml } from "../optional-yaml.js";

export type { Skill, SkillResource };

/** The extension's identifier, the key in capabilities.extensions (#extension-identifier). */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** #limits: what every host must support, and what this one accepts at most. */
export const SKILL_LIMITS = { resources: 512, totalBytes: 16 * 1024 * 1024 } as const;

/** Why a skill or one of its files was refused. */
export type SkillFailure =
  | "entry" // the entry breaks a rule of #skill-entries (its SKILL.md unlisted, a file outside the skill, ...)
  | "limits" // more files or bytes than SKILL_LIMITS (#limits)
  | "dynamic" // resources is "dynamic" and allowDynamic is off (#resources: hosts MAY decline)
  | "unlisted" // a file the held entry does not list (#the-acting-window-and-the-held-entry)
  | "missing" // resources/read answered without content for the URI
  | "size" // byte length differs from the entry's size
  | "digest" // SHA-256 differs from the entry's digest
  | "frontmatter"; // SKILL.md's frontmatter differs from the entry's, or is not readable YAML

/** A skill or skill file that failed verification: its content is not used (#verification-on-read). */
export class SkillVerificationError extends Error {
  override name = "SkillVerificationError";
  constructor(
    readonly uri: string,
    readonly reason: SkillFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface SkillsOptions {
  /**
   * Load skills whose entry's resources is "dynamic" (no digests: only the
   * frontmatter is verified, and at most SKILL_LIMITS.totalBytes are read).
   * Default false: such skills are declined (#resources, hosts MAY decline).
   */
  allowDynamic?: boolean;
  /** Options of every request (timeout, signal). */
  request?: RequestOptions;
}

/** A verified file of a loaded skill. */
export interface SkillFile {
  readonly uri: string;
  /** The raw bytes the digest covers. */
  readonly bytes: Uint8Array;
  /** The text, when the server sent the file as text. */
  readonly text?: string;
  readonly mimeType?: string;
}

/** The skills a server serves. */
export class SkillsClient {
  constructor(
    private readonly client: Client,
    private readonly options: SkillsOptions = {},
  ) {}

  /** Whether the server declared the extension (#capability-negotiation), as far as the client knows its capabilities. */
  get offered(): boolean {
    const extensions = (this.client.serverCapabilities as { extensions?: unknown } | undefined)?.extensions;
    return isObject(extensions) && isObject(extensions[SKILLS_EXTENSION]);
  }

  /** Every entry of the server's listing, all pages (#listing-skills). Reads no file. */
  async list(): Promise<Skill[]> {
    await this.requireOffered("skills/list");
    const skills: Skill[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await this.client.requestExtension("skills/list", cursor ? { cursor } : {}, this.options.request);
      skills.push(...(result["skills"] as Skill[]));
      cursor = typeof result["nextCursor"] === "string" ? result["nextCursor"] : undefined;
      if (!cursor) break;
    }
    return skills;
  }

  /** The entry of one skill, by its SKILL.md's URI (#getting-a-skill). Reads no file. */
  async get(uri: string): Promise<Skill> {
    await this.requireOffered("skills/get");
    const result = await this.client.requestExtension("skills/get", { uri }, this.options.request);
    return result["skill"] as Skill;
  }

  /**
   * Loads a skill: checks its entry, reads its SKILL.md and verifies it
   * (size, digest, frontmatter). Throws SkillVerificationError, having used
   * nothing of the content, when any check fails.
   */
  async load(entry: Skill): Promise<LoadedSkill> {
    const manifest = checkEntry(entry, this.options.allowDynamic === true);
    const skill = new LoadedSkill(entry, manifest, (uri) => this.client.readResource(uri, this.options.request));
    const file = await skill.read(entry.uri);
    await verifyFrontmatter(entry, file);
    return skill;
  }

  private async requireOffered(method: string): Promise<void> {
    // #capability-negotiation: "Clients issue skills/list and skills/get only after observing the server's declaration."
    // A modern server whose era was known without a probe (cached) has not been described yet: server/discover does.
    if (!this.client.serverCapabilities && this.client.era === "modern")
      await this.client.request("server/discover", {}, this.options.request);
    if (!this.offered)
      throw new Error(
        `${method}: the server did not declare ${SKILLS_EXTENSION} in its capabilities (revision ${this.client.revision.name})`,
      );
  }
}

type ReadResource = (uri: string) => Promise<{ contents: readonly unknown[] }>;

/** A skill the host acts on: its held entry, its SKILL.md, and verified reads of the files the entry lists. */
export class LoadedSkill {
  /** The skill's root: its SKILL.md's URI without "/SKILL.md" (#resource-mapping). */
  readonly root: string;
  private readonly cache = new Map<string, SkillFile>();
  private dynamicBytes = 0;

  constructor(
    readonly entry: Skill,
    private readonly manifest: ReadonlyMap<string, SkillResource> | "dynamic",
    private readonly readResource: ReadResource,
  ) {
    this.root = entry.uri.slice(0, -"/SKILL.md".length);
  }

  /** The URIs of the skill's files, as the held entry lists them ("dynamic": unknown). */
  get files(): readonly string[] | "dynamic" {
    return this.manifest === "dynamic" ? "dynamic" : [...this.manifest.keys()];
  }

  /** The verified SKILL.md. */
  get skillFile(): SkillFile {
    return this.cache.get(this.entry.uri)!;
  }

  /**
   * A file of the skill, by URI or by a path relative to the skill's root
   * (#relative-references), verified against the held entry. A file the
   * entry does not list is refused without a request.
   */
  async read(reference: string): Promise<SkillFile> {
    const uri = this.resolve(reference);
    const cached = this.cache.get(uri);
    if (cached) return cached;
    if (uri !== this.entry.uri && !uri.startsWith(`${this.root}/`))
      throw new SkillVerificationError(uri, "unlisted", `${uri} is not a file of the skill ${this.entry.uri}: refused`);
    const listed = this.manifest === "dynamic" ? undefined : this.manifest.get(uri);
    if (this.manifest !== "dynamic" && !listed)
      throw new SkillVerificationError(
        uri,
        "unlisted",
        `${uri} is not among the files the entry of ${this.entry.uri} lists: refused (#the-acting-window-and-the-held-entry)`,
      );
    const result = await this.readResource(uri);
    const content = result.contents.find((item) => isObject(item) && item["uri"] === uri) as
      { uri: string; text?: string; blob?: string; mimeType?: string } | undefined;
    if (!content || (typeof content.text !== "string" && typeof content.blob !== "string"))
      throw new SkillVerificationError(uri, "missing", `resources/read of ${uri} answered no content for that URI`);
    const bytes =
      typeof content.text === "string" ? Buffer.from(content.text, "utf8") : Buffer.from(content.blob!, "base64");
    if (listed) {
      if (bytes.byteLength !== listed.size)
        throw new SkillVerificationError(
          uri,
          "size",
          `${uri} is ${bytes.byteLength} bytes, its entry says ${listed.size}: not used (#verification-on-read)`,
        );
      const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
      if (digest !== listed.digest)
        throw new SkillVerificationError(
          uri,
          "digest",
          `${uri} hashes to ${digest}, its entry says ${listed.digest}: not used (#verification-on-read)`,
        );
    } else {
      // A dynamic skill: #limits, "applies the total-size limit to what it actually retrieves".
      this.dynamicBytes += bytes.byteLength;
      if (this.dynamicBytes > SKILL_LIMITS.totalBytes)
        throw new SkillVerificationError(
          uri,
          "limits",
          `the dynamic skill ${this.entry.uri} has retrieved more than ${SKILL_LIMITS.totalBytes} bytes (#limits)`,
        );
    }
    const file: SkillFile = {
      uri,
      bytes,
      ...(typeof content.text === "string" ? { text: content.text } : {}),
      ...(typeof content.mimeType === "string" ? { mimeType: content.mimeType } : {}),
    };
    this.cache.set(uri, file);
    return file;
  }

  /** A reference as a URI within the skill: absolute URIs as they are, relative paths against the root. */
  private resolve(reference: string): string {
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(reference)) return reference;
    const segments: string[] = [];
    for (const segment of reference.split("/")) {
      if (segment === "" || segment === ".") continue;
      if (segment === "..") {
        if (segments.length === 0)
          throw new SkillVerificationError(
            reference,
            "unlisted",
            `${reference} leads out of the skill ${this.root} (#relative-references)`,
          );
        segments.pop();
      } else segments.push(segment);
    }
    return `${this.root}/${segments.join("/")}`;
  }
}

/** The entry's files by URI ("dynamic" when allowed), or why the entry may not be loaded (#skill-entries, #limits). */
function checkEntry(entry: Skill, allowDynamic: boolean): ReadonlyMap<string, SkillResource> | "dynamic" {
  const fail = (message: string, reason: SkillFailure = "entry") => {
    throw new SkillVerificationError(entry.uri, reason, `the skill ${entry.uri} is not loaded: ${message}`);
  };
  if (!entry.uri.endsWith("/SKILL.md")) fail("its uri does not name a SKILL.md (#skill-uris)");
  const root = entry.uri.slice(0, -"/SKILL.md".length);
  const name = root.split("/").at(-1);
  if (name !== entry.frontmatter.name)
    fail(`the last segment of its path, ${JSON.stringify(name)}, is not its frontmatter name (#frontmatter)`);
  if (entry.resources === "dynamic") {
    if (!allowDynamic)
      fail(`its resources are "dynamic": no digests to verify its content against (#resources)`, "dynamic");
    return "dynamic";
  }
  if (entry.resources.length > SKILL_LIMITS.resources)
    fail(`it lists ${entry.resources.length} files, more than ${SKILL_LIMITS.resources} (#limits)`, "limits");
  const manifest = new Map<string, SkillResource>();
  let total = 0;
  for (const resource of entry.resources) {
    if (manifest.has(resource.uri)) fail(`it lists ${resource.uri} twice (#resources: each exactly once)`);
    if (resource.uri !== entry.uri && !resource.uri.startsWith(`${root}/`))
      fail(`it lists ${resource.uri}, which is not a file of the skill (#resources)`);
    manifest.set(resource.uri, resource);
    total += resource.size;
  }
  if (total > SKILL_LIMITS.totalBytes)
    fail(`its files total ${total} bytes, more than ${SKILL_LIMITS.totalBytes} (#limits)`, "limits");
  if (!manifest.has(entry.uri)) fail("its resources do not list its own SKILL.md (#resources)");
  return manifest;
}

/** #frontmatter-verification: the SKILL.md's YAML frontmatter, parsed, equals the entry's field by field. */
async function verifyFrontmatter(entry: Skill, file: SkillFile): Promise<void> {
  const fail = (message: string): never => {
    throw new SkillVerificationError(
      entry.uri,
      "frontmatter",
      `${entry.uri}: ${message}; the skill is not loaded (#frontmatter-verification)`,
    );
  };
  const text = file.text ?? new TextDecoder("utf-8").decode(file.bytes);
  const match = /^(?:\uFEFF)?---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!match) return fail("it does not begin with YAML frontmatter between --- lines");
  let parsed: unknown;
  try {
    parsed = (await loadYaml("loading a skill reads its SKILL.md frontmatter"))(match[1]!, { schema: "core" });
  } catch (error) {
    return fail(`its frontmatter is not valid YAML (${(error as Error).message.split("\n")[0]})`);
  }
  if (!isObject(parsed)) return fail("its frontmatter is not a YAML mapping");
  const expected = entry.frontmatter as Record<string, unknown>;
  for (const key of new Set([...Object.keys(parsed), ...Object.keys(expected)])) {
    if (!sameJson(parsed[key], expected[key]))
      fail(
        `frontmatter field ${JSON.stringify(key)} is ${JSON.stringify(parsed[key]) ?? "absent"} in SKILL.md, ${JSON.stringify(expected[key]) ?? "absent"} in the entry`,
      );
  }
}

/** Deep equality of JSON values (object member order aside). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
    );
  }
  return false;
}
