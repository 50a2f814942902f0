// The tools feature (server/tools): the registered tools, checked as they are
// registered (the name rule, the JSON Schema dialect, x-mcp-header parameters,
// the Tool schema type), listed in name order, and called: the arguments
// checked against inputSchema (protocol/json-schema.ts: a common subset without ajv,
// else ajv, compiled on the first call or by the warm-up), the handler's return
// value made a CallToolResult, and structuredContent checked against
// outputSchema.
import {
  INTERNAL_ERROR,
  type CallToolRequestParams,
  type CallToolResult,
  type Tool,
} from "../../protocol/handler-revision.js";
import { ProtocolError, invalidParams } from "../errors.js";
import {
  AjvWhenServing,
  compileSchema,
  dialectOf,
  schemaProblem,
  type ObjectSchema,
  type SchemaCheck,
} from "../../protocol/json-schema.js";
import type { ServerLogger } from "../logging.js";
import { headerParams, type HeaderParam } from "../../protocol/headers.js";
import { InputRequired } from "../input/round.js";
import type { ToolTaskOptions } from "../tasks/service.js";
import { allows, checkedScopes, declaresScopes, requireScopes, type Authorization } from "../authorization.js";
import { requestOf, type RequestContext } from "../context.js";
import type { Returned, ToolDefinition, ToolHandler, ToolReturn } from "../definitions.js";

export interface RegisteredTool {
  readonly tool: Tool;
  /** Its x-mcp-header parameters (server/tools#x-mcp-header). */
  readonly headers: readonly HeaderParam[];
  readonly handler: ToolHandler<unknown, unknown>;
  readonly task: ToolTaskOptions | undefined;
  readonly scopes: readonly string[] | undefined;
  /** Compiled on first use (or by the warm-up after the handshake). */
  input?: Promise<SchemaCheck>;
  output?: Promise<SchemaCheck>;
  inputCheck?: SchemaCheck;
  outputCheck?: SchemaCheck;
}

/** A tools/call result as the server builds it (the session adds resultType). */
export type ToolResult = Returned<CallToolResult>;
export type ToolOutcome = ToolResult | InputRequired;

/** Schedules the turn of a call that may become a task (TaskService.schedule). */
export type TaskScheduler = (task: ToolTaskOptions, context: RequestContext, params: CallToolRequestParams) => void;

/** A definition checked against a schema type of the handler revision (TypeError naming the problem). */
export type DefinitionCheck = (type: string, what: string, value: Record<string, unknown>) => unknown;

