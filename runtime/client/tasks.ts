// Tasks on the client's side: a tool call the server runs as a task, polled
// until it ends, behind one API for both flavours. Which flavour a wire speaks
// is read from its method table (the capability tasks/get needs), never from
// a revision's name; the flavours differ only in data (task-flavours.ts).
// - 2025-11-25 (basic/utilities/tasks): the client asks, with params.task,
//   where the server declares tasks.requests.tools.call and the tool's
//   execution.taskSupport allows it (#tool-level-negotiation); the answer is
//   CreateTaskResult { task }; tasks/get polls; the outcome is what tasks/result
//   answers (#result-retrieval); input reaches the client as ordinary
//   server-to-client requests, served by the client's handlers, and on
//   input_required the client calls tasks/result at once (#input-required-status).
// - the io.modelcontextprotocol/tasks extension (tasks.md, revisions that
//   negotiate extensions; ClientOptions.extensions must name "tasks"): the
//   request declares the extension in its per-request capabilities and the
//   server decides (#capability-negotiation); the answer is a CreateTaskResult
//   (resultType "task"); tasks/get inlines the outcome (#task-polling); input is
//   the task's inputRequests, answered once per key with tasks/update
//   (#task-update-requests).
// Polling honours the server's poll interval (#task-polling: SHOULD), and is
// bounded by a deadline (default: the task's ttl, after which the server may
// delete it) and an AbortSignal; giving up cancels the task unless told not to.
import type { CallToolResult, ClientCapabilities } from "../protocol/handler-revision.js";
import { loadedHandlerRevision } from "../protocol/revisions.js";
import type { Task, TaskStatus } from "../../generated/ext/tasks/types.js";
import { isObject, run } from "../validation.js";
import type { ClientCore } from "./types.js";
import { completeResult, type RequestOptions } from "./connection.js";
import { McpError, RequestTimeoutError, ServerMessageError, TaskCancelledError } from "./errors.js";
import { answerInputs, MAX_INPUT_KEYS } from "./input.js";
import { TASKS_EXTENSION, taskFlavourOf, type TaskFlavour as Flavour } from "../protocol/task-flavours.js";

export { TASKS_EXTENSION };

/** A task as the client shows it, whatever the wire: the extension's field names (ttlMs, pollIntervalMs). */
export type TaskInfo = Task;
export type { TaskStatus };

/** How long to wait for a task's end and how to poll. */
export interface TaskWaitOptions {
  signal?: AbortSignal;
  /** Longest wait for a terminal status, in ms (default: the task's ttl, or one hour when it has none). */
  timeoutMs?: number;
  /** The poll interval when the server suggests none, in ms (default 1000). */
  pollIntervalMs?: number;
  /** Whether giving up (abort, timeout) sends tasks/cancel. Default true. */
  cancelOnAbort?: boolean;
  /** Each status seen while waiting. */
  onStatus?: (task: TaskInfo) => void;
}

/** The tools/call that may become a task. */
export interface TaskCallOptions extends RequestOptions {
  /** Retention asked for, in ms (2025-11-25 params.task.ttl; under the extension the server alone decides, tasks.md#task-creation). */
  ttlMs?: number;
}

/** callTool's options: `task` runs the call as a task (where the server offers tasks) and waits for its end. */
export interface ToolCallOptions extends RequestOptions {
  /** `timeoutMs` and `signal` then bound the whole call, polling included. */
  task?: boolean | (Omit<TaskWaitOptions, "signal" | "timeoutMs"> & { ttlMs?: number });
}

/** A tool call that may run as a task. */
export interface ToolTask {
  /** The task's id; undefined when the server answered the call directly (no task was made). */
  readonly taskId: string | undefined;
  /** The task as last seen (creation, tasks/get, tasks/cancel); undefined without a task. */
  readonly task: TaskInfo | undefined;
  /** tasks/get: the task's current state. */
  refresh(options?: RequestOptions): Promise<TaskInfo>;
  /**
   * Polls until the task is terminal and resolves with the tool's result (in
   * 2026-07-28's shape); rejects with the task's JSON-RPC error (McpError),
   * TaskCancelledError, RequestTimeoutError past the deadline, or the abort reason.
   */
  result(options?: TaskWaitOptions): Promise<CallToolResult>;
  /** tasks/cancel (cooperative: the server may still finish it, tasks.md#task-cancellation). */
  cancel(options?: RequestOptions): Promise<void>;
}

