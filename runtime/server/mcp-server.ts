// McpServer: what a server offers (tools, resources, resource templates,
// prompts, completions) and the handlers of the methods that expose them, in
// the handler revision's types; the tools, resources and prompts themselves are
// features/tools.ts's, features/resources.ts's and features/prompts.ts's, what the server tells clients of
// changes is outgoing/notices.ts's. The protocol itself (lifecycle, validation,
// capability checks, conversion to the client's revision) is Session's.
import { run } from "../validation.js";
import { invalidParams } from "./errors.js";
import {
  handlerTables,
  type CallToolRequestParams,
  type CompleteRequestParams,
  type GetPromptRequestParams,
  type Implementation,
  type LoggingLevel,
  type PromptArgument,
  type ReadResourceRequestParams,
  type ServerCapabilities,
} from "../protocol/handler-revision.js";
import type { ObjectSchema } from "../protocol/json-schema.js";
import { isLoggingLevel, stderrLogger, type ServerLogger } from "./logging.js";
import { paginate, withCursor } from "./features/pagination.js";
import { connectionOf, Session } from "./session/session.js";
import { requestOf, type RequestContext } from "./context.js";
import type { CoreMethod, MethodHandler, ServerSession, SessionHost } from "./context.js";
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from "./types.js";
import { ServedRevisions } from "./session/revisions.js";
import { RequestStateCodec } from "./input/request-state.js";
import { Listeners } from "./subscriptions.js";
import { listCacheHint, requireScopes } from "./authorization.js";
import { META_SERVER_INFO } from "../protocol/meta.js";
import { ToolCatalog, type TaskScheduler } from "./features/tools.js";
import { TaskService } from "./tasks/service.js";
import { taskMethods } from "./tasks/methods.js";
import { OfferedCapabilities } from "./offer.js";
import { flavourOf, TASK_FILTER_FIELD, TASK_NOTIFICATION } from "./tasks/flavours.js";
import { checkedCacheHint, ResourceCatalog } from "./features/resources.js";
import { PromptCatalog } from "./features/prompts.js";
import { complete } from "./features/completion.js";
import { ChangeNotices } from "./outgoing/notices.js";
import { loadSkills, type LoadedSkill } from "./skills/load.js";
import { SkillCatalog } from "./skills/catalog.js";
import type {
  CacheHint,
  Feature,
  PromptDefinition,
  PromptHandler,
  Registration,
  ResourceDefinition,
  ResourceHandler,
  ResourceTemplateDefinition,
  ResourceTemplateHandler,
  ServerOptions,
  ToolDefinition,
  ToolHandler,
} from "./definitions.js";

/**
 * What the transports read of a server besides its public API: the host its
 * sessions are served by (its logger, the revisions it serves). mcpgen/server
 * does not export it.
 */
export let hostOf!: (server: McpServer) => SessionHost;

export class McpServer {
  static {
    hostOf = (server) => server.host;
  }

  private readonly logger: ServerLogger;
  private readonly requestTimeoutMs: number;
  private readonly sessionLimits: Required<SessionLimits>;
  private readonly pageSize: number;
  private readonly toolCatalog: ToolCatalog;
  private readonly resources: ResourceCatalog;
  private readonly prompts: PromptCatalog;
  /** The open sessions, by the connection behind each. */
  private readonly openSessions = new Map<ServerSession, Session>();
  private readonly served: ServedRevisions;
  private readonly requestState: RequestStateCodec;
  private readonly serverInfoInResults: boolean;
  /** What each session needs of this server, kept apart from its public API. */
  private readonly host: SessionHost;
  private readonly listeners: Listeners;
  private readonly notices: ChangeNotices;
  /** The server's capabilities per revision, from what is registered now (offer.ts). */
  private readonly offered = new OfferedCapabilities(() => ({
    counts: { tools: this.toolCatalog.size, resources: this.resources.size, prompts: this.prompts.size },
    completes: this.prompts.completes || this.resources.completes,
    listChanged: this.notices.listChanged,
    extensions: this.served.extensions,
    tasks: this.servingTasks,
    declared: (this.options.capabilities ?? {}) as Record<string, unknown>,
  }));
  private readonly cacheHint: Required<CacheHint>;

