// Requests that outlive their response: tasks. A tool that may run long
// declares `task` options; the same handler then serves a plain call, a task
// of the io.modelcontextprotocol/tasks extension (per-request revisions: the
// server decides, tasks.md#task-creation) and a 2025-11-25 task (the client
// asks with params.task, basic/utilities/tasks). The handler does not know
// which: once its request turns into a task, its result, error and input
// requests go to the task instead of the response.
//
// What a client can observe lives in a TaskStore (tasks/store.ts); the work
// itself (the handler's promise, its input waits, its abort) stays here, in
// this process. Which flavour a wire speaks is read from its method table
// (tasks/flavours.ts), never from a revision's name. The methods a client
// sends about its tasks are tasks/methods.ts.
import type { BusMessage } from "../outgoing/bus.js";
import { requestOf, sessionOf, type Inflight, type RequestContext, type ServerSession } from "../context.js";
import type { Scope } from "../types.js";
import { INTERNAL_ERROR, MissingClientCapabilityError, ProtocolError } from "../errors.js";
import type { ServerLogger } from "../logging.js";
import { boundedCallerOf, principalOf, type Authorization } from "../authorization.js";
import { flavourOf, type TaskFlavour } from "./flavours.js";
import { TASKS_EXTENSION } from "../../protocol/task-flavours.js";
import { isTerminal, MemoryTaskStore, newTaskId, type TaskState, type TaskStore } from "./store.js";
import { answerWithTask, fail } from "../request/outcome.js";
import { RunningTask, type TaskKeeper } from "./running-task.js";

export { TASKS_EXTENSION };

/** How a tool runs as a task. */
export interface ToolTaskOptions {
  /**
   * "optional" (default): a task when the client can take one, else a plain
   * call. "required": a client that cannot take a task is refused (-32021
   * with the extension's capability; 2025-11-25: -32601, server/tools#tool-level-negotiation).
   */
  readonly support?: "optional" | "required";
  /**
   * How long a call runs before it turns into a task (default 0: at its first
   * await). A call that ends sooner is answered directly; input it asks for
   * before then is asked on the request (multi round-trip), after it through the task.
   */
  readonly afterMs?: number;
  /** Retention from creation in ms, null for unlimited (default: the server's). */
  readonly ttlMs?: number | null;
  /** Suggested polling interval in ms (default: the server's). */
  readonly pollIntervalMs?: number;
}

export interface TasksOptions {
  /** Where task states live (default: a MemoryTaskStore). */
  readonly store?: TaskStore;
  /** Default retention in ms (default one hour); a tool's ttlMs is capped at maxTtlMs. */
  readonly ttlMs?: number | null;
  /** Longest retention a task may have (default 24 hours; null: unlimited allowed). */
  readonly maxTtlMs?: number | null;
  /** Default polling interval in ms (default 1000). */
  readonly pollIntervalMs?: number;
  /**
   * Unfinished tasks one requestor may have running in this process (default
   * 100; 2025-11-25 basic/utilities/tasks#resource-management: "Enforce limits
   * on concurrent tasks per requestor"). With authorization the requestor is
   * the verified principal, across all its sessions and both flavours of
   * tasks; without it, whom a task belongs to: the session (2025-11-25 tasks),
   * else everyone together (extension tasks, a stateless POST's).
   * Past it, a request that must become a task is refused (-32603, "Server
   * busy"); a call the server may answer directly (the extension, a tool's
   * optional support) is answered directly.
   */
  readonly maxTasksPerRequestor?: number;
}

/** A request asking about tasks: whose tasks it may see follows from its scope, channel and session. */
export interface Requester {
  readonly inflight: Inflight;
  readonly session: ServerSession;
}

export class TaskService implements TaskKeeper {
  readonly store: TaskStore;
  private readonly ttlMs: number | null;
  private readonly maxTtlMs: number | null;
  private readonly pollIntervalMs: number;
  private readonly maxPerRequestor: number;
  private readonly running = new Map<string, RunningTask>();
  /** The running tasks by owner, so that a closed session's are found without a walk of them all. */
  private readonly runningOf = new Map<string, Set<RunningTask>>();
  /** Per requestor (requestorOf), its tasks being created or running in this process (what maxTasksPerRequestor bounds). */
  private readonly unfinished = new Map<string, number>();
  /** Where status changes of subscribable tasks go (the server's subscriptions/listen registry). */
  subscribed: ((method: string, taskId: string, params: Record<string, unknown>) => void) | undefined;

  /**
   * Tells the process running a task of a cancellation or input that reached
   * this one (ServerOptions.bus); undefined when this process is alone.
   */
  signalOthers: ((message: BusMessage) => Promise<void>) | undefined;

