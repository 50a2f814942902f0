// mcpgen/client: one client API for servers of every revision, both eras.
// Calls and handlers are written against 2026-07-28's shapes (the handler
// revision, as on the server); the wire revision is the server's, and the
// generated shims convert between them. A request's way out: _meta (modern) or
// the session (legacy) → convert down → mirrored headers → send; its answer:
// checked against the wire revision (connection.ts) → convert up → multi
// round-trip input fulfilled and the request retried (modern). The session it
// travels on (era, handshake, _meta) is session.ts; what tools/list taught is in
// tool-catalog.ts; what the client answers the server, answers.ts.
import type { RevisionInfo } from "../table-types.js";
import { INPUT_RESPONSE_METHODS, inputRound } from "./input.js";
import { answerWithHandlers, type ClientHandlers } from "./answers.js";
import { completeResult, Connection, type RequestOptions } from "./connection.js";
import { ConnectionClosedError, McpError, SessionExpiredError } from "./errors.js";
import { ClientSession } from "./session.js";
import type { ClientTransport } from "./transport.js";
import type { ClientCore, ClientOptions, Listener, WireRequestOptions } from "./types.js";
import { ToolCatalog } from "./tool-catalog.js";
import { subscribe, type SubscribeOptions, type Subscription, type SubscriptionListener } from "./subscriptions.js";
import {
  callTool,
  callToolAsTask,
  listTasks,
  taskHandle,
  type TaskCallOptions,
  type TaskInfo,
  type ToolCallOptions,
  type ToolTask,
} from "./tasks.js";
import { loadedHandlerRevision, type LoadedRevision } from "../protocol/revisions.js";
import { mirroredHeaders } from "../protocol/headers.js";
import { HEADER_MISMATCH } from "../protocol/handler-revision.js";
import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  ReadResourceResult,
  ServerCapabilities,
  SubscriptionFilter,
  Tool,
} from "../protocol/handler-revision.js";
import type {
  ClientRequestMethod,
  NotificationMethod,
  ParamsOf,
  ResultOf,
  ServerNotificationMethod,
} from "../../generated/2026-07-28/methods.js";
import { isObject } from "../validation.js";

/**
 * What a caller passes: 2026-07-28's params without the per-request fields
 * the client fills in (_meta's protocol version, client info and
 * capabilities), so _meta is optional.
 */
export type CallParams<M extends ClientRequestMethod> = Omit<ParamsOf<M>, "_meta"> & {
  _meta?: Partial<NonNullable<ParamsOf<M>>["_meta"]>;
};
/** The result of a request once multi round-trip input is done: never an InputRequiredResult. */
export type Answer<M extends ClientRequestMethod> = Exclude<ResultOf<M>, { resultType: "input_required" }>;

/** What the feature modules read of a client's state (ClientCore). */
const STATE = ["wire", "revision", "serverInfo", "serverCapabilities", "closed", "whenClosed", "lifetime"] as const;

export class Client {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** What tools/list taught: header parameters and output schemas (tool-catalog.ts). */
  private readonly tools = new ToolCatalog((error) => this.warn(error));
  /** The era, revision and handshake this client speaks with its server (session.ts). */
  private readonly session: ClientSession;

  /** What the feature modules (tasks.ts, subscriptions.ts) use of this client, kept off its public API. */
  private readonly core: ClientCore;

  private constructor(
    private readonly connection: Connection,
    private readonly options: ClientOptions,
  ) {
    this.session = new ClientSession(connection, options);
    const core: Omit<ClientCore, (typeof STATE)[number]> = {
      request: (method, params, options) => this.request(method as ClientRequestMethod, params as never, options),
      wireRequest: (method, params, options) => this.wireRequest(method, params, options),
      on: (method, listener) => this.on(method, listener),
      answerServer: (method, params, signal) => this.answerServer(method, params, signal),
      close: () => this.close(),
    };
    // The state the feature modules read is this client's, as it is when they read it.
    for (const name of STATE) Object.defineProperty(core, name, { get: () => this[name], enumerable: true });
    this.core = core as ClientCore;
  }

