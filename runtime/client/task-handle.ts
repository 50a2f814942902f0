// A task's handle on the client's side (ToolTask): polled until the task ends,
// honouring the server's poll interval (tasks.md#task-polling: SHOULD) within a
// deadline (default: the task's ttl, after which the server may delete it) and an
// AbortSignal; giving up cancels the task unless told not to. Its outcome is what
// tasks/result answers (2025-11-25 #result-retrieval) or what tasks/get inlines
// (tasks.md#result-retrieval); the extension's input requests are answered once
// per key with tasks/update (tasks.md#task-update-requests). How a call becomes a
// task is tasks.ts's.
import type { CallToolResult, ClientCapabilities } from "../protocol/handler-revision.js";
import { loadedHandlerRevision } from "../protocol/revisions.js";
import type { TaskFlavour as Flavour } from "../protocol/task-flavours.js";
import type { Task, TaskStatus } from "../../generated/ext/tasks/types.js";
import { isObject, run } from "../validation.js";
import type { ClientCore } from "./types.js";
import { completeResult, type RequestOptions } from "./connection.js";
import { McpError, RequestTimeoutError, ServerMessageError, TaskCancelledError } from "./errors.js";
import { answerInputs, MAX_INPUT_KEYS } from "./input.js";

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

/** Whether the server's capabilities (as it declared them, in its revision's shape) have this path. */
export function declares(client: ClientCore, path: readonly string[]): boolean {
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
export function offers(client: ClientCore, method: string): boolean {
  const entry = Object.hasOwn(client.wire.tables.methods, method) ? client.wire.tables.methods[method] : undefined;
  if (!entry) return false;
  if (!entry.capability || client.serverCapabilities === undefined) return true;
  return declares(client, entry.capability.path);
}

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

export class TaskHandle implements ToolTask {
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
export function normalize(
  raw: Record<string, unknown>,
  flavour: Flavour,
  client: ClientCore,
  expected?: string,
): Detailed {
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

export function publicInfo(task: Detailed): TaskInfo {
  const { inputRequests: _input, result: _result, error: _error, ...info } = task;
  return info;
}

/**
 * A tool's result in the wire's shape (tasks/result, a task's inlined result,
 * or a direct answer), checked against the wire's own tools/call result type
 * (the tasks' envelopes leave it open) and converted to 2026-07-28's.
 */
export function toolResult(client: ClientCore, result: Record<string, unknown>, check = true): CallToolResult {
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
