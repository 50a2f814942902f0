// The two flavours of tasks, as data both sides read: 2025-11-25's core tasks
// (basic/utilities/tasks) and the io.modelcontextprotocol/tasks extension
// (tasks.md). Which one a loaded revision speaks is read from its method table
// (the capability tasks/get needs), never from a revision's name. They differ
// in who decides that a request becomes a task, in field names and nesting, in
// where a task's outcome and input travel, and in which notifications tell of a
// change; the server's tasks (server/tasks) and the client's (client/tasks)
// each build what they do on this.
import type { MessageTables } from "../messages.js";
import { isObject } from "../validation.js";
import type { ClientCapabilities } from "./handler-revision.js";

/** The extension's identifier (tasks.md#extension-identifier). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** tasks.md#task-status-notifications: the notification, and the subscriptions/listen field naming the tasks. */
export const TASK_NOTIFICATION = "notifications/tasks";
export const TASK_FILTER_FIELD = "taskIds";

/** basic/utilities/tasks#associating-task-related-messages */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** What differs between the two flavours. */
export interface TaskFlavour {
  /** How errors name it: "2025-11-25 tasks", or the extension's identifier. */
  readonly label: string;
  /** The extension's identifier; undefined for 2025-11-25's core tasks. */
  readonly extension: string | undefined;
  /** true: the client asks for a task per request (params.task); false: the server decides. */
  readonly clientAsks: boolean;
  /** Where the server's capabilities offer task-augmented tools/call; undefined: the server decides per request. */
  readonly offeredAt: readonly string[] | undefined;
  /** What each task request declares in its per-request capabilities besides the client's own. */
  readonly declare: ClientCapabilities | undefined;
  /** Task's retention and poll interval fields. */
  readonly ttl: string;
  readonly pollInterval: string;
  /** Where a terminal task's outcome is: inlined in tasks/get, or what tasks/result answers. */
  readonly outcome: "inline" | "tasks/result";
  /** How a task asks for input: server-to-client requests tagged with the task, or the task's own inputRequests. */
  readonly input: "requests" | "task";
  /** The notification that may tell the requester of a status change outside any subscription. */
  readonly statusNotification: string | undefined;
  /** The notification subscriptions/listen delivers for a task it names, if the flavour has one. */
  readonly subscribedNotification: string | undefined;
  /** Whether progress on the request's token goes on once it is a task. */
  readonly keepsProgress: boolean;
  /** A tools/call's params asking for a task, where the client asks (params.task with an optional ttl). */
  ask(params: Record<string, unknown>, ttlMs: number | undefined): Record<string, unknown>;
  /** The task a tools/call answer created, or undefined when the answer is the tool's result. */
  created(result: Record<string, unknown>): Record<string, unknown> | undefined;
}

export const CORE_TASKS: TaskFlavour = Object.freeze<TaskFlavour>({
  label: "2025-11-25 tasks",
  extension: undefined,
  clientAsks: true,
  // basic/utilities/tasks#capabilities: "tasks.requests.tools.call".
  offeredAt: ["tasks", "requests", "tools", "call"],
  declare: undefined,
  ttl: "ttl",
  pollInterval: "pollInterval",
  outcome: "tasks/result",
  input: "requests",
  // #task-status-notification: the requester may be told of a change (MAY; params are the Task).
  statusNotification: "notifications/tasks/status",
  subscribedNotification: undefined,
  // basic/utilities/progress: the token "MUST continue to be used ... throughout the task's lifetime".
  keepsProgress: true,
  // #creating-tasks: "the task field included in the request params", with an optional ttl.
  ask: (params, ttlMs) => ({ ...params, task: ttlMs !== undefined ? { ttl: ttlMs } : {} }),
  created: (result) => (isObject(result["task"]) ? result["task"] : undefined),
});

const extensionFlavours = new Map<string, TaskFlavour>();

/** The flavour of the tasks extension with this identifier. */
export function extensionTasks(identifier: string): TaskFlavour {
  let flavour = extensionFlavours.get(identifier);
  if (!flavour) {
    flavour = Object.freeze<TaskFlavour>({
      label: identifier,
      extension: identifier,
      // tasks.md#task-creation: the server alone decides, retention included.
      clientAsks: false,
      offeredAt: undefined,
      // #capability-negotiation: in the per-request capabilities of the request it may answer with a task,
      // and of tasks/get, tasks/update and tasks/cancel (#protocol-errors: -32021 otherwise).
      declare: { extensions: { [identifier]: {} } },
      ttl: "ttlMs",
      pollInterval: "pollIntervalMs",
      outcome: "inline",
      input: "task",
      // #task-status-notifications: only on a subscriptions/listen stream that asked for the task.
      statusNotification: undefined,
      subscribedNotification: TASK_NOTIFICATION,
      // #task-status-notifications: progress is "not supported on tasks in general".
      keepsProgress: false,
      ask: (params) => params,
      // #polymorphic-results: resultType "task".
      created: (result) => (result["resultType"] === "task" ? result : undefined),
    });
    extensionFlavours.set(identifier, flavour);
  }
  return flavour;
}

/** The flavour of tasks a revision's tables speak: from the capability tasks/get needs; undefined when they have none. */
export function taskFlavourOf(tables: Pick<MessageTables, "methods">): TaskFlavour | undefined {
  const get = Object.hasOwn(tables.methods, "tasks/get") ? tables.methods["tasks/get"] : undefined;
  if (!get) return undefined;
  const [root, identifier] = get.capability?.path ?? [];
  return root === "extensions" && identifier !== undefined ? extensionTasks(identifier) : CORE_TASKS;
}