  /** Starts the transport, finds the server's era and revision (or uses the pinned one), and handshakes where the era has one. */
  static async connect(transport: ClientTransport, options: ClientOptions = {}): Promise<Client> {
    let client!: Client;
    const connection = new Connection(
      transport,
      {
        request: (method, params, signal) => client.serveRequest(method, params, signal),
        notification: (method, params) => client.deliver(method, params),
        problem: (error) =>
          (options.onProblem ?? ((e: Error) => process.stderr.write(`mcpgen client: ${e.message}\n`)))(error),
      },
      { timeoutMs: options.timeoutMs ?? 60_000, maxPending: options.maxPending ?? 1000 },
    );
    client = new Client(connection, options);
    connection.wire = loadedHandlerRevision;
    await connection.start();
    try {
      await client.session.open();
    } catch (error) {
      await connection.close().catch(() => {});
      throw error;
    }
    return client;
  }

  /** The revision spoken with this server. */
  get revision(): RevisionInfo {
    return this.session.verdict.revision;
  }

  get era(): "modern" | "legacy" {
    return this.session.verdict.era;
  }

  /** The server's name and version (initialize result, or serverInfo in a modern result's _meta). */
  get serverInfo(): Implementation | undefined {
    return this.session.server.info;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.session.server.capabilities;
  }

  get instructions(): string | undefined {
    return this.session.server.instructions;
  }

  // --- requests ---------------------------------------------------------------------

  /**
   * Sends a request typed from 2026-07-28's method table and resolves with
   * its result in 2026-07-28's shape, whatever revision the server speaks.
   * Multi round-trip input is fulfilled by the handlers and the request retried.
   */
  async request<M extends ClientRequestMethod>(
    method: M,
    params: CallParams<M>,
    options: RequestOptions = {},
  ): Promise<Answer<M>> {
    let body = params as unknown as Record<string, unknown>; // never changed: a retry's params are a new object
    const rounds = this.options.maxInputRounds ?? 8;
    for (let round = 0; ; round++) {
      const result = await this.once(method, body, options);
      if (result["resultType"] !== "input_required") return result as Answer<M>;
      if (round + 1 >= rounds)
        throw new McpError(-32603, `${method} still asked for input after ${rounds} rounds (maxInputRounds)`);
      body = await inputRound(
        method,
        body,
        result,
        (inputMethod, inputParams, signal) => this.answerServer(inputMethod, inputParams, signal),
        options.signal,
      );
    }
  }

