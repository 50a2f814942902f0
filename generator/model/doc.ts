import type { Doc } from "./types.js";

/** The text of the first tag with this name, or undefined. */
export function docTag(doc: Doc, name: string): string | undefined {
  return doc.tags.find((t) => t.name === name)?.text;
}

export function hasDocTag(doc: Doc, name: string): boolean {
  return doc.tags.some((t) => t.name === name);
}

/** The @category of a declaration without the backticks upstream puts around method names. */
export function docCategory(doc: Doc): string | undefined {
  return docTag(doc, "category")?.replace(/`/g, "").trim();
}