/** The flavour, or a clear error where the revision negotiates the extension but the client was not given it. */
function requireFlavour(client: ClientCore): Flavour | undefined {
  const flavour = taskFlavourOf(client.wire.tables);
  if (!flavour && client.wire.info.extensions)
    throw new TypeError(
      `tasks on revision ${client.revision.name} are the ${TASKS_EXTENSION} extension: connect with ClientOptions.extensions including "tasks"`,
    );
  return flavour;
}

/** Whether the server's capabilities (as it declared them, in its revision's shape) have this path. */
function declares(client: ClientCore, path: readonly string[]): boolean {
  let at: unknown = client.serverCapabilities;
  for (const key of path) {
    if (!isObject(at) || !isObject(at[key])) return false;
    at = at[key];
  }
  return true;
}

/**
 * Whether the server offers `method` by its capabilities (the method table
 * says which); true when the capabilities are unknown (a modern server whose
 * era came from the cache: it answers for itself).
 */
function offers(client: ClientCore, method: string): boolean {
  const entry = Object.hasOwn(client.wire.tables.methods, method) ? client.wire.tables.methods[method] : undefined;
  if (!entry) return false;
  if (!entry.capability || client.serverCapabilities === undefined) return true;
  return declares(client, entry.capability.path);
}

// --- 2025-11-25 #tool-level-negotiation: execution.taskSupport, from tools/list in the wire's shapes ---------

const MAX_TOOLS = 10_000;
const taskSupport = new WeakMap<ClientCore, Promise<Map<string, string>>>();
const watching = new WeakSet<ClientCore>();

async function toolTaskSupport(client: ClientCore, name: string, options: RequestOptions): Promise<string> {
  if (!watching.has(client)) {
    watching.add(client);
    client.on("notifications/tools/list_changed", () => taskSupport.delete(client));
  }
  let known = taskSupport.get(client);
  if (!known) {
    known = (async () => {
      const support = new Map<string, string>();
      let cursor: string | undefined;
      for (let page = 0; page < 1000; page++) {
        const result = await client.wireRequest("tools/list", cursor ? { cursor } : {}, {
          ...options,
          rawResult: true,
        });
        for (const tool of Array.isArray(result["tools"]) ? result["tools"] : []) {
          if (!isObject(tool) || typeof tool["name"] !== "string" || support.size >= MAX_TOOLS) continue;
          const execution = isObject(tool["execution"]) ? tool["execution"] : {};
          support.set(
            tool["name"],
            typeof execution["taskSupport"] === "string" ? execution["taskSupport"] : "forbidden",
          );
        }
        cursor = typeof result["nextCursor"] === "string" ? result["nextCursor"] : undefined;
        if (!cursor) break;
      }
      return support;
    })();
    taskSupport.set(client, known);
    known.catch(() => taskSupport.delete(client));
  }
  // "If execution.taskSupport is not present or "forbidden", clients MUST NOT attempt to invoke the tool as a task."
  return (await known).get(name) ?? "forbidden";
}

// --- calls -------------------------------------------------------------------------------------------

/**
 * tools/call, as a task where the server offers one: the handle polls it.
 * Where no task can be made (no tasks on the wire, the server or the tool
 * does not offer them, or the server chose to answer directly) the call is a
 * plain one and the handle holds its result (taskId undefined).
 */