  /** One exchange: converted down, sent, answered, converted up; a legacy session lost (404) is opened again once. */
  private async once(
    method: string,
    params: Record<string, unknown>,
    options: WireRequestOptions,
    retried = false,
  ): Promise<Record<string, unknown>> {
    const modern = this.session.verdict.era === "modern";
    if (!modern && this.session.interrupted) await this.session.renew(undefined);
    const wire = this.connection.wire;
    let withMeta = params;
    if (modern) {
      const meta = params["_meta"];
      const own = this.session.meta(wire.info.protocolVersion, options.capabilities);
      withMeta = { ...params, _meta: isObject(meta) ? { ...meta, ...own } : own };
    }
    // An extension's method has its extension's shapes at every revision that negotiates it: no conversion.
    const shims = Object.hasOwn(loadedHandlerRevision.tables.methods, method) ? wire.shims : null;
    const down = shims
      ? (shims.convertParams(method, withMeta, { from: loadedHandlerRevision.info.name, to: wire.info.name })
          .message as Record<string, unknown>)
      : withMeta;
    const toolName = method === "tools/call" && typeof down["name"] === "string" ? down["name"] : undefined;
    // Headers only for a transport that sends them (HTTP).
    const headers =
      modern && this.connection.transport.carriesHeaders
        ? mirroredHeaders(method, down, toolName ? this.tools.headersOf(toolName) : undefined, wire.tables.nameHeaders)
        : undefined;
    let result: unknown;
    try {
      result = await this.connection.request(method, down, headers ? { ...options, headers } : options);
    } catch (error) {
      if (retried) throw error;
      // 2026-07-28 #client-behavior: a HeaderMismatch on tools/call may mean the tool's schema changed.
      if (error instanceof McpError && error.code === HEADER_MISMATCH && toolName) {
        await this.listTools();
        return this.once(method, params, options, true);
      }
      // 2025-11-25 basic/transports#session-management: 404 for a session id means the client "MUST start a
      // new session". Resent once on it: a SessionExpiredError is the 404 answering this POST itself, so the
      // server did not take the request and nothing ran twice. A request the server took, whose stream
      // resumption then met 404, fails with a plain HttpStatusError and is not resent (it may have run).
      if (error instanceof SessionExpiredError && !modern) {
        await this.session.renew(error.session);
        return this.once(method, params, options, true);
      }
      throw error;
    }
    const up =
      shims && !options.rawResult
        ? (shims.convertResult(method, completeResult(result), {
            from: wire.info.name,
            to: loadedHandlerRevision.info.name,
          }).message as Record<string, unknown>)
        : (result as Record<string, unknown>);
    if (method === "server/discover") this.session.describe(up);
    // Where the headers are sent, a tool whose x-mcp-header annotations break the rules is left out.
    return method === "tools/list"
      ? this.tools.learn(up, modern && this.connection.transport.carriesHeaders === true)
      : up;
  }

  /** Reports something the server sent that the client could not use (ClientOptions.onProblem). */
  private warn(error: Error): void {
    (this.options.onProblem ?? ((e: Error) => process.stderr.write(`mcpgen client: ${e.message}\n`)))(error);
  }

  /**
   * Calls a tool. With `{ task: true }` (or task options) it runs as a task
   * where the server offers tasks, polled to its end (tasks.ts); a task the
   * server makes of a plain call is polled to its end too.
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options?: ToolCallOptions): Promise<CallToolResult> {
    const result = await callTool(this.core, name, args, options);
    if (this.options.validateToolOutput !== false) {
      const compiling = this.tools.outputSchemas.check(name, result as unknown as Record<string, unknown>);
      if (compiling) await compiling;
    }
    return result;
  }

  /** Calls a tool as a task where the server offers tasks: the handle polls it (tasks.ts). */
  callToolAsTask(name: string, args: Record<string, unknown> = {}, options?: TaskCallOptions): Promise<ToolTask> {
    return callToolAsTask(this.core, name, args, options);
  }

  /** A task's handle by its id, e.g. one kept from an earlier connection (tasks.md#task-polling). */
  task(taskId: string): ToolTask {
    return taskHandle(this.core, taskId);
  }

  /** The server's tasks for this client, all pages (2025-11-25 tasks/list; the tasks extension has none). */
  listTasks(options?: RequestOptions): Promise<TaskInfo[]> {
    return listTasks(this.core, options);
  }

  /**
   * Change notifications, one API for both eras (subscriptions.ts): a
   * subscriptions/listen stream on a modern server; resources/subscribe and
   * the list_changed notifications its capabilities declare on a legacy one.
   */
  subscribe(
    filter: SubscriptionFilter,
    listener: SubscriptionListener,
    options?: SubscribeOptions,
  ): Promise<Subscription> {
    return subscribe(this.core, filter, listener, options);
  }

  /**
   * A request of any method the wire revision has (resources/subscribe,
   * tasks/*), its params and _meta as for request(), its result converted
   * only where the handler revision has the method and rawResult is not set.
   */
  private wireRequest(
    method: string,
    params: Record<string, unknown>,
    options: WireRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    return this.request(method as ClientRequestMethod, params as never, options) as Promise<Record<string, unknown>>;
  }

