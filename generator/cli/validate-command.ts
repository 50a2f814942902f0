// `mcpgen validate --rev R [--schema PATH] [--type T] FILE|-`: checks one JSON
// message or a JSONL capture (one message per line, e.g. a recorded stdio
// session) with the generated validators of revision R, one verdict line per
// message; with --schema, R is generated from that schema.ts on the spot.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  parseJson,
  type Classification,
  type MessageTables,
  type MessageVerdict,
  type ParsedJson,
  type ValidationResult,
} from "mcpgen/runtime";
import { SpecError } from "../lock/lock.js";
import type { Io } from "./io.js";
import { importRuntime } from "./runtime-package.js";

export interface ValidateOptions {
  revision: string;
  /** A schema.ts to generate the revision from, instead of the runtime package's `mcpgen/<revision>`. */
  schema?: string;
  type?: string;
  /** A path, or "-" for standard input. */
  input: string;
  json: boolean;
  quiet: boolean;
}

interface GeneratedRevision {
  messageTables: MessageTables;
  classify(message: unknown): Classification;
  validate(type: string, value: unknown): ValidationResult;
  validateMessage(message: unknown, requestMethod?: string): MessageVerdict;
}

interface Verdict {
  line: number;
  valid: boolean;
  /** request, notification, result, error, batch, invalid, or "type" with --type. */
  kind: string;
  method?: string;
  type?: string;
  errors: { path: string; message: string; keyword: string }[];
}

export async function validateCommand(io: Io, options: ValidateOptions): Promise<number> {
  const revision = options.schema === undefined ? await loadRevision(options.revision) : await loadSchema(io, options);
  if (
    options.type !== undefined &&
    !Object.prototype.hasOwnProperty.call(revision.messageTables.checks, options.type)
  ) {
    throw new SpecError(`unknown type "${options.type}": revision ${options.revision} has no such type`);
  }
  const text = await readInput(io, options.input);
  const verdicts: Verdict[] = [];
  // Requests seen so far, by id, so that a response is checked against its request's result.
  const pending = new Map<string | number, string>();
  for (const document of documents(text)) {
    if (!document.parsed.ok) {
      const { line, column, message } = document.parsed;
      verdicts.push({
        line: document.line + line - 1,
        valid: false,
        kind: "json",
        errors: [
          { path: "", keyword: "json", message: `invalid JSON at ${document.line + line - 1}:${column}: ${message}` },
        ],
      });
      continue;
    }
    const value = document.parsed.value;
    if (options.type !== undefined) {
      const result = revision.validate(options.type, value);
      verdicts.push({
        line: document.line,
        valid: result.valid,
        kind: "type",
        type: options.type,
        errors: result.valid ? [] : [...result.errors],
      });
      continue;
    }
    const classification = revision.classify(value);
    let requestMethod: string | undefined;
    if ((classification.kind === "result" || classification.kind === "error") && classification.id !== undefined) {
      requestMethod = pending.get(classification.id);
      pending.delete(classification.id); // an id is answered once
    }
    const verdict = revision.validateMessage(value, requestMethod);
    if (classification.kind === "request") pending.set(classification.id, classification.method);
    verdicts.push({
      line: document.line,
      valid: verdict.result.valid,
      kind: classification.kind,
      ...(verdict.method !== undefined ? { method: verdict.method } : {}),
      ...(verdict.type !== undefined ? { type: verdict.type } : {}),
      errors: verdict.result.valid ? [] : [...verdict.result.errors],
    });
  }

  if (options.json) io.stdout(`${JSON.stringify(verdicts, null, 2)}\n`);
  else for (const verdict of verdicts) io.stdout(`${formatVerdict(verdict)}\n`);
  const invalid = verdicts.filter((v) => !v.valid).length;
  if (!options.quiet && !options.json) {
    io.stderr(
      `${verdicts.length} message(s) checked against revision ${options.revision}: ${verdicts.length - invalid} valid, ${invalid} invalid\n`,
    );
  }
  return invalid > 0 ? 1 : 0;
}

/** `line 3: valid request tools/call (CallToolRequest)`, `line 4: invalid result of tools/call (CallToolResult): /result/x: must be string [type]`. */
function formatVerdict(v: Verdict): string {
  if (v.kind === "json") return `line ${v.line}: ${v.errors[0]!.message}`;
  const subject =
    v.kind === "type"
      ? v.type
      : v.kind === "invalid"
        ? "message"
        : v.kind === "result" || v.kind === "error"
          ? `${v.kind}${v.method ? ` of ${v.method}` : ""}`
          : `${v.kind}${v.method ? ` ${v.method}` : ""}`;
  const type = v.type && v.kind !== "type" ? ` (${v.type})` : "";
  const problems = v.errors.map((e) => `${e.path || "/"}: ${e.message} [${e.keyword}]`).join("; ");
  return `line ${v.line}: ${v.valid ? "valid" : "invalid"} ${subject}${type}${problems ? `: ${problems}` : ""}`;
}

interface Document {
  /** The 1-based line where the document starts. */
  line: number;
  parsed: ParsedJson;
}

/**
 * One JSON document, or a JSONL capture: when the whole text is not one JSON
 * value and a line of it is a JSON object or array on its own, every non-blank
 * line is a message.
 */
function documents(text: string): Document[] {
  const lines = text.split("\n");
  const firstLine = lines.findIndex((l) => l.trim() !== "") + 1 || 1;
  const whole = parseJson(text);
  if (whole.ok) return [{ line: firstLine, parsed: whole }];
  const entries = lines
    .map((l, i) => ({ line: i + 1, text: l.replace(/\r$/, "") }))
    .filter((l) => l.text.trim() !== "");
  const jsonl = entries.length > 1 && entries.some((e) => /^\s*[[{]/.test(e.text) && parseJson(e.text).ok);
  if (!jsonl) return [{ line: 1, parsed: whole }];
  return entries.map((e) => ({ line: e.line, parsed: parseJson(e.text) }));
}

async function readInput(io: Io, input: string): Promise<string> {
  if (input === "-") return io.readStdin();
  try {
    return await readFile(resolve(io.cwd, input), "utf8");
  } catch (error) {
    throw new SpecError(
      `cannot read ${input}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
}

/** A revision generated from a schema.ts (the parser loads only then: half a second). */
async function loadSchema(io: Io, options: ValidateOptions): Promise<GeneratedRevision> {
  const { importSchemaRevision } = await import("./schema-revision.js");
  const { module, warnings } = await importSchemaRevision<GeneratedRevision>(io, options.schema!, options.revision);
  if (!options.quiet) for (const warning of warnings) io.stderr(`${warning}\n`);
  return module;
}

/** A generated revision, `mcpgen/<rev>` of the runtime package. */
async function loadRevision(revision: string): Promise<GeneratedRevision> {
  const missing = `revision "${revision}" is not generated in the mcpgen runtime package (in a checkout: npm run generate)`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(revision)) throw new SpecError(missing);
  const module = await importRuntime<Partial<GeneratedRevision>>(revision, missing);
  // mcpgen/server, mcpgen/client and the like are entry points too, but not revisions.
  if (typeof module.validateMessage !== "function" || module.messageTables === undefined) throw new SpecError(missing);
  return module as GeneratedRevision;
}
