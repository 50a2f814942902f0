/**
 * The skills extension (io.modelcontextprotocol/skills, SEP-2640) as a schema.
 *
 * Its upstream (modelcontextprotocol/ext-skills at 0682b7b6,
 * specification/stable/skills.mdx) publishes no schema.ts: the types are written
 * out in the prose. This file is mcpgen's transcription of them, reviewed like
 * generator/overlay/, and generated like any extension. Every declaration cites
 * the section it comes from. Where it departs from the prose's snippets, the
 * comment says why; every such departure makes the snippet a whole message of
 * the base revision (2026-07-28, "Protocol Revision": type names the prose uses
 * without defining are the base schema's).
 */

import type {
  CacheableResult,
  Cursor,
  JSONRPCRequest,
  PaginatedRequest,
  PaginatedResult,
  RequestParams,
  Resource,
} from "./spec.types.js";

/**
 * A file belonging to a skill, with the digest and size of its content.
 *
 * skills.mdx#skill-entries
 *
 * @category `skills`
 */
export interface SkillResource {
  /** Resource URI of the file. */
  uri: string;

  /**
   * SHA-256 digest of the file's raw bytes, formatted as `sha256:{hex}`
   * where {hex} is 64 lowercase hexadecimal characters.
   *
   * @pattern ^sha256:[0-9a-f]{64}$
   */
  digest: string;

  /**
   * Length in bytes of the file's raw content (the same bytes that `digest` covers).
   *
   * @TJS-type integer
   * @minimum 0
   */
  size: number;
}

/**
 * The entry for a single skill, returned by both skills/list and skills/get.
 *
 * skills.mdx#skill-entries
 *
 * @category `skills`
 */
export interface Skill {
  /** Resource URI of the skill's SKILL.md, readable via resources/read. */
  uri: string;

  /**
   * The skill's SKILL.md YAML frontmatter, rendered verbatim as a JSON object.
   * `name` and `description` are always present; every other field the author
   * wrote passes through unchanged.
   */
  frontmatter: SkillFrontmatter;

  /**
   * The skill's files: a complete enumeration of SKILL.md and every supporting
   * file, or the string "dynamic" when the skill's content is generated such
   * that stable digests cannot be published.
   */
  resources: SkillResource[] | "dynamic";
}

/**
 * A skill's frontmatter (inline in the prose's Skill; named here so that
 * handlers and clients can refer to it).
 *
 * skills.mdx#frontmatter
 *
 * @category `skills`
 */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [key: string]: unknown;
}

/**
 * skills.mdx#listing-skills
 *
 * @category `skills/list`
 */
export interface ListSkillsRequest extends PaginatedRequest {
  method: "skills/list";
}

/**
 * skills.mdx#listing-skills
 *
 * @category `skills/list`
 */
export interface ListSkillsResult extends PaginatedResult, CacheableResult {
  skills: Skill[];
}

/**
 * The params of skills/get (inline in the prose; extends RequestParams so that
 * the per-request `_meta` every 2026-07-28 request carries is checked).
 *
 * skills.mdx#getting-a-skill
 *
 * @category `skills/get`
 */
export interface GetSkillRequestParams extends RequestParams {
  /** URI of the skill's SKILL.md. */
  uri: string;
}

/**
 * skills.mdx#getting-a-skill (the prose extends Request, which has no `jsonrpc`
 * or `id`; a message extends JSONRPCRequest, as the base's requests do).
 *
 * @category `skills/get`
 */
export interface GetSkillRequest extends JSONRPCRequest {
  method: "skills/get";
  params: GetSkillRequestParams;
}

/**
 * skills.mdx#getting-a-skill
 *
 * @category `skills/get`
 */
export interface GetSkillResult extends CacheableResult {
  skill: Skill;
}

/**
 * The params of resources/directory/read (inline in the prose).
 *
 * skills.mdx#reading-directories
 *
 * @category `resources/directory/read`
 */
export interface ReadResourceDirectoryRequestParams extends RequestParams {
  /** URI of the directory resource to read. */
  uri: string;
  cursor?: Cursor;
}

/**
 * skills.mdx#reading-directories
 *
 * @category `resources/directory/read`
 */
export interface ReadResourceDirectoryRequest extends PaginatedRequest {
  method: "resources/directory/read";
  params: ReadResourceDirectoryRequestParams;
}

/**
 * skills.mdx#reading-directories
 *
 * @category `resources/directory/read`
 */
export interface ReadResourceDirectoryResult extends PaginatedResult {
  /** Resource metadata of the directory's direct children. */
  resources: Resource[];
}

/**
 * The extension's settings in `capabilities.extensions["io.modelcontextprotocol/skills"]`.
 *
 * skills.mdx#capability-negotiation
 *
 * @category `skills`
 */
export interface SkillsExtensionCapability {
  /** The server implements resources/directory/read. Default false. */
  directoryRead?: boolean;
}