export async function callToolAsTask(
  client: ClientCore,
  name: string,
  args: Record<string, unknown> = {},
  options: TaskCallOptions = {},
): Promise<ToolTask> {
  const { ttlMs, ...request } = options;
  const params = { name, arguments: args };
  const flavour = requireFlavour(client);
  const asks =
    flavour !== undefined &&
    (flavour.offeredAt === undefined ||
      (declares(client, flavour.offeredAt) && (await toolTaskSupport(client, name, request)) !== "forbidden"));
  if (!flavour || !asks)
    return new TaskHandle(client, flavour, `tools/call ${name}`, { direct: await plainCall(client, params, request) });
  const answer = await client.wireRequest("tools/call", flavour.ask(params, ttlMs), {
    ...request,
    rawResult: true,
    ...(flavour.declare ? { capabilities: flavour.declare } : {}),
  });
  return handleFor(client, flavour, `tools/call ${name}`, answer);
}

/** The handle of a tools/call answer: its task, or the tool's result converted to 2026-07-28's shape. */
function handleFor(client: ClientCore, flavour: Flavour, label: string, answer: Record<string, unknown>): TaskHandle {
  const created = flavour.created(answer);
  // Checked on arrival (the wire's tools/call result); only converted.
  if (!created) return new TaskHandle(client, flavour, label, { direct: toolResult(client, answer, false) });
  const state = normalize(created, flavour, client);
  return new TaskHandle(client, flavour, label, { state });
}

async function plainCall(
  client: ClientCore,
  params: Record<string, unknown>,
  options: RequestOptions,
): Promise<CallToolResult> {
  return (await client.request("tools/call", params as never, options)) as CallToolResult;
}

/**
 * callTool: a plain call, or with `task` a task polled to its end. A task the
 * server makes of a plain call (the extension declared in ClientOptions.capabilities)
 * is polled to its end as well (tasks.md#backwards-compatibility).
 */
export async function callTool(
  client: ClientCore,
  name: string,
  args: Record<string, unknown> = {},
  options: ToolCallOptions = {},
): Promise<CallToolResult> {
  const { task, ...request } = options;
  const started = Date.now();
  const waitFor = (handle: ToolTask, extra: Omit<TaskWaitOptions, "signal" | "timeoutMs"> = {}) =>
    handle.result({
      ...extra,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.timeoutMs !== undefined
        ? { timeoutMs: Math.max(1, request.timeoutMs - (Date.now() - started)) }
        : {}),
    });
  if (task) {
    const { ttlMs, ...wait } = task === true ? {} : task;
    const handle = await callToolAsTask(client, name, args, { ...request, ...(ttlMs !== undefined ? { ttlMs } : {}) });
    return waitFor(handle, wait);
  }
  const flavour = taskFlavourOf(client.wire.tables);
  if (!flavour) return plainCall(client, { name, arguments: args }, request);
  const answer = await client.wireRequest("tools/call", { name, arguments: args }, { ...request, rawResult: true });
  // Answered directly (the common case): checked on arrival, only converted; no handle to poll.
  if (!flavour.created(answer)) return toolResult(client, answer, false);
  return waitFor(handleFor(client, flavour, `tools/call ${name}`, answer));
}

/** A handle for a task known by its id (tasks.md#task-polling: "persist task IDs ... so that polling can resume"). */
export function taskHandle(client: ClientCore, taskId: string): ToolTask {
  const flavour = requireFlavour(client);
  if (!flavour) throw new TypeError(`revision ${client.revision.name} has no tasks`);
  return new TaskHandle(client, flavour, `task ${taskId}`, { taskId });
}

/** tasks/list, all pages (2025-11-25 #listing-tasks). */
export async function listTasks(client: ClientCore, options: RequestOptions = {}): Promise<TaskInfo[]> {
  const flavour = requireFlavour(client);
  if (!flavour || !Object.hasOwn(client.wire.tables.methods, "tasks/list"))
    throw new TypeError(
      `revision ${client.revision.name}${flavour ? ` (${flavour.label})` : ""} has no tasks/list${flavour?.declare ? " (tasks.md#security-considerations: no listing)" : ""}`,
    );
  if (!offers(client, "tasks/list"))
    throw new McpError(
      -32601,
      `${client.serverInfo?.name ?? "the server"} does not offer tasks/list (capabilities.tasks.list)`,
    );
  const tasks: TaskInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const result = await client.wireRequest("tasks/list", cursor ? { cursor } : {}, options);
    for (const task of Array.isArray(result["tasks"]) ? result["tasks"] : [])
      if (isObject(task)) tasks.push(publicInfo(normalize(task, flavour, client)));
    cursor = typeof result["nextCursor"] === "string" ? result["nextCursor"] : undefined;
    if (!cursor) break;
  }
  return tasks;
}

