import type { Doc, DocTag } from "../model/types.js";

export const emptyDoc = (): Doc => ({ text: "", tags: [] });

/**
 * Reads the raw text of one JSDoc comment (`/** ... *\/`) into a description and
 * block tags. Inline tags such as `{@link X | y}` stay verbatim, so the comment
 * can be printed back unchanged.
 */
export function parseJsDoc(raw: string): Doc {
  const body = raw.replace(/^\/\*\*/, "").replace(/\*\/$/, "");
  const lines = body.split(/\r?\n/).map((line) => line.replace(/^\s*\* ?/, "").replace(/\s+$/, ""));
  // A one-line comment (`/** @internal */`) keeps its leading space after `/**`.
  if (lines.length === 1) lines[0] = lines[0]!.trim();

  const description: string[] = [];
  const tags: { name: string; lines: string[] }[] = [];
  for (const line of lines) {
    const tag = /^@([A-Za-z][\w-]*)\s?(.*)$/.exec(line);
    if (tag) tags.push({ name: tag[1]!, lines: [tag[2]!] });
    else if (tags.length > 0) tags[tags.length - 1]!.lines.push(line);
    else description.push(line);
  }
  return {
    text: trimBlankLines(description).join("\n"),
    tags: tags.map((t): DocTag => ({ name: t.name, text: trimBlankLines(t.lines).join("\n").trim() })),
  };
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end);
}