  /** A task's work, where it runs in this process. */
  runningTask(taskId: string): RunningTask | undefined {
    return this.running.get(taskId);
  }

  /**
   * Whether a listener may be told of this task's changes: its work runs here,
   * or, with a bus, anywhere (the store has it unfinished); and, given the
   * listening request, the task is its requester's (tasks.md#security-considerations,
   * "Auth binding": another principal's task is unknown to it).
   */
  async canTellOf(taskId: string, requester?: Requester): Promise<boolean> {
    const owner = requester && this.ownerFor(requester);
    if (owner === null) return false;
    const running = this.running.get(taskId);
    if (running) return owner === undefined || running.owner === owner;
    if (!this.signalOthers) return false;
    const state = await this.store.get(taskId).catch(() => undefined);
    return state !== undefined && !isTerminal(state.status) && (owner === undefined || state.owner === owner);
  }

  /** A cancellation or input from another process, for a task whose work may run here. */
  signal(
    taskId: string,
    message: { readonly cancel?: string; readonly inputResponses?: Readonly<Record<string, unknown>> },
  ): void {
    const running = this.running.get(taskId);
    if (!running) return;
    if (message.inputResponses) running.answer(message.inputResponses);
    if (message.cancel !== undefined) {
      running.abort(message.cancel);
      void this.store.get(taskId).then(
        (state) => running.announce(state),
        () => {},
      );
    }
  }

  constructor(
    readonly logger: ServerLogger,
    options: TasksOptions = {},
  ) {
    this.store = options.store ?? new MemoryTaskStore();
    this.maxTtlMs = options.maxTtlMs === undefined ? 24 * 3_600_000 : options.maxTtlMs;
    this.ttlMs = this.capped(options.ttlMs === undefined ? 3_600_000 : options.ttlMs);
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.maxPerRequestor = options.maxTasksPerRequestor ?? 100;
    for (const [name, value] of [
      ["ttlMs", this.ttlMs],
      ["pollIntervalMs", this.pollIntervalMs],
      ["maxTasksPerRequestor", this.maxPerRequestor],
    ] as const)
      if (value !== null && (!Number.isInteger(value) || value < 1))
        throw new RangeError(
          `tasks: ${name} must be a positive integer${name === "ttlMs" ? " or null" : ""}, not ${value}`,
        );
  }

  /**
   * Called as a tool with task options starts: refuses a client that cannot
   * take a required task, and arms the turn into a task when it can take one.
   */
  schedule(options: ToolTaskOptions, context: RequestContext, params: unknown): void {
    const inflight = requestOf(context);
    const flavour = flavourOf(inflight.scope.wire);
    const accepts = flavour?.accepts(inflight.scope, inflight.wireParams ?? params) ?? false;
    if (!accepts) {
      if (options.support === "required") throw this.cannotTakeTask(flavour, inflight.scope);
      return;
    }
    const { authorization } = inflight.channel;
    const owner = flavour!.owner(inflight.scope, sessionOf(context), authorization);
    const requestor = requestorOf(owner, authorization);
    // Where the request must become a task (the client asked for one, or the tool runs only as
    // one), a requestor at its limit is refused before the handler runs; the turn counts exactly.
    const mustBeTask = flavour!.clientAsks || options.support === "required";
    if (mustBeTask && this.atLimit(requestor)) throw this.tooManyTasks();
    // 2025-11-25 #ttl-and-resource-management: the requested ttl, which the receiver may override (capped here).
    const requested = flavour!.requestedTtl(inflight.wireParams ?? params);
    const ttlMs = this.capped(requested ?? (options.ttlMs === undefined ? this.ttlMs : options.ttlMs));
    const pollIntervalMs = options.pollIntervalMs ?? this.pollIntervalMs;
    const turn = this.turner(flavour!, { owner, requestor }, mustBeTask, ttlMs, pollIntervalMs);
    // A 2025-11-25 client asked for the task: it gets one whatever the handler does, however soon
    // it ends (#task-support-and-handling: "MUST return a CreateTaskResult"), so the request turns now.
    if (flavour!.clientAsks) turn(inflight, sessionOf(context));
    else if ((options.afterMs ?? 0) === 0) setImmediate(turn, inflight, sessionOf(context));
    else turnLater(options.afterMs!, turn, inflight, sessionOf(context));
  }

