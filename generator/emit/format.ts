import { format, type Options } from "prettier";
import type { GeneratedFile, OutputFile } from "./printer.js";

/**
 * prettier's options for the generated files people read. They are spelled
 * out, not read from any config file, and prettier's version is pinned in
 * package.json, so the output is the same bytes wherever it is generated.
 */
export const prettierOptions: Options = {
  parser: "babel-ts",
  printWidth: 100,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
};

/** Formats TypeScript source with prettier. */
export function formatTypeScript(source: string): Promise<string> {
  return format(source, prettierOptions);
}

/** A generated file's final text: formatted by prettier, or as the emitters laid it out. */
export async function outputOf(file: GeneratedFile): Promise<OutputFile> {
  const text = file.toString();
  return { path: file.path, content: file.layout === "prettier" ? await formatTypeScript(text) : text };
}