  constructor(
    readonly info: Implementation,
    private readonly options: ServerOptions = {},
  ) {
    this.served = new ServedRevisions(options.revisions);
    this.requestState = new RequestStateCodec(options.requestState);
    this.serverInfoInResults = options.serverInfoInResults ?? true;
    this.listeners = new Listeners(options.subscriptions, (uri) => this.resources.scopesOf(uri));
    this.cacheHint = checkedCacheHint({ ttlMs: 0, cacheScope: "private", ...options.cache }, "the server's cache");
    this.logger = options.logger ?? stderrLogger(options.logLevel ?? "warning");
    this.toolCatalog = new ToolCatalog(this.logger, checkedDefinition);
    this.resources = new ResourceCatalog(checkedDefinition, this.cacheHint);
    this.prompts = new PromptCatalog(checkedDefinition);
    this.pageSize = options.pageSize ?? 100;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.sessionLimits = { ...DEFAULT_SESSION_LIMITS, ...options.sessionLimits };
    for (const [name, value] of Object.entries(this.sessionLimits))
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`sessionLimits.${name} must be a positive integer, not ${value}`);
    if (!Number.isInteger(this.pageSize) || this.pageSize < 1)
      throw new RangeError(`pageSize must be a positive integer, not ${options.pageSize}`);
    this.notices = new ChangeNotices(
      this.openSessions,
      this.listeners,
      this.logger,
      options.listChanged ?? true,
      options.bus,
      {
        offerChanged: () => this.offered.forget(),
        taskSignal: (message) => this.taskService?.signal(message.taskId, message),
      },
    );
    this.host = {
      handlers: this.handlers,
      coreMethods: this.coreMethods,
      notificationHandlers: this.notificationHandlers,
      served: this.served,
      info: this.info,
      instructions: options.instructions,
      capabilitiesFor: (revision) => this.offered.of(revision),
      logger: this.logger,
      requestTimeoutMs: this.requestTimeoutMs,
      sessionLimits: this.sessionLimits,
      requestState: this.requestState,
      serverInfoInResults: this.serverInfoInResults,
      toolHeaders: (name) => this.toolCatalog.headers(name),
      initialized: () => this.warmUp(),
      closed: (session) => this.sessionClosed(session),
      runsTasksOf: (sessionId) => this.taskService?.runsTasksOf(sessionId) ?? false,
    };
  }

  /** The connected sessions, as they are now (a new set on each read). */
  get sessions(): ReadonlySet<Session> {
    return new Set(this.openSessions.values());
  }

  /** Opens a session for a transport; `send` writes one message. */
  connect(send: (json: string) => void): Session {
    const session = new Session(this.host, send);
    this.openSessions.set(connectionOf(session), session);
    return session;
  }

  get instructions(): string | undefined {
    return this.options.instructions;
  }

  /** Ends every subscription gracefully (a result carrying its id), then closes every session. */
  close(): void {
    this.listeners.closeAll();
    // A copy: each close removes its session from the set.
    for (const session of [...this.openSessions.values()]) session.close();
  }

  // --- registration -------------------------------------------------------------

  /** Registers a tool; its handler gets the arguments typed from `inputSchema`. */
  tool<const I extends ObjectSchema = { type: "object" }, const O extends ObjectSchema | undefined = undefined>(
    name: string,
    definition: ToolDefinition<I, O>,
    handler: ToolHandler<I, O>,
  ): Registration {
    const { task } = this.toolCatalog.add(
      name,
      definition as ToolDefinition<ObjectSchema, ObjectSchema | undefined>,
      handler as ToolHandler<unknown, unknown>,
    );
    if (task) this.serveTasks();
    this.featureChanged("tools");
    return this.registration(name, () => this.toolCatalog.delete(name), "tools");
  }

  /** Registers a resource at a fixed URI. */
  resource(uri: string, definition: ResourceDefinition, handler: ResourceHandler): Registration {
    this.resources.add(uri, definition, handler);
    this.featureChanged("resources");
    return this.registration(uri, () => this.resources.delete(uri), "resources");
  }

  /** Registers a resource template (RFC 6570); reads of matching URIs get the template's variables. */
  resourceTemplate(
    uriTemplate: string,
    definition: ResourceTemplateDefinition,
    handler: ResourceTemplateHandler,
  ): Registration {
    this.resources.addTemplate(uriTemplate, definition, handler);
    this.featureChanged("resources");
    return this.registration(uriTemplate, () => this.resources.deleteTemplate(uriTemplate), "resources");
  }

  /** Registers a prompt; its handler gets the declared arguments, the required ones present. */
  prompt<const A extends readonly PromptArgument[] = []>(
    name: string,
    definition: PromptDefinition<A>,
    handler: PromptHandler<A>,
  ): Registration {
    this.prompts.add(name, definition, handler);
    this.featureChanged("prompts");
    return this.registration(name, () => this.prompts.delete(name), "prompts");
  }

  /**
   * Serves a generated extension (generated/ext/<name>) on the revisions that
   * negotiate extensions: its methods join their method tables, the server
   * declares `capabilities.extensions[<identifier>]` (`settings` and `{}`),
   * and `handlers` answer its requests in the extension's own types (no
   * conversion; per-request results get resultType and serverInfo). Resolves
   * once its tables are loaded; requests that arrive before wait for them.
   */
  async extension(
    name: string,
    definition: { settings?: Record<string, unknown>; handlers: { readonly [method: string]: MethodHandler } },
  ): Promise<void> {
    const served = await this.served.add(name, definition.settings);
    for (const method of Object.keys(definition.handlers)) {
      const entry = Object.hasOwn(served.tables.methods, method) ? served.tables.methods[method] : undefined;
      if (!entry || entry.kind !== "request" || entry.direction === "server-to-client")
        throw new TypeError(`extension ${served.tables.identifier} has no request ${method} that a client sends`);
      if (Object.hasOwn(this.coreMethods, method)) throw new TypeError(`${method} already has a handler`);
    }
    for (const [method, handler] of Object.entries(definition.handlers))
      this.coreMethods[method] = (params, _inflight, _session, context) => handler(params, context);
    this.offered.forget();
  }

  /**
   * Serves every skill under `root` (the io.modelcontextprotocol/skills
   * extension, skills.mdx): each file as a `skill://` resource, skills/list
   * (paged, cacheable), skills/get, and resources/directory/read unless
   * `directoryRead` is false. A skill that breaks a rule fails here with a
   * SkillError naming its file and the rule. Files are read once: what is
   * served is what was digested.
   */
  async skills(
    root: string,
    options: { directoryRead?: boolean; cache?: CacheHint } = {},
  ): Promise<readonly LoadedSkill[]> {
    if (this.skillCatalog) throw new TypeError("this server serves skills already");
    const cache = checkedCacheHint({ ...this.cacheHint, ...options.cache }, "skills");
    const catalog = new SkillCatalog(await loadSkills(root));
    for (const uri of catalog.files.keys())
      if (this.resources.has(uri))
        throw new TypeError(`a resource with URI ${JSON.stringify(uri)} is already registered`);
    this.skillCatalog = catalog;
    for (const [uri, { metadata }] of catalog.files)
      this.resource(uri, { ...metadata, cache }, () => catalog.read(uri));
    const directoryRead = options.directoryRead ?? true;
    await this.extension("skills", {
      settings: directoryRead ? { directoryRead: true } : {},
      handlers: catalog.handlers({ pageSize: this.pageSize, cache, directoryRead }),
    });
    return catalog.skills;
  }

  private skillCatalog: SkillCatalog | undefined;

  /** Tasks of tools with `task` options (tasks/service.ts), made on first use. */
  private get tasks(): TaskService {
    return (this.taskService ??= new TaskService(this.logger, this.options.tasks));
  }

  private taskService: TaskService | undefined;
  /** Arms a tool call that may turn into a task; the task service is made on first use. */
  private readonly scheduleTask: TaskScheduler = (task, context, params) => this.tasks.schedule(task, context, params);
  private servingTasks = false;

  /**
   * The task methods: the extension's (per-request revisions) and the
   * 2025-11-25 core ones share handlers; which flavour a request speaks is its
   * wire's (tasks/flavours.ts). The extension's are refused (-32021) to a
   * client that did not declare it, before the task is looked up.
   */
  private serveTasks(): void {
    if (this.servingTasks) return;
    this.servingTasks = true;
    // tasks.md#task-status-notifications: subscriptions/listen may name tasks to be told of.
    this.listeners.addKeyedFilter({
      field: TASK_FILTER_FIELD,
      method: TASK_NOTIFICATION,
      known: (id, requester) => this.tasks.canTellOf(id, requester),
    });
    this.tasks.subscribed = (method, id, params) => {
      this.listeners.keyedChanged(method, id, params);
      this.notices.publish({ kind: "task_status", method, taskId: id, params });
    };
    if (this.options.bus) this.tasks.signalOthers = (message) => this.options.bus!.publish(message);
    const methods = taskMethods(this.tasks, this.pageSize);
    this.extension("tasks", { handlers: methods.extension }).catch((error: unknown) =>
      this.logger("error", "cannot serve the tasks extension", String(error)),
    );
    // 2025-11-25 only (the method tables say where they exist).
    for (const [method, handler] of Object.entries(methods.core))
      this.coreMethods[method] = (params, _inflight, _session, context) => handler(params, context);
    this.offered.forget();
  }

  /**
   * Tells clients that a list changed without a registration changing, e.g.
   * the resources a template's `list` returns (notifications/<feature>/list_changed).
   */
  sendListChanged(feature: Feature): void {
    this.featureChanged(feature);
  }

  /**
   * Tells the clients subscribed to `uri` that it changed
   * (notifications/resources/updated): handshake sessions that sent
   * resources/subscribe, and subscriptions/listen requests naming it.
   */
  resourceUpdated(uri: string): void {
    this.notices.resourceUpdated(uri);
  }

  /** Sends a log message to every initialized client, each filtered by the level it set. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.notices.log(level, data, logger);
  }

  private registration(name: string, remove: () => boolean, feature: Feature): Registration {
    return {
      name,
      remove: () => {
        const removed = remove();
        if (removed) this.featureChanged(feature);
        return removed;
      },
    };
  }

  private featureChanged(feature: Feature): void {
    this.offered.forget(); // what is offered may have changed
    this.notices.featureChanged(feature);
  }

  // --- capabilities and initialize -----------------------------------------------

  /** The server's capabilities in the handler revision's shape. */
  capabilities(): ServerCapabilities {
    return this.offered.of({ tables: handlerTables }) as ServerCapabilities;
  }

  /**
   * Compiles every tool's input and output schemas now, loading ajv if one
   * needs it; rejects naming the first invalid one. A server does this by
   * itself, for input schemas after a session's handshake and for each schema
   * on its tool's first call; a startup snapshot's build awaits it
   * (mcpgen/snapshot), so that the blob holds the compiled checks (but not
   * ajv: a schema that needs it is compiled when the server runs).
   */
  async compileToolSchemas(): Promise<void> {
    // A schema left for the run (one that needs ajv, while a snapshot is built) is compiled after the
    // run's first handshake, as in a server started from its script: the build's warm-up sessions
    // must not count as that handshake.
    if ((await this.toolCatalog.compileAll()) > 0) this.warmedUp = false;
  }

  /** Compiles the tool schemas off the request path (loading ajv if one needs it). */
  private warmedUp = false;
  private warmUp(): void {
    if (this.warmedUp) return;
    this.warmedUp = true;
    // Loading ajv and compiling the schemas after the handshake keeps both off
    // the cold start and off the first tools/call.
    this.toolCatalog.compileSoon();
  }

  private sessionClosed(closed: ServerSession): void {
    this.openSessions.delete(closed);
    const id = closed.sessionIdIfAny; // made when a 2025-11-25 task or task request met the session
    if (id !== undefined) this.taskService?.sessionClosed(id);
  }

  // --- method handlers (handler revision) -----------------------------------------

  /**
   * The core methods of the protocol, answered in the client's revision's own
   * shapes: each exists only in some revisions (ping, logging/setLevel and
   * resources/subscribe until 2025-11-25; server/discover and
   * subscriptions/listen from 2026-07-28), and the method table says which.
   */
  private readonly coreMethods: { [method: string]: CoreMethod } = {
    ping: () => ({}),
    "logging/setLevel": (params, _inflight, session) => {
      if (!isLoggingLevel(params["level"]))
        throw invalidParams(`Unknown logging level ${JSON.stringify(params["level"])}`);
      session.logLevel = params["level"];
      return {};
    },
    "resources/subscribe": (params, inflight, session) => {
      const uri = params["uri"] as string;
      const { uriLength } = this.sessionLimits;
      if (uri.length > uriLength)
        throw invalidParams(`the uri is ${uri.length} characters long, over this server's ${uriLength}`);
      // A subscription tells of a protected resource's changes: it needs the scopes a read needs.
      requireScopes(inflight.channel.authorization, this.resources.scopesOf(uri), `resource ${uri}`);
      const limit = this.sessionLimits.subscriptions;
      if (!session.subscriptions.has(uri) && session.subscriptions.size >= limit)
        throw invalidParams(`at most ${limit} subscriptions per session`);
      session.subscriptions.add(uri);
      return {};
    },
    "resources/unsubscribe": (params, _inflight, session) => {
      session.subscriptions.delete(params["uri"] as string);
      return {};
    },
    // server/discover: every served revision, the capabilities in the request's revision, who the server is.
    // A per-request client has no handshake to warm up after; its discover probe stands in for one.
    "server/discover": (_params, inflight) => {
      this.warmUp();
      return {
        resultType: "complete",
        supportedVersions: [...this.served.supportedVersions],
        capabilities: inflight.scope.serverCapabilities,
        ...(this.options.instructions !== undefined ? { instructions: this.options.instructions } : {}),
        ...this.cacheHint,
        _meta: { [META_SERVER_INFO]: this.info },
      };
    },
    "subscriptions/listen": (params, inflight, session) => this.listeners.listen(params, inflight, session),
  };

  private readonly handlers: { readonly [method: string]: MethodHandler } = {
    // tools/list in a deterministic order (changelog minor change 3), by name.
    "tools/list": (params: { cursor?: string }, context: RequestContext) => {
      const { authorization } = requestOf(context).channel;
      const page = paginate(this.toolCatalog.sorted(authorization), params.cursor, this.pageSize);
      // 2025-11-25 server/tools#tool-level-negotiation: where the client asks for tasks, each tool says
      // whether it runs as one (execution.taskSupport; the handler revision has no such member).
      const withExecution = this.servingTasks && flavourOf(requestOf(context).scope.wire)?.clientAsks;
      const tools = page.items.map((t) =>
        withExecution && t.task ? { ...t.tool, execution: { taskSupport: t.task.support ?? "optional" } } : t.tool,
      );
      const hint = listCacheHint(this.cacheHint, authorization, this.toolCatalog.scoped);
      return withCursor({ tools, ...hint }, page.nextCursor);
    },
    "tools/call": (params: CallToolRequestParams, context: RequestContext) =>
      this.toolCatalog.call(params, context, this.scheduleTask),
    "resources/list": async (params: { cursor?: string }, context: RequestContext) => {
      const page = paginate(await this.resources.list(context), params.cursor, this.pageSize);
      const hint = listCacheHint(this.cacheHint, requestOf(context).channel.authorization, this.resources.scoped);
      return withCursor({ resources: page.items, ...hint }, page.nextCursor);
    },
    "resources/templates/list": (params: { cursor?: string }, context: RequestContext) => {
      const { authorization } = requestOf(context).channel;
      const page = paginate(this.resources.listTemplates(authorization), params.cursor, this.pageSize);
      const hint = listCacheHint(this.cacheHint, authorization, this.resources.templatesScoped);
      return withCursor({ resourceTemplates: page.items, ...hint }, page.nextCursor);
    },
    "resources/read": (params: ReadResourceRequestParams, context: RequestContext) =>
      this.resources.read(params, context),
    "prompts/list": (params: { cursor?: string }, context: RequestContext) => {
      const { authorization } = requestOf(context).channel;
      const page = paginate(this.prompts.list(authorization), params.cursor, this.pageSize);
      const hint = listCacheHint(this.cacheHint, authorization, this.prompts.scoped);
      return withCursor({ prompts: page.items, ...hint }, page.nextCursor);
    },
    "prompts/get": (params: GetPromptRequestParams, context: RequestContext) => this.prompts.get(params, context),
    "completion/complete": (params: CompleteRequestParams, context: RequestContext) =>
      complete(params, { prompts: this.prompts, resources: this.resources }, context),
  };

  private readonly notificationHandlers: { readonly [method: string]: (params: any, session: ServerSession) => void } =
    {
      "notifications/cancelled": (params: { requestId?: string | number; reason?: string }, session) => {
        if (params.requestId !== undefined) session.cancelRequest(params.requestId, params.reason);
      },
      "notifications/roots/list_changed": (_params: unknown, session) => {
        const opened = this.openSessions.get(session);
        if (opened) this.options.onRootsListChanged?.(opened);
      },
    };
}

/** A definition checked against the handler revision's schema type, so that a bad one fails at registration. */
function checkedDefinition(type: string, what: string, value: Record<string, unknown>): unknown {
  const verdict = run(handlerTables.checks[type]!, value);
  if (!verdict.valid) {
    const problem = verdict.errors[0]!;
    throw new TypeError(`${what}: ${problem.path || "/"} ${problem.message} (schema type ${type})`);
  }
  return value;
}