  /** What turns a request into a task: at once, at the handler's first await, or after `afterMs`. */
  private turner(
    flavour: TaskFlavour,
    { owner, requestor }: { readonly owner: string; readonly requestor: string },
    mustBeTask: boolean,
    ttlMs: number | null,
    pollIntervalMs: number,
  ): (inflight: Inflight, session: ServerSession) => void {
    return (inflight, session) => {
      // Input asked for before the turn is answered on the request (tasks.md: resolve MRTR before creating the task).
      if (inflight.done || inflight.cancelled || inflight.task || (inflight.round?.missing.length ?? 0) > 0) return;
      if (this.atLimit(requestor)) {
        if (mustBeTask) return this.refuse(session, inflight, this.tooManyTasks());
        // tasks.md#task-creation: the server decides; this call is answered directly.
        this.logger(
          "debug",
          `${inflight.method} runs without a task: its requestor has ${this.maxPerRequestor} unfinished tasks (tasks.maxTasksPerRequestor)`,
        );
        return;
      }
      // Counted now, before the store is awaited, so that a burst of requests cannot all pass the check.
      this.unfinished.set(requestor, (this.unfinished.get(requestor) ?? 0) + 1);
      const now = new Date().toISOString();
      const state: TaskState = {
        taskId: newTaskId(),
        owner,
        status: "working",
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs,
        pollIntervalMs,
      };
      if (mustBeTask) this.start(inflight, flavour, session, state, requestor);
      else void this.create(inflight, flavour, session, state, requestor);
    };
  }

  /**
   * A request that must become a task does at once: its outcome and input go
   * to the task from now on (request/outcome.ts), even if its handler ends
   * before the store has the task; the client is answered once it has
   * (tasks.md#task-creation: not before a tasks/get would find it).
   */
  private start(
    inflight: Inflight,
    flavour: TaskFlavour,
    session: ServerSession,
    state: TaskState,
    requestor: string,
  ): void {
    const task = new RunningTask(this, state.taskId, state.owner, requestor, inflight, flavour, session, state.ttlMs);
    inflight.task = task;
    this.track(task);
    const stored = this.store.create(state);
    task.whenCreated(
      stored.then(
        () => {
          const gone = inflight.done || inflight.cancelled;
          // Ends the request: with CreateTaskResult, or (cancelled, or its session closed) with nothing.
          answerWithTask(
            session,
            inflight,
            flavour.creationResult(state),
            flavour.createdCheck(inflight.scope.wire.tables),
          );
          if (gone) this.orphaned(task, "the request ended before its task was created");
        },
        (error: unknown) => {
          // 2025-11-25 #task-support-and-handling: a request the receiver cannot accept as a task is
          // refused, not run as a plain call (whose outcome may already have gone to the task).
          inflight.task = undefined;
          const reason = (error as Error).message;
          fail(session, inflight, new ProtocolError(INTERNAL_ERROR, `Server busy: cannot create the task: ${reason}`));
          task.abort(`the task could not be created: ${reason}`);
          throw error;
        },
      ),
    );
  }

  /** A request the server may still answer directly becomes a task once the store has it. */
  private async create(
    inflight: Inflight,
    flavour: TaskFlavour,
    session: ServerSession,
    state: TaskState,
    requestor: string,
  ): Promise<void> {
    try {
      // tasks.md#task-creation: not answered until a tasks/get would find it.
      await this.store.create(state);
    } catch (error) {
      this.release(requestor);
      this.logger("warning", `${inflight.method} continues without a task: ${(error as Error).message}`);
      return;
    }
    // The handler ended while the task was being stored: it was answered directly.
    if (inflight.done || inflight.cancelled) {
      this.release(requestor);
      this.forget(state.taskId);
      return;
    }
    const task = new RunningTask(this, state.taskId, state.owner, requestor, inflight, flavour, session, state.ttlMs);
    inflight.task = task;
    this.track(task);
    answerWithTask(session, inflight, flavour.creationResult(state), flavour.createdCheck(inflight.scope.wire.tables));
  }

  /** A task whose request ended before it was announced: its work stops, and its record is finished. */
  private orphaned(task: RunningTask, reason: string): void {
    task.abort(reason);
    this.forget(task.taskId);
  }

  /**
   * Marks a record no client was told of as finished, so that a full store may
   * evict it (MemoryTaskStore.makeRoom keeps unfinished ones till their ttl).
   */
  private forget(taskId: string): void {
    void this.store
      .update(taskId, { status: "cancelled", statusMessage: "The request ended before its task was announced" })
      .catch(() => {});
  }

  private track(task: RunningTask): void {
    this.running.set(task.taskId, task);
    let owned = this.runningOf.get(task.owner);
    if (!owned) this.runningOf.set(task.owner, (owned = new Set()));
    owned.add(task);
  }