// --- the handle -------------------------------------------------------------------------------------

/** A task with what tasks/get may inline (tasks.md DetailedTask). */
interface Detailed extends TaskInfo {
  readonly inputRequests?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data?: unknown };
}

const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);
/** The shortest wait between polls, whatever the server suggests. */
const MIN_POLL_MS = 20;
/**
 * The longest: the server's pollInterval is honoured (2025-11-25 basic/utilities/tasks#getting-tasks:
 * "SHOULD respect"; tasks.md#task-polling) up to a minute, so a huge one cannot stall the wait for days.
 */
const MAX_POLL_MS = 60_000;
/** The longest a single tasks/get, tasks/update or tasks/cancel may take. */
const REQUEST_MS = 60_000;
/** The largest delay setTimeout takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

class TaskHandle implements ToolTask {
  readonly taskId: string | undefined;
  private state: Detailed | undefined;
  private final: Promise<CallToolResult> | undefined;
  private readonly answered = new Set<string>();

  constructor(
    private readonly client: ClientCore,
    private readonly flavour: Flavour | undefined,
    private readonly label: string,
    from: { direct: CallToolResult } | { state: Detailed } | { taskId: string },
  ) {
    if ("direct" in from) {
      this.taskId = undefined;
      this.final = Promise.resolve(from.direct);
    } else if ("state" in from) {
      this.taskId = from.state.taskId;
      this.state = from.state;
    } else this.taskId = from.taskId;
  }

  get task(): TaskInfo | undefined {
    return this.state && publicInfo(this.state);
  }

  private requestOptions(extra: RequestOptions = {}): RequestOptions & { capabilities?: ClientCapabilities } {
    return { ...extra, ...(this.flavour?.declare ? { capabilities: this.flavour.declare } : {}) };
  }

  private noTask(what: string): TypeError {
    return new TypeError(`${what}: ${this.label} was answered directly, there is no task`);
  }

  async refresh(options: RequestOptions = {}): Promise<TaskInfo> {
    if (!this.taskId || !this.flavour) throw this.noTask("tasks/get");
    const got = await this.client.wireRequest("tasks/get", { taskId: this.taskId }, this.requestOptions(options));
    this.state = normalize(got, this.flavour, this.client, this.taskId);
    return publicInfo(this.state);
  }

  async cancel(options: RequestOptions = {}): Promise<void> {
    if (!this.taskId || !this.flavour) return; // answered directly: nothing runs
    if (!offers(this.client, "tasks/cancel"))
      throw new McpError(-32601, `${this.client.serverInfo?.name ?? "the server"} does not offer tasks/cancel`);
    // tasks.md#task-cancellation: tasks/cancel, never notifications/cancelled.
    const answer = await this.client.wireRequest("tasks/cancel", { taskId: this.taskId }, this.requestOptions(options));
    // 2025-11-25 answers the cancelled Task; the extension an empty acknowledgment (eventually consistent).
    if (typeof answer["status"] === "string") this.state = normalize(answer, this.flavour, this.client, this.taskId);
  }

  result(options: TaskWaitOptions = {}): Promise<CallToolResult> {
    if (this.final) return this.final;
    if (!this.taskId || !this.flavour) return Promise.reject(this.noTask("result"));
    return this.poll(this.taskId, this.flavour, options);
  }

  private async poll(taskId: string, flavour: Flavour, options: TaskWaitOptions): Promise<CallToolResult> {
    // client.close() ends the wait at once (rejecting with its ConnectionClosedError), timer and all.
    const lifetime = this.client.lifetime;
    const signal = options.signal ? AbortSignal.any([options.signal, lifetime]) : lifetime;
    signal.throwIfAborted();
    const budget = Math.min(options.timeoutMs ?? this.state?.ttlMs ?? 3_600_000, MAX_TIMER_MS);
    const deadline = Date.now() + budget;
    const remaining = () => deadline - Date.now();
    const bounds = (longest = REQUEST_MS) => ({
      signal,
      timeoutMs: Math.max(1, Math.min(remaining(), longest)),
    });
    const timedOut = () =>
      new RequestTimeoutError(
        `${this.label}: task ${taskId} did not end within ${budget} ms (last status: ${this.state?.status ?? "unknown"})`,
      );
    // A status notification (2025-11-25, MAY) cuts the wait short; polling stays the rule (#task-notifications).
    let wake: (() => void) | undefined;
    const stop = flavour.statusNotification
      ? this.client.on(flavour.statusNotification, (params) => {
          if (params["taskId"] === taskId) wake?.();
        })
      : undefined;
    try {
      if (!this.state) await this.refresh(bounds());
      for (;;) {
        const task = this.state!;
        options.onStatus?.(publicInfo(task));
        if (TERMINAL.has(task.status)) return await this.settle(this.outcome(task, bounds(MAX_TIMER_MS)));
        if (task.status === "input_required") {
          // 2025-11-25 #input-required-status: "the requestor SHOULD preemptively call tasks/result"; it answers at the end.
          if (flavour.input === "requests") return await this.settle(this.outcome(task, bounds(MAX_TIMER_MS)));
          await this.answerInput(taskId, task, signal, bounds());
        }
        const interval = Math.min(
          MAX_POLL_MS,
          Math.max(MIN_POLL_MS, task.pollIntervalMs ?? options.pollIntervalMs ?? 1000),
        );
        if (remaining() <= 0) throw timedOut();
        await pause(Math.min(interval, remaining()), signal, (resume) => (wake = resume));
        if (remaining() <= 0) throw timedOut();
        await this.refresh(bounds());
      }
    } catch (error) {
      const givenUp = options.signal?.aborted === true || remaining() <= 0;
      if (givenUp && (options.cancelOnAbort ?? true) && this.state && !TERMINAL.has(this.state.status))
        void this.cancel({ timeoutMs: 5000 }).catch(() => {});
      throw error instanceof RequestTimeoutError && !(remaining() > 0) ? timedOut() : error;
    } finally {
      stop?.();
    }
  }

  /** A terminal outcome is kept: result() answers it again without asking the server. */
  private async settle(outcome: Promise<CallToolResult>): Promise<CallToolResult> {
    try {
      const result = await outcome;
      this.final = Promise.resolve(result);
      return result;
    } catch (error) {
      if (error instanceof McpError || error instanceof TaskCancelledError || error instanceof ServerMessageError)
        (this.final = Promise.reject(error)).catch(() => {});
      throw error;
    }
  }

  /** What the request would have answered (tasks.md#result-retrieval; 2025-11-25 #result-retrieval). */
  private async outcome(task: Detailed, options: RequestOptions): Promise<CallToolResult> {
    const reason = task.statusMessage ? `: ${task.statusMessage}` : "";
    if (task.status === "cancelled")
      throw new TaskCancelledError(task.taskId, `${this.label}: task ${task.taskId} was cancelled${reason}`);
    if (this.flavour!.outcome === "tasks/result") {
      const answer = await this.client.wireRequest(
        "tasks/result",
        { taskId: task.taskId },
        {
          ...options,
          rawResult: true,
        },
      );
      return toolResult(this.client, answer);
    }
    if (task.status === "failed") {
      const error = task.error ?? { code: -32603, message: `task ${task.taskId} failed${reason}` };
      throw new McpError(error.code, error.message, error.data);
    }
    if (!task.result)
      throw new ServerMessageError(
        `${this.label}: completed task ${task.taskId} came without its result`,
        "/result/result",
      );
    return toolResult(this.client, task.result);
  }

  /** tasks.md#task-update-requests: each outstanding input answered once (keys deduplicated across polls). */
  private async answerInput(
    taskId: string,
    task: Detailed,
    signal: AbortSignal,
    options: RequestOptions,
  ): Promise<void> {
    const fresh = Object.entries(task.inputRequests ?? {}).filter(([key]) => !this.answered.has(key));
    if (fresh.length === 0) return;
    if (this.answered.size + fresh.length > MAX_INPUT_KEYS)
      throw new McpError(-32603, `${this.label}: task ${taskId} asked for more than ${MAX_INPUT_KEYS} inputs`);
    const answers = await answerInputs(
      fresh,
      (method, params) => this.client.answerServer(method, params, signal),
      (key, method) =>
        new ServerMessageError(
          `task ${taskId} asked for input ${key} with ${JSON.stringify(method)}, which is not an input request`,
          `/result/inputRequests/${key}`,
        ),
    );
    await this.client.wireRequest(
      "tasks/update",
      { taskId, inputResponses: Object.fromEntries(fresh.map(([key], i) => [key, answers[i]])) },
      this.requestOptions(options),
    );
    for (const [key] of fresh) this.answered.add(key);
  }
}

