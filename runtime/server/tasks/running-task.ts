// One task whose handler runs in this process (tasks/service.ts has the service that
// makes and finds them): its input waits, its ttl, its writes to the store in
// order, and its abort. What a client observes is the store's; this is the work.
import type { MessageTables } from "../../messages.js";
import { requireClientCapability } from "../input/input-required.js";
import type { Inflight, ServerSession } from "../context.js";
import type { RequestTask, TaskOutcome } from "../types.js";
import type { TaskFlavour } from "./flavours.js";
import type { TaskChange, TaskState, TaskStatus } from "./store.js";
import type { ServerLogger } from "../logging.js";
import type { TaskStore } from "./store.js";

/** What a running task needs of the service that keeps it (TaskService implements it). */
export interface TaskKeeper {
  readonly logger: ServerLogger;
  readonly store: TaskStore;
  /** Where status changes of subscribable tasks go. */
  readonly subscribed: ((method: string, taskId: string, params: Record<string, unknown>) => void) | undefined;
  /** The task ended: it no longer counts against its requestor. */
  ended(task: RunningTask): void;
}

/** @internal One task whose handler runs in this process. */
export class RunningTask implements RequestTask {
  private keys = 0;
  private readonly waiting = new Map<
    string,
    { method: string; params?: unknown; resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private writes: Promise<unknown> = Promise.resolve();
  /** Settles once the client was told of the task (CreateTaskResult); rejects when it could not be stored. */
  private created: Promise<unknown> = Promise.resolve();
  /** The status last announced, so that a write announces only a change (without reading the store first). */
  private announced: TaskStatus = "working";
  private expiry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly service: TaskKeeper,
    readonly taskId: string,
    /** Who the task belongs to (TaskState.owner). */
    readonly owner: string,
    /** What its count against maxTasksPerRequestor is kept under (its principal, with authorization). */
    readonly requestor: string,
    readonly inflight: Inflight,
    readonly flavour: TaskFlavour,
    private readonly session: ServerSession,
    ttlMs: number | null,
  ) {
    // Past its ttl the task may be deleted (tasks#ttl-and-resource-management); its work stops
    // then too, so nothing waits forever. Unref'd: it must not keep the process alive.
    if (ttlMs !== null) {
      this.expiry = setTimeout(() => this.abort("the task's ttl elapsed"), ttlMs);
      (this.expiry as { unref?: () => void }).unref?.();
    }
  }

  /**
   * The task becomes the request's outcome before the store has it (a handler
   * may end first): its writes, and requests that name it, wait for `announced`.
   */
  whenCreated(announced: Promise<unknown>): void {
    this.created = announced;
    this.writes = announced.then(
      () => {},
      () => {},
    );
  }

  /** Input the handler asks for once its request is a task. */
  ask(method: string, params: unknown): Promise<unknown> {
    const scope = this.inflight.scope;
    try {
      requireClientCapability(scope, method);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.flavour.input === "requests") {
      // 2025-11-25 #input-required-status: an ordinary request tagged with the task, while the task waits.
      const tagged = this.flavour.tagRequest(params, this.taskId);
      void this.write({ status: "input_required" });
      // Not before CreateTaskResult: the client would not know the task the request names.
      return this.created
        .then(() => this.session.request(method, tagged, { signal: this.inflight.signal }))
        .finally(() => {
          void this.write({ status: "working" });
        });
    }
    // tasks.md#input-required: keys unique over the task's life; the client answers with tasks/update.
    const key = `${method}#${++this.keys}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(key, { method, ...(params !== undefined ? { params } : {}), resolve, reject });
      void this.write({ status: "input_required", inputRequests: this.outstanding() });
    });
  }

  /** tasks/update: answers for outstanding keys; others are ignored (tasks.md#task-update-requests). */
  answer(responses: { readonly [key: string]: unknown }): void {
    // Checked with the tables of the revision the task was created in (the answers come in its shapes).
    const results: MessageTables["results"] = this.inflight.scope.wire.tables.results;
    let answered = false;
    for (const [key, value] of Object.entries(responses)) {
      const wait = this.waiting.get(key);
      const check = wait && results[wait.method];
      if (!wait || (check && !check(value, null))) continue;
      this.waiting.delete(key);
      wait.resolve(value);
      answered = true;
    }
    if (!answered) return;
    void this.write(
      this.waiting.size === 0
        ? { status: "working", inputRequests: undefined }
        : { status: "input_required", inputRequests: this.outstanding() },
    );
  }

  /** The handler ended: the task takes its outcome. */
  settle(outcome: TaskOutcome): void {
    // Once finished the task is only what the store keeps, which expires it by itself: the ttl
    // timer would hold this task, its request's params and its session for up to maxTtlMs.
    this.stopExpiry();
    // Input still awaited has no one left to resume (its promise just never settles).
    this.waiting.clear();
    const change: TaskChange =
      "error" in outcome
        ? { status: "failed", error: outcome.error, statusMessage: outcome.error.message }
        : { status: this.flavour.completedStatus(outcome.isError), result: outcome.result };
    void this.write(change).then(() => this.service.ended(this));
  }

  /** Stops the work (tasks/cancel, ttl): its signal aborts, what it waits for rejects. */
  abort(reason: string): void {
    this.stopExpiry();
    this.inflight.cancel(reason);
    for (const wait of this.waiting.values()) wait.reject(new Error(reason));
    this.waiting.clear();
    this.service.ended(this);
  }

  private stopExpiry(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = undefined;
  }

  private outstanding(): TaskState["inputRequests"] {
    const requests: { [key: string]: { method: string; params?: unknown } } = {};
    for (const [key, { method, params }] of this.waiting)
      requests[key] = params === undefined ? { method } : { method, params };
    return requests;
  }

  /** Tells the requester of a new status, where the flavour has a notification for it. */
  announce(state: TaskState | undefined): void {
    if (!state) return;
    this.announced = state.status;
    if (this.flavour.statusNotification)
      this.session.notify(this.flavour.statusNotification, this.flavour.detailed(state));
    if (this.flavour.subscribedNotification)
      this.service.subscribed?.(this.flavour.subscribedNotification, this.taskId, this.flavour.detailed(state));
  }

  /** Store writes in order, one at a time; a failed write is logged, not thrown at the handler. */
  private write(change: TaskChange): Promise<unknown> {
    this.writes = this.writes
      .then(async () => {
        const after = await this.service.store.update(this.taskId, change);
        if (after && after.status !== this.announced) this.announce(after);
      })
      .catch((error: unknown) =>
        this.service.logger("error", `task ${this.taskId}: cannot store its state`, String(error)),
      );
    return this.writes;
  }
}