  /** @internal */
  ended(task: RunningTask): void {
    if (this.running.get(task.taskId) !== task) return;
    this.running.delete(task.taskId);
    const owned = this.runningOf.get(task.owner)!;
    owned.delete(task);
    if (owned.size === 0) this.runningOf.delete(task.owner);
    this.release(task.requestor);
  }

  /** Whether work of a task `owner` owns runs in this process (a session's: ending it would cancel that work). */
  runsTasksOf(owner: string): boolean {
    return this.runningOf.has(owner);
  }

  /**
   * A session closed. The 2025-11-25 tasks it owns are bound to it
   * (#task-isolation-and-access-control) and no one can reach them any more:
   * their work stops and they are marked cancelled, rather than running on,
   * unread, until their ttl.
   */
  sessionClosed(sessionId: string): void {
    const owned = this.runningOf.get(sessionId);
    if (!owned) return;
    for (const task of [...owned]) {
      void this.store
        .update(task.taskId, { status: "cancelled", statusMessage: "The session that created the task closed" })
        .catch(() => {});
      task.abort("the session that created the task closed");
    }
  }

  private atLimit(requestor: string): boolean {
    return (this.unfinished.get(requestor) ?? 0) >= this.maxPerRequestor;
  }

  private release(requestor: string): void {
    const count = (this.unfinished.get(requestor) ?? 1) - 1;
    if (count > 0) this.unfinished.set(requestor, count);
    else this.unfinished.delete(requestor);
  }

  /**
   * A requestor at maxTasksPerRequestor. -32603 (Internal error), as the
   * session's in-flight limit answers ("Server busy", request/gate.ts): a state of
   * the server, not a fault of the params (not -32602), in a code every
   * revision's clients know (the extension's #protocol-errors lists it); the
   * implementation-defined -32000 range has no meaning a client could act on.
   */
  private tooManyTasks(): ProtocolError {
    const limit = this.maxPerRequestor;
    return new ProtocolError(
      INTERNAL_ERROR,
      `Server busy: this requestor already has ${limit} unfinished tasks, the limit (tasks.maxTasksPerRequestor); retry when one has finished`,
      { maxTasksPerRequestor: limit },
    );
  }

  /** Answers a request that cannot become a task with `error`, and stops its handler (whose outcome then goes nowhere). */
  private refuse(session: ServerSession, inflight: Inflight, error: ProtocolError): void {
    fail(session, inflight, error);
    inflight.cancel(error.message);
  }

  /** The owner a request presents (its flavour's), or null when its wire has no tasks. */
  ownerFor({ inflight, session }: Requester): string | null {
    const flavour = flavourOf(inflight.scope.wire);
    return flavour ? flavour.owner(inflight.scope, session, inflight.channel.authorization) : null;
  }

  private cannotTakeTask(flavour: TaskFlavour | undefined, scope: Scope): ProtocolError {
    if (flavour && !flavour.clientAsks)
      return new MissingClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } } as never);
    // 2025-11-25 server/tools#tool-level-negotiation: "required" without a task is -32601.
    return new ProtocolError(
      -32601,
      `Method not found: this tool runs only as a task, which ${flavour ? "the request did not ask for (params.task)" : `protocol revision ${scope.wire.info.name} cannot carry`}`,
    );
  }

  private capped(ttlMs: number | null): number | null {
    if (this.maxTtlMs === null) return ttlMs;
    return ttlMs === null ? this.maxTtlMs : Math.min(ttlMs, this.maxTtlMs);
  }
}

/**
 * Whom maxTasksPerRequestor counts a task against: with authorization its
 * caller (boundedCallerOf), whatever client, session or flavour it came through (one principal's
 * many sessions must not fill the store); without it, the task's owner.
 */
function requestorOf(owner: string, authorization: Authorization | undefined): string {
  return authorization ? `principal ${boundedCallerOf(principalOf(authorization))}` : owner;
}

/**
 * Runs `turn` after `ms` unless the request is gone by then. The timer outlives
 * a call that ends sooner; weak references keep it from holding the request
 * (its params) and the session till then. While the request runs its session
 * holds it (and the server the session), so neither is collected before the turn.
 */
function turnLater(
  ms: number,
  turn: (inflight: Inflight, session: ServerSession) => void,
  inflight: Inflight,
  session: ServerSession,
): void {
  const request = new WeakRef(inflight);
  const requester = new WeakRef(session);
  const timer = setTimeout(() => {
    const [inflight, session] = [request.deref(), requester.deref()];
    if (inflight && session) turn(inflight, session);
  }, ms);
  // Unref'd: a pending turn must not keep the process alive.
  (timer as { unref?: () => void }).unref?.();
}
