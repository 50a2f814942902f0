// The upstream history of schema/draft/schema.ts: <date>-<sha8>.ts and the
// .schema.json upstream generated from it, at each commit that changed them
// ($MCP_SPEC_DIR/../history/draft, SOURCE.md beside it). Each state is a
// revision mcpgen has never seen.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SchemaSource } from "../../generator/generate.js";
import { sha256 } from "../../generator/lock/lock.js";
import { projectRoot } from "../helpers.js";

export interface HistoryState {
  /** `<date>-<sha8>`, the files' name. */
  id: string;
  /** The commit date, YYYY-MM-DD: the first name the state is generated under. */
  date: string;
  commit: string;
  /** schema.ts, as upstream wrote it. */
  schemaTs: string;
  /** The schema.json upstream generated from it in the same commit. */
  schemaJson: string;
}

/** A name after every pinned revision ("draft" included): the second name each state is generated under. */
export const laterName = "next";

/**
 * The history folder, or undefined when MCP_SPEC_DIR is unset and the default
 * has none; with MCP_SPEC_DIR set, a missing folder is an error naming it.
 */
export function historyFolder(): string | undefined {
  const specDir = process.env["MCP_SPEC_DIR"];
  const folder = resolve(projectRoot, specDir ?? "../shared/mcp-spec/schema", "..", "history", "draft");
  if (existsSync(folder)) return folder;
  if (specDir !== undefined)
    throw new Error(`${folder} is missing: MCP_SPEC_DIR=${specDir} has no history/draft/ beside it`);
  return undefined;
}

/** Every state, oldest first. */
export function historyStates(folder: string): HistoryState[] {
  return readdirSync(folder)
    .filter((name) => /^\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.ts$/.test(name))
    .sort()
    .map((name) => {
      const id = name.slice(0, -".ts".length);
      return {
        id,
        date: id.slice(0, 10),
        commit: id.slice(11),
        schemaTs: join(folder, name),
        schemaJson: join(folder, `${id}.schema.json`),
      };
    });
}

/** A state as a schema source under `revision`: never pinned. */
export function stateSource(state: HistoryState, revision: string): SchemaSource {
  const bytes = readFileSync(state.schemaTs);
  return {
    revision,
    file: `history/draft/${state.id}.ts`,
    text: bytes.toString("utf8"),
    sha256: sha256(bytes),
    commit: state.commit,
    locked: false,
  };
}
