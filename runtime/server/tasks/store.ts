// Where tasks live (2025-11-25 basic/utilities/tasks; the
// io.modelcontextprotocol/tasks extension): the state a client can observe,
// kept apart from the running work so that a store shared between processes
// can hold it. The in-memory default is bounded and expires tasks by TTL.
import { nodeCrypto } from "../../node-crypto.js";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A status after which a task never changes (tasks#task-status). */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** What a client can observe of a task, in no revision's shape (the flavours render it). */
export interface TaskState {
  readonly taskId: string;
  /** Who may see it: a handshake session's id, or "" where the task id alone grants access (see tasks/service.ts). */
  readonly owner: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** Retention from createdAt in ms; null: unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** completed: the result as the request would have answered it on the wire, JSON text. */
  readonly result?: string;
  /** failed: the JSON-RPC error the request would have answered. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** input_required: what the task waits for, by key, in the wire revision's shapes. */
  readonly inputRequests?: { readonly [key: string]: { readonly method: string; readonly params?: unknown } };
}

export type TaskChange = Partial<Omit<TaskState, "taskId" | "owner" | "createdAt" | "lastUpdatedAt">>;

/**
 * A store of task states. Implementations must make `create` durable before
 * resolving (tasks.md#task-creation: a tasks/get right after CreateTaskResult
 * must find the task) and must not change a terminal task.
 */
export interface TaskStore {
  /** Stores a new task; rejects when the store cannot take more. */
  create(task: TaskState): Promise<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Promise<TaskState | undefined>;
  /** Applies a change and stamps lastUpdatedAt; a terminal task stays as it is. Resolves with the state after. */
  update(taskId: string, change: TaskChange): Promise<TaskState | undefined>;
  /** One owner's tasks, oldest first, from an offset (tasks/list). */
  list(owner: string, offset: number, limit: number): Promise<{ tasks: TaskState[]; more: boolean }>;
}

export interface MemoryTaskStoreOptions {
  /** Tasks held at most (default 10000); when full, expired then finished tasks make room, else create fails. */
  readonly maxTasks?: number;
  /** Clock, for tests. */
  readonly now?: () => number;
}

/** A task id: 128 random bits, URL- and header-safe (tasks#security-considerations: not guessable). */
export function newTaskId(): string {
  return nodeCrypto().randomBytes(16).toString("base64url");
}

export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskState>();
  private readonly maxTasks: number;
  private readonly now: () => number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 10_000;
    this.now = options.now ?? Date.now;
    if (!Number.isInteger(this.maxTasks) || this.maxTasks < 1)
      throw new RangeError(`maxTasks must be a positive integer, not ${options.maxTasks}`);
  }

  get size(): number {
    return this.tasks.size;
  }

  async create(task: TaskState): Promise<void> {
    if (this.tasks.size >= this.maxTasks) this.makeRoom();
    if (this.tasks.size >= this.maxTasks)
      throw new Error(`the task store holds ${this.maxTasks} unfinished tasks, its limit`);
    this.tasks.set(task.taskId, task);
  }

  async get(taskId: string): Promise<TaskState | undefined> {
    const task = this.tasks.get(taskId);
    if (task && this.expired(task)) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  async update(taskId: string, change: TaskChange): Promise<TaskState | undefined> {
    const task = await this.get(taskId);
    if (!task || isTerminal(task.status)) return task;
    const next: TaskState = { ...task, ...change, lastUpdatedAt: new Date(this.now()).toISOString() };
    // A field the change sets to undefined is gone (e.g. inputRequests once answered).
    for (const [key, value] of Object.entries(change))
      if (value === undefined) delete (next as unknown as Record<string, unknown>)[key];
    this.tasks.set(taskId, next);
    return next;
  }

  async list(owner: string, offset: number, limit: number): Promise<{ tasks: TaskState[]; more: boolean }> {
    const mine = [...this.tasks.values()].filter((t) => t.owner === owner && !this.expired(t));
    return { tasks: mine.slice(offset, offset + limit), more: mine.length > offset + limit };
  }

  /** basic/utilities/tasks#ttl-and-resource-management: after its ttl a task may be deleted, whatever its status. */
  private expired(task: TaskState): boolean {
    return task.ttlMs !== null && Date.parse(task.createdAt) + task.ttlMs <= this.now();
  }

  private makeRoom(): void {
    for (const [id, task] of this.tasks) if (this.expired(task)) this.tasks.delete(id);
    if (this.tasks.size < this.maxTasks) return;
    // Oldest finished task first (Map order is insertion order).
    for (const [id, task] of this.tasks)
      if (isTerminal(task.status)) {
        this.tasks.delete(id);
        return;
      }
  }
}