/** A Task (or DetailedTask) of either flavour under the extension's field names; a task id that is not ours is refused. */
function normalize(raw: Record<string, unknown>, flavour: Flavour, client: ClientCore, expected?: string): Detailed {
  if (expected !== undefined && raw["taskId"] !== expected)
    throw new ServerMessageError(
      `${client.wire.info.name} server answered about task ${JSON.stringify(raw["taskId"])} when asked about ${expected}`,
      "/result/taskId",
    );
  const ttl = raw[flavour.ttl];
  const poll = raw[flavour.pollInterval];
  return {
    taskId: String(raw["taskId"]),
    status: raw["status"] as TaskStatus,
    ...(typeof raw["statusMessage"] === "string" ? { statusMessage: raw["statusMessage"] } : {}),
    createdAt: String(raw["createdAt"]),
    lastUpdatedAt: String(raw["lastUpdatedAt"]),
    ttlMs: typeof ttl === "number" ? ttl : null,
    ...(typeof poll === "number" ? { pollIntervalMs: poll } : {}),
    ...(isObject(raw["inputRequests"]) ? { inputRequests: raw["inputRequests"] } : {}),
    ...(isObject(raw["result"]) ? { result: raw["result"] } : {}),
    ...(isObject(raw["error"]) ? { error: raw["error"] as unknown as Detailed["error"] } : {}),
  };
}

