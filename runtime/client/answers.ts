// What the client answers when the server asks: a legacy server's requests to
// the client and a modern server's multi round-trip input (sampling,
// elicitation, roots), by the handlers the client was given, and the
// capabilities those handlers declare.
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
} from "../protocol/handler-revision.js";
import { isObject } from "../validation.js";
import { withElicitationDefaults } from "./elicitation.js";
import { McpError } from "./errors.js";

/** What the client answers when the server asks (server-to-client requests, or multi round-trip input). */
export interface ClientHandlers {
  sampling?: (params: CreateMessageRequestParams, signal: AbortSignal) => Promise<CreateMessageResult>;
  elicitation?: (params: ElicitRequestParams, signal: AbortSignal) => Promise<ElicitResult>;
  roots?: () => Promise<ListRootsResult>;
}

/** The client options these answers follow (ClientOptions). */
export interface AnswerOptions {
  readonly handlers?: ClientHandlers;
  /** Capabilities beyond those the handlers imply, in 2026-07-28's shape. */
  readonly capabilities?: ClientCapabilities;
  /** Whether an accepted form-mode elicitation gets requestedSchema's defaults (default true; elicitation.ts). */
  readonly elicitationDefaults?: boolean;
}

/** The client's capabilities in 2026-07-28's shape: what the handlers serve, and what the options add. */
export function clientCapabilities(options: AnswerOptions): ClientCapabilities {
  const handlers = options.handlers ?? {};
  return {
    ...(handlers.sampling ? { sampling: {} } : {}),
    ...(handlers.elicitation ? { elicitation: {} } : {}),
    ...(handlers.roots ? { roots: { listChanged: true } } : {}),
    ...options.capabilities,
  };
}

/** The handler's answer to `method` (params in 2026-07-28's shape); -32601 when the client has none (it did not declare the capability). */
export async function answerWithHandlers(
  options: AnswerOptions,
  method: string,
  params: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const handlers = options.handlers ?? {};
  switch (method) {
    case "sampling/createMessage":
      if (handlers.sampling) return handlers.sampling(params as CreateMessageRequestParams, signal);
      break;
    case "elicitation/create":
      if (handlers.elicitation) {
        checkElicitationMode(options, params);
        const answer = await handlers.elicitation(params as ElicitRequestParams, signal);
        return options.elicitationDefaults === false ? answer : withElicitationDefaults(params, answer);
      }
      break;
    case "roots/list":
      if (handlers.roots) return handlers.roots();
      break;
  }
  throw new McpError(-32601, `This client has no handler for ${method}`);
}

/**
 * client/elicitation#capabilities: an empty elicitation capability declares form mode only; a
 * request in a mode the client did not declare gets -32602 (#error-handling), never the handler.
 */
function checkElicitationMode(options: AnswerOptions, params: unknown): void {
  const mode = isObject(params) && typeof params["mode"] === "string" ? params["mode"] : "form";
  const declared = clientCapabilities(options).elicitation ?? {};
  const modes = ["form", "url"].filter((m) => Object.hasOwn(declared, m));
  if (!(modes.length > 0 ? modes : ["form"]).includes(mode))
    throw new McpError(
      -32602,
      `Invalid params: elicitation in ${JSON.stringify(mode)} mode, which this client did not declare (capabilities.elicitation: ${JSON.stringify(declared)})`,
    );
}
