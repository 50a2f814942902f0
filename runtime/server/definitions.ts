// What a server author writes in: the options of McpServer and the definitions
// of tools, resources, resource templates and prompts, with what their handlers
// take and return (mcpgen/server exports every one). Types only, built on the
// handler revision's (protocol/handler-revision.ts), narrowed where the runtime fills a
// field in.
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Icon,
  LoggingLevel,
  PromptArgument,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  ToolAnnotations,
} from "../protocol/handler-revision.js";
import type { FromSchema, ObjectSchema } from "../protocol/json-schema.js";
import type { ServerLogger } from "./logging.js";
import type { RequestContext } from "./context.js";
import type { Session } from "./session/session.js";
import type { SessionLimits } from "./types.js";
import type { UriVariables } from "./features/uri-template.js";
import type { RequestStateOptions } from "./input/request-state.js";
import type { ListenLimits } from "./subscriptions.js";
import type { InputRequired } from "./input/round.js";
import type { TasksOptions, ToolTaskOptions } from "./tasks/service.js";
import type { ServerBus } from "./outgoing/bus.js";

/**
 * Caching hints of cacheable results (2026-07-28 server/utilities/caching):
 * how long a client may consider a result fresh, and whether shared caches
 * may serve it to other users.
 */
export interface CacheHint {
  /** Milliseconds, >= 0. Default 0 (immediately stale). */
  ttlMs?: number;
  /** Default "private": no cache shared across authorization contexts may serve it. */
  cacheScope?: "public" | "private";
}

export interface ServerOptions {
  /** How to use the server, for the client's model (InitializeResult.instructions). */
  instructions?: string;
  /**
   * Capabilities to declare besides those the registered features imply, e.g.
   * `{ tools: {} }` to add tools after clients have connected, or `experimental`.
   */
  capabilities?: ServerCapabilities;
  /** Items per page of tools/list, resources/list, resources/templates/list and prompts/list. Default 100. */
  pageSize?: number;
  /** Timeout of server-to-client requests (sampling, elicitation, roots), in ms. Default 60 000. */
  requestTimeoutMs?: number;
  /** Whether to send list_changed notifications when features change at run time. Default true. */
  listChanged?: boolean;
  /** Where the server reports on itself. Default: stderr, from `logLevel` up. */
  logger?: ServerLogger;
  /** Threshold of the default logger. Default "warning" ("debug" shows lossy conversions). */
  logLevel?: LoggingLevel;
  /** Called when a client says its roots changed (notifications/roots/list_changed). */
  onRootsListChanged?: (session: Session) => void;
  /** The protocol revisions to serve, by name (default: every generated one, both eras). */
  revisions?: readonly string[];
  /**
   * Caching hints of server/discover, tools/list, prompts/list, resources/list,
   * resources/templates/list and resources/read; a resource or template may
   * set its own for resources/read.
   */
  cache?: CacheHint;
  /** How multi round-trip requestState is signed and checked. */
  requestState?: RequestStateOptions;
  /** Whether per-request results name the server in `_meta` (basic/index#meta: SHOULD). Default true. */
  serverInfoInResults?: boolean;
  /** Bounds of subscriptions/listen. */
  subscriptions?: ListenLimits;
  /** What one session may hold at once (subscriptions, requests in flight both ways, queued messages). */
  sessionLimits?: SessionLimits;
  /** Where tasks live and their default retention and polling interval (tools with `task` options). */
  tasks?: TasksOptions;
  /**
   * Several processes serving the same clients: change notifications and task
   * signals go to the other processes through this bus (mcpgen/redis has one).
   * Default: none, this process alone.
   */
  bus?: ServerBus;
}

/**
 * Completes one argument: the values that start with, or otherwise fit, what
 * the user typed. `request` is the request's context, as handlers get it
 * (`authInfo`, `signal`, ...); the prompt's or template's `scopes` are checked
 * before a completer is called.
 */
export type Completer = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>> },
  request: RequestContext,
) => readonly string[] | Promise<readonly string[]>;

// --- tools --------------------------------------------------------------------

