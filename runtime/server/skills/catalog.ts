// What a server answers for a directory of skills (the
// io.modelcontextprotocol/skills extension, skills.mdx): the entries of
// skills/list and skills/get, each file as a resource, and the directory
// resources resources/directory/read lists. Built once from the loaded skills
// (skills/load.ts); the bytes served are the bytes digested, so an entry and a read
// always agree.
import { invalidParams } from "../errors.js";
import { paginate, withCursor } from "../features/pagination.js";
import type { LoadedSkill, SkillFile } from "./load.js";

/** #reading-directories: a directory resource's mimeType. */
export const DIRECTORY_MIME_TYPE = "inode/directory";

/** A file or directory as resources/list and resources/directory/read describe it. */
export interface SkillResourceMetadata {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType: string;
  readonly size?: number;
}

const SCHEME = "skill://";

export class SkillCatalog {
  /** Every file once (a nested skill's files belong to the enclosing skill too), by URI. */
  readonly files: ReadonlyMap<string, { readonly file: SkillFile; readonly metadata: SkillResourceMetadata }>;
  private readonly entries: ReadonlyMap<string, LoadedSkill["entry"]>;
  /** Directory URI (no trailing slash, #directory-resources) → its direct children, sorted by URI. */
  private readonly directories = new Map<string, SkillResourceMetadata[]>();

  constructor(readonly skills: readonly LoadedSkill[]) {
    this.entries = new Map(skills.map((s) => [s.entry.uri, s.entry]));
    const files = new Map<string, { file: SkillFile; metadata: SkillResourceMetadata }>();
    for (const skill of skills)
      for (const file of skill.files) {
        const own = this.entries.get(file.uri); // a SKILL.md: its own skill names it (#resource-metadata)
        const metadata = own
          ? {
              uri: file.uri,
              name: own.frontmatter.name,
              description: own.frontmatter.description,
              mimeType: "text/markdown",
              size: file.size,
            }
          : {
              uri: file.uri,
              name: file.uri.slice(file.uri.lastIndexOf("/") + 1),
              mimeType: file.mimeType,
              size: file.size,
            };
        if (!files.has(file.uri) || own) files.set(file.uri, { file, metadata });
      }
    this.files = files;
    for (const { metadata } of files.values()) this.addToDirectories(metadata);
    for (const children of this.directories.values())
      children.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  /** The extension's methods (#listing-skills, #getting-a-skill, #reading-directories), in its own shapes. */
  handlers(options: {
    readonly pageSize: number;
    readonly cache: { readonly ttlMs: number; readonly cacheScope: string };
    readonly directoryRead: boolean;
  }): { [method: string]: (params: any) => unknown } {
    const { pageSize, cache } = options;
    const handlers: { [method: string]: (params: any) => unknown } = {
      "skills/list": (params: { cursor?: string }) => {
        const page = paginate(this.list, params.cursor, pageSize);
        return withCursor({ skills: page.items, ...cache }, page.nextCursor);
      },
      "skills/get": (params: { uri: string }) => ({ skill: this.entry(params.uri), ...cache }),
    };
    if (options.directoryRead)
      handlers["resources/directory/read"] = (params: { uri: string; cursor?: string }) => {
        const page = paginate(this.directory(params.uri), params.cursor, pageSize);
        return withCursor({ resources: page.items }, page.nextCursor);
      };
    return handlers;
  }

  /** The entries in skills/list order (by URI). */
  get list(): readonly LoadedSkill["entry"][] {
    return this.skills.map((s) => s.entry);
  }

  /** skills/get: the entry of the skill whose SKILL.md is `uri`, or -32602 (#getting-a-skill). */
  entry(uri: string): LoadedSkill["entry"] {
    const entry = this.entries.get(uri);
    if (!entry) throw invalidParams(`No skill is served at ${uri}`, { uri });
    return entry;
  }

  /** resources/directory/read: a directory's direct children, or -32602 when `uri` is not a directory (#reading-directories). */
  directory(uri: string): readonly SkillResourceMetadata[] {
    const children = this.directories.get(uri);
    if (children) return children;
    throw invalidParams(
      this.files.has(uri) ? `${uri} is not a directory resource` : `No directory resource is served at ${uri}`,
      { uri },
    );
  }

  /** resources/read of a file: text when it is UTF-8 (byte for byte, BOM kept), else base64. */
  read(uri: string): {
    contents: ({ uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string })[];
  } {
    const found = this.files.get(uri)!;
    const { bytes } = found.file;
    const { mimeType } = found.metadata;
    let text: string | undefined;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      text = undefined;
    }
    return {
      contents: [
        text !== undefined && !text.includes("\u0000")
          ? { uri, mimeType, text }
          : { uri, mimeType, blob: Buffer.from(bytes).toString("base64") },
      ],
    };
  }

  /** Lists a file under every directory above it, each directory under its parent. */
  private addToDirectories(metadata: SkillResourceMetadata): void {
    const segments = metadata.uri.slice(SCHEME.length).split("/");
    let child = metadata;
    for (let depth = segments.length - 1; depth >= 1; depth--) {
      const uri = SCHEME + segments.slice(0, depth).join("/");
      let children = this.directories.get(uri);
      const known = children !== undefined;
      if (!children) this.directories.set(uri, (children = []));
      if (!children.some((c) => c.uri === child.uri)) children.push(child);
      if (known) return; // its parents list it already
      child = { uri, name: segments[depth - 1]!, mimeType: DIRECTORY_MIME_TYPE };
    }
  }
}