// server/tools#tool-names: 1-128 characters from A-Z, a-z, 0-9, "_", "-" and ".".
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export class ToolCatalog {
  private readonly byName = new Map<string, RegisteredTool>();

  constructor(
    private readonly logger: ServerLogger,
    private readonly checked: DefinitionCheck,
  ) {}

  get size(): number {
    return this.byName.size;
  }

  /** Checks a tool's definition and adds it; a TypeError names what is wrong with it. */
  add(
    name: string,
    definition: ToolDefinition<ObjectSchema, ObjectSchema | undefined>,
    handler: ToolHandler<unknown, unknown>,
  ): RegisteredTool {
    if (!TOOL_NAME.test(name))
      throw new TypeError(
        `invalid tool name ${JSON.stringify(name)}: use 1-128 characters from A-Z, a-z, 0-9, "_", "-" and "." (server/tools#tool-names)`,
      );
    if (this.byName.has(name)) throw new TypeError(`a tool named ${JSON.stringify(name)} is already registered`);
    const { inputSchema = { type: "object" }, outputSchema, task, scopes, ...rest } = definition;
    if (task) checkedTaskOptions(task, `tool ${name}`);
    for (const [which, schema] of [
      ["inputSchema", inputSchema],
      ["outputSchema", outputSchema],
    ] as const) {
      if (schema === undefined) continue;
      const dialect = dialectOf(schema);
      if (typeof dialect !== "string")
        throw new TypeError(
          `tool ${name}: ${which} uses JSON Schema dialect ${dialect.unsupported}; supported are 2020-12 (the default) and draft-07`,
        );
      const problem = schemaProblem(schema);
      if (problem) throw new TypeError(`tool ${name}: ${which}: ${problem}`);
    }
    const headers = headerParams(inputSchema);
    if ("error" in headers) throw new TypeError(`tool ${name}: invalid x-mcp-header: ${headers.error}`);
    const tool = this.checked("Tool", `tool ${name}`, {
      name,
      ...rest,
      inputSchema,
      ...(outputSchema ? { outputSchema } : {}),
    }) as Tool;
    const registered: RegisteredTool = {
      tool,
      headers: headers.params,
      handler,
      task,
      scopes: checkedScopes(scopes, `tool ${name}`),
    };
    this.byName.set(name, registered);
    return registered;
  }

  delete(name: string): boolean {
    return this.byName.delete(name);
  }

  /** The x-mcp-header parameters of a registered tool. */
  headers(name: string): readonly HeaderParam[] | undefined {
    return this.byName.get(name)?.headers;
  }

  /**
   * The tools `authorization` may call, in name order (tools/list is
   * deterministic: changelog minor change 3); every tool without authorization.
   */
  sorted(authorization: Authorization | undefined): RegisteredTool[] {
    return [...this.byName.values()]
      .filter((t) => allows(authorization, t.scopes))
      .sort((a, b) => (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0));
  }

  /** Whether a tool declares scopes: tools/list then depends on the caller. */
  get scoped(): boolean {
    return [...this.byName.values()].some((t) => declaresScopes(t.scopes));
  }

  /** Compiles every inputSchema off the request path, in a later task (loading ajv if one needs it). */
  compileSoon(): void {
    if (this.byName.size === 0) return;
    const timer = setTimeout(() => {
      for (const [name, tool] of this.byName)
        void this.schemaCheck(tool, "input").catch((error) => {
          if (!(error instanceof AjvWhenServing))
            this.logger("error", `tool ${name}: invalid inputSchema: ${(error as Error).message}`);
        });
    }, 0);
    (timer as { unref?: () => void }).unref?.();
  }

  /**
   * Compiles every tool's input and output schemas now (loading ajv if one
   * needs it); rejects on the first invalid one. While a startup snapshot is
   * built, a schema that needs ajv is left for the server's run: resolves to
   * how many were.
   */
  async compileAll(): Promise<number> {
    let left = 0;
    for (const tool of this.byName.values())
      for (const which of tool.tool.outputSchema === undefined ? (["input"] as const) : (["input", "output"] as const))
        await this.schemaCheck(tool, which).catch((error) => {
          if (!(error instanceof AjvWhenServing)) throw error;
          left++;
        });
    return left;
  }

  /**
   * A tools/call: stays synchronous while nothing needs waiting for (schemas
   * compiled, handler not async). `scheduleTask`
   * runs before the handler of a tool with task options (tasks/service.ts).
   */
  call(
    params: CallToolRequestParams,
    context: RequestContext,
    scheduleTask: TaskScheduler,
  ): ToolOutcome | Promise<ToolOutcome> {
    const tool = this.byName.get(params.name);
    // server/tools#error-handling: an unknown tool is a protocol error...
    if (!tool) throw invalidParams(`Unknown tool: ${params.name}`, { name: params.name });
    requireScopes(requestOf(context).channel.authorization, tool.scopes, `tool ${params.name}`);
    const inputCheck = tool.inputCheck;
    if (!inputCheck) return this.schemaCheck(tool, "input").then(() => this.call(params, context, scheduleTask));
    const problems = inputCheck(params.arguments ?? {});
    // ...while invalid arguments, thrown errors and business failures are results with isError.
    if (problems !== undefined) return errorResult(`Invalid arguments for tool ${params.name}: ${problems}`);
    if (tool.task) scheduleTask(tool.task, context, params);
    let returned: ToolReturn<unknown> | Promise<ToolReturn<unknown>>;
    try {
      returned = tool.handler((params.arguments ?? {}) as never, context);
    } catch (error) {
      return toolFailure(error);
    }
    if (returned instanceof Promise) return returned.then((value) => this.toolResult(tool, value), toolFailure);
    return this.toolResult(tool, returned);
  }

  private async schemaCheck(tool: RegisteredTool, which: "input" | "output"): Promise<SchemaCheck> {
    const schema = which === "input" ? tool.tool.inputSchema : tool.tool.outputSchema!;
    const pending = (tool[which] ??= compileSchema(schema as ObjectSchema));
    try {
      const check = await pending;
      tool[`${which}Check`] = check;
      return check;
    } catch (error) {
      if (error instanceof AjvWhenServing) {
        tool[which] = undefined; // compiled again when the server runs
        throw error;
      }
      throw new ProtocolError(
        INTERNAL_ERROR,
        `Internal error: tool ${tool.tool.name} has an invalid ${which}Schema: ${(error as Error).message}`,
      );
    }
  }

  private toolResult(tool: RegisteredTool, returned: ToolReturn<unknown>): ToolOutcome | Promise<ToolOutcome> {
    if (typeof returned === "string") return { content: [{ type: "text", text: returned }] };
    if (returned instanceof InputRequired) return returned;
    const structured = returned.structuredContent;
    // server/tools#structured-content: a tool returning structured content SHOULD also return it serialized in a text block.
    const fill = returned.content === undefined || (returned.content.length === 0 && structured !== undefined);
    // A plain object that needs nothing filled in goes on as it is (nothing downstream changes a result in
    // place); else a copy, so that the handler's object is not changed and what the checks read is what
    // JSON.stringify writes (a class's getters are not own properties).
    const result = (
      fill || Object.getPrototypeOf(returned) !== Object.prototype ? Object.assign({}, returned) : returned
    ) as ToolResult;
    if (fill) result.content = structured === undefined ? [] : [{ type: "text", text: JSON.stringify(structured) }];
    if (!tool.tool.outputSchema || result.isError) return result;
    // server/tools#output-schema: structured results MUST conform to the output schema.
    const name = tool.tool.name;
    if (structured === undefined)
      return errorResult(`Tool ${name} declares an outputSchema but returned no structuredContent`);
    const conform = (check: SchemaCheck): ToolResult => {
      const problems = check(structured);
      if (problems === undefined) return result;
      this.logger("error", `tool ${name} returned structuredContent that does not match its outputSchema: ${problems}`);
      return errorResult(`Tool ${name} returned structuredContent that does not match its outputSchema: ${problems}`);
    };
    return tool.outputCheck ? conform(tool.outputCheck) : this.schemaCheck(tool, "output").then(conform);
  }
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A tool handler's exception: a ProtocolError stays one; anything else is a tool execution error. */
function toolFailure(error: unknown): ToolResult {
  if (error instanceof ProtocolError) throw error;
  return errorResult(error instanceof Error ? error.message : String(error));
}

function checkedTaskOptions(options: ToolTaskOptions, what: string): void {
  if (options.support !== undefined && options.support !== "optional" && options.support !== "required")
    throw new TypeError(
      `${what}: task.support must be "optional" or "required", not ${JSON.stringify(options.support)}`,
    );
  for (const key of ["afterMs", "pollIntervalMs"] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < (key === "afterMs" ? 0 : 1)))
      throw new TypeError(`${what}: task.${key} must be an integer >= ${key === "afterMs" ? 0 : 1}, not ${value}`);
  }
  if (options.ttlMs !== undefined && options.ttlMs !== null && (!Number.isInteger(options.ttlMs) || options.ttlMs < 1))
    throw new TypeError(`${what}: task.ttlMs must be a positive integer or null, not ${options.ttlMs}`);
}
