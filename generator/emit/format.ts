import { format } from "prettier";

/**
 * Formats generated TypeScript. Options are spelled out, not read from any
 * config file, and prettier's version is pinned in package.json, so the output
 * is the same bytes wherever it is generated.
 */
export function formatTypeScript(source: string): Promise<string> {
  return format(source, {
    parser: "typescript",
    printWidth: 100,
    tabWidth: 2,
    useTabs: false,
    semi: true,
    singleQuote: false,
    trailingComma: "all",
    bracketSpacing: true,
    arrowParens: "always",
    endOfLine: "lf",
  });
}