export interface ToolDefinition<I extends ObjectSchema, O extends ObjectSchema | undefined> {
  title?: string;
  description?: string;
  /** JSON Schema of the arguments (2020-12 unless `$schema` says draft-07). Default: an object with any members. */
  inputSchema?: I;
  /** JSON Schema of structuredContent; results are checked against it. */
  outputSchema?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /**
   * The tool may run long: past `afterMs` its call turns into a task for a
   * client that can take one (the tasks extension, or 2025-11-25 params.task),
   * and runs to the end for one that cannot, unless `support` is "required".
   */
  task?: ToolTaskOptions;
  /** OAuth scopes a call needs, checked where the transport verifies tokens (403 insufficient_scope when one is missing). */
  scopes?: readonly string[];
}

/** T without the keys K; unlike Omit, it keeps the known keys of a type with an index signature. */
type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

/**
 * A result as a handler returns it: what the runtime fills in (resultType;
 * the caching hints of cacheable results) may be left out.
 */
export type Returned<T> = Without<T, "resultType" | "ttlMs" | "cacheScope"> & {
  resultType?: string;
  ttlMs?: number;
  cacheScope?: "public" | "private";
};

/**
 * What a tool handler returns: a text, or a result whose `content` may be left
 * out when it has structuredContent (any JSON value, 2026-07-28 SEP-2106), or
 * context.inputRequired(...) to ask the client for input.
 */
export type ToolReturn<O> =
  | string
  | InputRequired
  | (Without<Returned<CallToolResult>, "content" | "structuredContent"> & {
      content?: ContentBlock[];
      structuredContent?: O extends ObjectSchema ? FromSchema<O> : unknown;
    });

export type ToolHandler<I, O> = (
  args: FromSchema<I>,
  context: RequestContext,
) => ToolReturn<O> | Promise<ToolReturn<O>>;

/** A registered tool, resource, template or prompt; remove() unregisters it (and clients are told). */
export interface Registration {
  readonly name: string;
  remove(): boolean;
}

// --- resources ------------------------------------------------------------------

export type ResourceDefinition = Omit<Resource, "uri"> & {
  /** Caching hints of this resource's reads, instead of the server's. */
  cache?: CacheHint;
  /** OAuth scopes a read needs (see ToolDefinition.scopes). */
  scopes?: readonly string[];
};

/**
 * A read's result, or a text (sent as one text content with the resource's
 * mimeType), or undefined when there is no such resource (-32002).
 */
export type ResourceReturn = Returned<ReadResourceResult> | string | undefined | InputRequired;

export type ResourceHandler = (uri: string, context: RequestContext) => ResourceReturn | Promise<ResourceReturn>;

export interface ResourceTemplateDefinition extends Omit<ResourceTemplate, "uriTemplate"> {
  /** Completers for the template's variables, by name (completion/complete with ref/resource). */
  complete?: Record<string, Completer>;
  /** The concrete resources the template stands for, listed by resources/list. */
  list?: (context: RequestContext) => Resource[] | Promise<Resource[]>;
  /** Caching hints of reads of this template's resources, instead of the server's. */
  cache?: CacheHint;
  /** OAuth scopes a read of its resources needs (see ToolDefinition.scopes). */
  scopes?: readonly string[];
}

export type ResourceTemplateHandler = (
  uri: string,
  variables: UriVariables,
  context: RequestContext,
) => ResourceReturn | Promise<ResourceReturn>;

// --- prompts --------------------------------------------------------------------

export interface PromptDefinition<A extends readonly PromptArgument[]> {
  title?: string;
  description?: string;
  arguments?: A;
  /** Completers for the arguments, by name (completion/complete with ref/prompt). */
  complete?: { [N in A[number]["name"]]?: Completer };
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** OAuth scopes prompts/get needs (see ToolDefinition.scopes). */
  scopes?: readonly string[];
}

/** A prompt's arguments by name: strings, required where the definition says so. */
export type PromptArgs<A extends readonly PromptArgument[]> = {
  [X in A[number] as X extends { required: true } ? X["name"] : never]: string;
} & { [X in A[number] as X extends { required: true } ? never : X["name"]]?: string };

/** A prompt's result, or a text (sent as one user message). */
export type PromptReturn = Returned<GetPromptResult> | string | InputRequired;

export type PromptHandler<A extends readonly PromptArgument[]> = (
  args: PromptArgs<A>,
  context: RequestContext,
) => PromptReturn | Promise<PromptReturn>;

export type { Feature } from "./types.js";
