// Structured tool results checked against the tool's outputSchema, learned
// from tools/list (2025-06-18 server/tools#output-schema: "Servers MUST
// provide structured results that conform to this schema. Clients SHOULD
// validate structured results against this schema"). ajv compiles each schema
// on the tool's first call (it is loaded then, as the server loads it). A
// schema the client cannot use (another dialect, an external $ref, past the
// size limits, or invalid) is reported once and that tool's results go
// unchecked, rather than every call failing.
import {
  compileSchemaProblems,
  schemaProblem,
  type ObjectSchema,
  type SchemaProblem,
} from "../protocol/json-schema.js";
import { isObject } from "../validation.js";
import { ServerMessageError } from "./errors.js";

type Problems = (value: unknown) => readonly SchemaProblem[] | undefined;

interface Known {
  readonly schema: ObjectSchema;
  /** Set once compiled; null when the schema cannot be used. */
  problems?: Problems | null;
  compiling?: Promise<void>;
}

/** Tools remembered at most: a server must not grow this without bound. */
const MAX_TOOLS = 10_000;

export class OutputSchemas {
  private readonly tools = new Map<string, Known>();

  constructor(private readonly warn: (error: Error) => void) {}

  /** A listed tool: its outputSchema (or none, which forgets an earlier one). */
  learn(name: string, outputSchema: unknown): void {
    if (!isObject(outputSchema)) {
      this.tools.delete(name);
      return;
    }
    const known = this.tools.get(name);
    if (known && known.schema === outputSchema) return;
    if (this.tools.size >= MAX_TOOLS && !known) return;
    this.tools.set(name, { schema: outputSchema as ObjectSchema });
  }

  /**
   * Throws when a tool's result breaks its outputSchema: structuredContent
   * missing, or not matching (the error names the JSON pointer). Results with
   * isError are tool errors, whose content carries no structured output.
   * Synchronous once the tool's schema is compiled.
   */
  check(name: string, result: Readonly<Record<string, unknown>>): void | Promise<void> {
    const known = this.tools.get(name);
    if (!known || result["isError"] === true) return;
    if (known.problems === undefined)
      return (known.compiling ??= this.compile(name, known)).then(() => this.check(name, result));
    if (known.problems === null) return;
    const structured = result["structuredContent"];
    if (structured === undefined)
      throw new ServerMessageError(
        `tool ${JSON.stringify(name)} answered without structuredContent, which its outputSchema requires`,
        "/result/structuredContent",
        [{ path: "/result", keyword: "required", message: "structuredContent is required by the tool's outputSchema" }],
      );
    const problems = known.problems(structured);
    if (!problems || problems.length === 0) return;
    const errors = problems.map((p) => ({
      path: `/result/structuredContent${p.path}`,
      keyword: p.keyword,
      message: p.message,
    }));
    throw new ServerMessageError(
      `tool ${JSON.stringify(name)} answered structuredContent that breaks its outputSchema: at ${errors[0]!.path} ${errors[0]!.message}`,
      errors[0]!.path,
      errors,
    );
  }

  private async compile(name: string, known: Known): Promise<void> {
    const refused = schemaProblem(known.schema);
    try {
      if (refused) throw new TypeError(refused);
      known.problems = await compileSchemaProblems(known.schema);
    } catch (error) {
      known.problems = null;
      this.warn(
        new ServerMessageError(
          `the outputSchema of tool ${JSON.stringify(name)} cannot be used (${(error as Error).message}); its results are not checked against it`,
          "/result/tools",
        ),
      );
    }
  }
}
