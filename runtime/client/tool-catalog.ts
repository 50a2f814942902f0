// What the client learns from tools/list and uses on each call: a tool's
// x-mcp-header parameters, for the Mcp-Param-* headers of its calls (2026-07-28
// basic/transports/streamable-http#schema-extension), and its outputSchema, for
// checking its structured results (output-schemas.ts).
import { headerParams, type HeaderParam } from "../protocol/headers.js";
import { isObject } from "../validation.js";
import { ServerMessageError } from "./errors.js";
import { OutputSchemas } from "./output-schemas.js";

/** Tools whose header parameters are remembered at most: a server must not grow this without bound. */
const MAX_TOOLS = 10_000;

export class ToolCatalog {
  private readonly headers = new Map<string, readonly HeaderParam[]>();
  readonly outputSchemas: OutputSchemas;

  constructor(private readonly warn: (error: Error) => void) {
    this.outputSchemas = new OutputSchemas(warn);
  }

  /** The x-mcp-header parameters of a listed tool (none when it has none or is unknown). */
  headersOf(name: string): readonly HeaderParam[] | undefined {
    return this.headers.get(name);
  }

  /**
   * Learns the tools of a tools/list result. Where the headers are sent
   * (`rejectInvalid`: a modern server over a transport with headers), a tool
   * whose annotations break the rules is left out of the result, with a
   * warning ("Rejection means the client MUST exclude the invalid tool from the
   * result of tools/list").
   */
  learn(result: Record<string, unknown>, rejectInvalid: boolean): Record<string, unknown> {
    const tools = result["tools"];
    if (!Array.isArray(tools)) return result;
    const kept: unknown[] = [];
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool["name"] !== "string") continue;
      const found = headerParams(tool["inputSchema"]);
      if ("error" in found && rejectInvalid) {
        this.headers.delete(tool["name"]);
        this.warn(
          new ServerMessageError(`left out tool ${JSON.stringify(tool["name"])}: ${found.error}`, "/result/tools"),
        );
        continue;
      }
      kept.push(tool);
      this.outputSchemas.learn(tool["name"], tool["outputSchema"]);
      if ("params" in found && found.params.length > 0) {
        if (this.headers.size < MAX_TOOLS || this.headers.has(tool["name"]))
          this.headers.set(tool["name"], found.params);
      } else this.headers.delete(tool["name"]);
    }
    return kept.length === tools.length ? result : { ...result, tools: kept };
  }
}