  /** Every tool, all pages. */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const result = await this.request("tools/list", cursor ? { cursor } : {}, options);
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.request("resources/read", { uri }, options) as Promise<ReadResourceResult>;
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: RequestOptions): Promise<GetPromptResult> {
    return this.request("prompts/get", { name, arguments: args }, options) as Promise<GetPromptResult>;
  }

  /**
   * A request of an extension's method (ClientOptions.extensions), its params
   * and result in the extension's own shapes, checked against the extension's
   * generated tables like every other answer. Rejects at once when the wire
   * revision has no such method (the extension was not given, or the revision
   * negotiates no extensions).
   */
  async requestExtension(
    method: string,
    params: Record<string, unknown> = {},
    options?: RequestOptions,
  ): Promise<Record<string, unknown>> {
    const tables = this.connection.wire.tables;
    if (!Object.hasOwn(tables.methods, method) || Object.hasOwn(loadedHandlerRevision.tables.methods, method))
      throw new McpError(
        -32601,
        `${method} is not an extension method of revision ${this.revision.name} for this client (ClientOptions.extensions: ${(this.options.extensions ?? []).join(", ") || "none"})`,
      );
    return (await this.request(method as ClientRequestMethod, params as never, options)) as Record<string, unknown>;
  }

  // --- what the server sends ------------------------------------------------------

  /** Listens to a notification from the server (params in 2026-07-28's shape where it has the method); returns the undo. */
  on(method: ServerNotificationMethod | NotificationMethod | string, listener: Listener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  private deliver(method: string, params: unknown): void {
    const set = this.listeners.get(method);
    if (!set || set.size === 0) return;
    const wire = this.connection.wire;
    let up = params;
    if (wire.shims && Object.hasOwn(loadedHandlerRevision.tables.params, method)) {
      try {
        up = wire.shims.convertParams(method, params, {
          from: wire.info.name,
          to: loadedHandlerRevision.info.name,
        }).message;
      } catch {
        // A notification 2026-07-28 shapes differently and the shims cannot convert: passed as the server sent it.
      }
    }
    for (const listener of set) listener(isObject(up) ? up : {});
  }

  /** A legacy server's request to the client: converted up, answered by a handler, converted back down. */
  private async serveRequest(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    if (method === "ping") return {};
    const wire = this.connection.wire;
    if (!INPUT_RESPONSE_METHODS.has(method))
      throw new McpError(-32601, `Method not found: this client does not serve ${method}`);
    const up = wire.shims
      ? wire.shims.convertParams(method, params, { from: wire.info.name, to: loadedHandlerRevision.info.name }).message
      : params;
    const result = await this.answerServer(method, up, signal);
    return wire.shims
      ? wire.shims.convertResult(method, result, { from: loadedHandlerRevision.info.name, to: wire.info.name }).message
      : result;
  }

  /** The handler for sampling, elicitation or roots (answers.ts). */
  private answerServer(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    return answerWithHandlers(this.options, method, params, signal);
  }

  /** Ends the session (legacy HTTP: DELETE) and the transport (stdio: the server process). */
  async close(): Promise<void> {
    await this.connection.close();
  }

  get closed(): boolean {
    return this.connection.closed;
  }

  /** Settles with the reason once the connection is gone (the server exited, the stream ended, close()). */
  get whenClosed(): Promise<Error> {
    return this.connection.ended;
  }

  /** Aborted with a ConnectionClosedError once the client is closed (tasks.ts ends its polls on it). */
  private get lifetime(): AbortSignal {
    return this.connection.lifetime;
  }

  /** The wire revision's tables and shims, as the feature modules need them. */
  private get wire(): LoadedRevision {
    return this.connection.wire;
  }
}

export { ConnectionClosedError };
export type { ClientHandlers, ClientOptions };
export type { LoadedRevision };
