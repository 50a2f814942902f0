import { Worker } from "node:worker_threads";
import { format, type Options } from "prettier";
import type { FilePart } from "./printer.js";
import { indentWidth, printWidth } from "./prettier-form.js";

/** Formats one generated TypeScript file. */
export type Formatter = (source: string) => Promise<string>;

/**
 * prettier's options for generated code. They are spelled out, not read from
 * any config file, and prettier's version is pinned in package.json, so the
 * output is the same bytes wherever it is generated. The babel-ts parser
 * gives the same output as the typescript parser on what mcpgen emits (a
 * test formats every generated file with both) in about 60% of the time.
 */
export const prettierOptions: Options = {
  parser: "babel-ts",
  printWidth,
  tabWidth: indentWidth,
  useTabs: false,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
};

/** Formats generated TypeScript in this thread. */
export const formatTypeScript: Formatter = (source) => format(source, prettierOptions);

/** What the pool's workers run: prettier's format on each message, the answer tagged with its id. */
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.prettier).then(({ format }) => {
  parentPort.on("message", ({ id, source }) => {
    format(source, workerData.options).then(
      (output) => parentPort.postMessage({ id, output }),
      (error) => parentPort.postMessage({ id, error: String((error && error.message) || error) }),
    );
  });
});
`;

export interface FormatterPool {
  format: Formatter;
  /** Stops the workers; formats still pending are rejected. */
  close(): Promise<void>;
}

/**
 * Formats on `size` worker threads, each file on the one with the least source
 * still to format, so that
 * formatting (most of a generation's time) runs on every core and beside the
 * parsing and emitting of the next revision. The output is the same bytes as
 * formatTypeScript's: each file is formatted whole, by the same prettier.
 */
export function formatterPool(size: number): FormatterPool {
  const prettier = import.meta.resolve("prettier");
  const pending = new Map<number, { size: number; resolve(output: string): void; reject(error: Error): void }>();
  /** Characters of source each worker has yet to format. */
  const load: number[] = [];
  const workers: Worker[] = [];
  let nextId = 0;
  const failAll = (error: Error) => {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  for (let i = 0; i < size; i++) {
    // execArgv: [] so that the parent's flags (--input-type=module would make this CommonJS source ESM) do not apply.
    const worker = new Worker(workerSource, {
      eval: true,
      execArgv: [],
      workerData: { prettier, options: prettierOptions },
    });
    worker.on("message", ({ id, output, error }: { id: number; output?: string; error?: string }) => {
      const entry = pending.get(id);
      if (entry === undefined) return;
      pending.delete(id);
      load[i]! -= entry.size;
      if (error !== undefined) entry.reject(new Error(`prettier: ${error}`));
      else entry.resolve(output!);
    });
    worker.on("error", (error) => failAll(error));
    workers.push(worker);
    load.push(0);
  }
  return {
    format(source) {
      let least = 0;
      for (let i = 1; i < load.length; i++) if (load[i]! < load[least]!) least = i;
      const id = nextId++;
      load[least]! += source.length;
      return new Promise((resolve, reject) => {
        pending.set(id, { size: source.length, resolve, reject });
        workers[least]!.postMessage({ id, source });
      });
    },
    async close() {
      failAll(new Error("the formatter pool was closed"));
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

/** A line no emitter writes, put between parts formatted together so that they can be cut apart again. */
const partBoundary = "// @mcpgen-format-boundary";

/**
 * Formats generated files part by part (printer.ts: header, imports, each
 * printed chunk; a part printed in prettier's form already is kept as it
 * is), each distinct part once per generation: most check, guard,
 * validator and type declarations are the same text in several revisions.
 * prettier formats top-level statements independently, so a file assembled
 * from formatted parts is the bytes prettier gives for the whole file (a test
 * compares the two for every generated file). A file's new parts go to
 * `format` in one call, separated by a boundary comment: one call per part
 * would cost more than the formatting saved.
 */
export class Formatting {
  private readonly formattedParts = new Map<string, Promise<string>>();

  constructor(private readonly format: Formatter = formatTypeScript) {}

  async file(parts: readonly FilePart[]): Promise<string> {
    const code = parts.flatMap((part) => (part.formatted ? [] : [part.text]));
    const fresh = [...new Set(code.filter((text) => !this.formattedParts.has(text)))];
    if (fresh.length > 0) {
      const batch = this.formatTogether(fresh);
      fresh.forEach((text, i) =>
        this.formattedParts.set(
          text,
          batch.then((formatted) => formatted[i]!),
        ),
      );
    }
    const formatted = await Promise.all(
      parts.map((part) => (part.formatted ? part.text : this.formattedParts.get(part.text)!)),
    );
    return `${formatted.join("\n\n")}\n`;
  }

  private async formatTogether(parts: string[]): Promise<string[]> {
    const output = await this.format(parts.join(`\n\n${partBoundary}\n\n`));
    const pieces = output.split(`\n${partBoundary}\n`).map((piece) => piece.trim());
    if (pieces.length === parts.length) return pieces;
    // A boundary that did not survive on a line of its own (never seen): each part alone.
    return Promise.all(parts.map(async (part) => (await this.format(part)).trim()));
  }
}