function publicInfo(task: Detailed): TaskInfo {
  const { inputRequests: _input, result: _result, error: _error, ...info } = task;
  return info;
}

/**
 * A tool's result in the wire's shape (tasks/result, a task's inlined result,
 * or a direct answer), checked against the wire's own tools/call result type
 * (the tasks' envelopes leave it open) and converted to 2026-07-28's.
 */
function toolResult(client: ClientCore, result: Record<string, unknown>, check = true): CallToolResult {
  const wire = client.wire;
  const type = Object.hasOwn(wire.tables.methods, "tools/call") ? wire.tables.methods["tools/call"]!.result : null;
  const typeCheck = check && type && Object.hasOwn(wire.tables.checks, type) ? wire.tables.checks[type] : undefined;
  const verdict = typeCheck ? run(typeCheck, result) : { valid: true as const };
  if (!verdict.valid) {
    const first = verdict.errors[0];
    throw new ServerMessageError(
      `the task's result is not a ${wire.info.name} ${type}: at ${first?.path || "/"} ${first?.message ?? "does not match"}`,
      first?.path ?? "",
      verdict.errors,
    );
  }
  return (
    wire.shims
      ? wire.shims.convertResult("tools/call", completeResult(result), {
          from: wire.info.name,
          to: loadedHandlerRevision.info.name,
        }).message
      : result
  ) as CallToolResult;
}

/** Waits `ms`, or less when woken (a status notification); rejects with the signal's reason. */
function pause(ms: number, signal: AbortSignal | undefined, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      resolve();
    };
    const aborted = () => {
      clearTimeout(timer);
      reject(signal!.reason instanceof Error ? signal!.reason : new DOMException("The wait was aborted", "AbortError"));
    };
    const timer = setTimeout(done, ms);
    onWake(done);
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
