// The two wire flavours of tasks, chosen by a wire's method table: where
// tasks/get needs `capabilities.extensions[...]` the io.modelcontextprotocol/tasks
// extension is merged in (tasks.md); where it needs `capabilities.tasks` the
// revision has the 2025-11-25 core tasks (basic/utilities/tasks). They share
// one task state (task-store.ts) and differ in who decides, in field names and
// nesting, and in what a tool error and a late cancel mean.
import type { Check } from "../validation.js";
import { isObject } from "../validation.js";
import type { MessageTables } from "../index.js";
import { principalOf, type Authorization } from "./authorization.js";
import { declared } from "./capabilities.js";
import type { Scope } from "./context.js";
import { invalidParams } from "./errors.js";
import type { Wire } from "./revisions.js";
import type { TaskState, TaskStatus } from "./task-store.js";

/** tasks.md#task-status-notifications: the notification, and the subscriptions/listen field naming the tasks. */
export const TASK_NOTIFICATION = "notifications/tasks";
export const TASK_FILTER_FIELD = "taskIds";

/** basic/utilities/tasks#associating-task-related-messages */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

export interface TaskFlavour {
  /** true: the client asks for a task per request (params.task); false: the server decides. */
  readonly clientAsks: boolean;
  /** How a task asks for input: server-to-client requests tagged with the task, or the task's own inputRequests. */
  readonly input: "requests" | "task";
  /** Whether this request may be answered with a task. */
  accepts(scope: Scope, params: unknown): boolean;
  /** The retention the request asks for, if it may ask (params.task.ttl). */
  requestedTtl(params: unknown): number | undefined;
  /**
   * Who may see the task: the visibility key its requests must present, from
   * the request's scope, session and verified authorization (undefined without auth).
   */
  owner(scope: Scope, session: TaskRequestorSession, authorization: Authorization | undefined): string;
  /** The request's answer when it becomes a task. */
  created(state: TaskState): Record<string, unknown>;
  /** The check that answer must pass on the wire. */
  createdCheck(tables: MessageTables): Check | undefined;
  /** tasks/get. */
  detailed(state: TaskState): Record<string, unknown>;
  /** The status of a task whose tool result has isError. */
  completedStatus(isError: boolean): TaskStatus;
  /** tasks/cancel of a running task, after it was marked cancelled. */
  cancelled(state: TaskState): Record<string, unknown>;
  /** tasks/cancel of a task already finished. */
  cancelledAlready(state: TaskState): Record<string, unknown>;
  /** The notification that tells the requester of a status change, if the flavour has one on the session. */
  readonly statusNotification: string | undefined;
  /** Whether progress on the request's token goes on once it is a task. */
  readonly keepsProgress: boolean;
  /** The notification subscriptions/listen delivers for a task it names, if the flavour has one. */
  readonly subscribedNotification: string | undefined;
  /** A server-to-client request's params, tagged with the task. */
  tagRequest(params: unknown, taskId: string): unknown;
  /** An input request's params in the wire revision's shape. */
  paramsToWire(scope: Scope, method: string, params: unknown): unknown;
}

/** The fields of Task both flavours share, with the flavour's names for ttl and poll interval. */
function taskFields(state: TaskState, ttl: string, pollInterval: string): Record<string, unknown> {
  const fields: Record<string, unknown> = { taskId: state.taskId, status: state.status };
  if (state.statusMessage !== undefined) fields["statusMessage"] = state.statusMessage;
  fields["createdAt"] = state.createdAt;
  fields["lastUpdatedAt"] = state.lastUpdatedAt;
  fields[ttl] = state.ttlMs;
  if (state.pollIntervalMs !== undefined) fields[pollInterval] = state.pollIntervalMs;
  return fields;
}

const extensionFlavours = new Map<string, TaskFlavour>();

function extensionFlavour(identifier: string): TaskFlavour {
  let flavour = extensionFlavours.get(identifier);
  if (!flavour) extensionFlavours.set(identifier, (flavour = newExtensionFlavour(identifier)));
  return flavour;
}

function newExtensionFlavour(identifier: string): TaskFlavour {
  return {
    clientAsks: false,
    input: "task",
    // tasks.md#capability-negotiation: only to a client that declared the extension on this request.
    accepts: (scope) =>
      scope.perRequest && declared(scope.clientCapabilities, { holder: "client", path: ["extensions", identifier] }),
    // tasks.md#task-creation: the server alone decides, retention included.
    requestedTtl: () => undefined,
    // tasks.md#security-considerations, "Auth binding": a task is its creator's
    // principal's, checked on every task request; without authorization the
    // id, unguessable, is what grants access ("").
    owner: (_scope, _session, authorization) => principalOf(authorization),
    created: (state) => ({ resultType: "task", ...taskFields(state, "ttlMs", "pollIntervalMs") }),
    createdCheck: (tables) => tables.results["tools/call"],
    detailed: (state) => {
      const task = taskFields(state, "ttlMs", "pollIntervalMs");
      if (state.status === "input_required") task["inputRequests"] = state.inputRequests ?? {};
      if (state.status === "completed" && state.result !== undefined) task["result"] = JSON.parse(state.result);
      if (state.status === "failed" && state.error) task["error"] = state.error;
      return task;
    },
    // tasks.md#task-execution-errors: a tool result with isError is a completed task.
    completedStatus: () => "completed",
    // tasks.md#task-cancellation: an empty acknowledgment, whatever the status.
    cancelled: () => ({}),
    cancelledAlready: () => ({}),
    // tasks.md#task-status-notifications: only on a subscriptions/listen stream that asked for the task.
    statusNotification: undefined,
    subscribedNotification: TASK_NOTIFICATION,
    // tasks.md#task-status-notifications: progress "not supported on tasks in general".
    keepsProgress: false,
    tagRequest: (params) => params,
    paramsToWire: (_scope, _method, params) => params,
  };
}

/** What a task's owner is read from, of the session a request came on (Session implements it). */
export interface TaskRequestorSession {
  readonly sessionId: string;
  /** The session was assumed for one stateless POST (no handshake, no session id): it ends with it. */
  readonly isStateless: boolean;
}

/** What a 2025-11-25 task made on a stateless POST belongs to, before its principal. */
const STATELESS_OWNER = "stateless ";
/**
 * The owner of a stateless POST's task without authorization: every client's.
 * Such a requestor cannot be told from another, so tasks/list shows it none
 * (#task-isolation-and-access-control: listing would expose every task's metadata).
 */
export const UNIDENTIFIED_OWNER = STATELESS_OWNER + principalOf(undefined);

const coreFlavour: TaskFlavour = {
  clientAsks: true,
  input: "requests",
  // #task-support-and-handling: a task when the request asks and the server declared it for tools/call.
  accepts: (scope, params) =>
    isObject(params) &&
    isObject(params["task"]) &&
    declared(scope.serverCapabilities, { holder: "server", path: ["tasks", "requests", "tools", "call"] }),
  requestedTtl: (params) => {
    const ttl = isObject(params) && isObject(params["task"]) ? params["task"]["ttl"] : undefined;
    return typeof ttl === "number" && Number.isInteger(ttl) && ttl > 0 ? ttl : undefined;
  },
  // #task-isolation-and-access-control: the session that created it; with authorization the
  // transport binds that session to its principal (transports/http-sessions.ts), so the task is too.
  // A stateless POST's session ends with it, so a task bound to it could never be read again:
  // there the task is the principal's (without authorization, every client's together).
  owner: (_scope, session, authorization) =>
    session.isStateless ? STATELESS_OWNER + principalOf(authorization) : session.sessionId,
  created: (state) => ({ task: taskFields(state, "ttl", "pollInterval") }),
  createdCheck: (tables) => tables.checks["CreateTaskResult"],
  detailed: (state) => taskFields(state, "ttl", "pollInterval"),
  // #task-status: a tool call whose result has isError is failed.
  completedStatus: (isError) => (isError ? "failed" : "completed"),
  cancelled: (state) => taskFields(state, "ttl", "pollInterval"),
  // #task-cancellation: "MUST reject cancellation requests for tasks already in a terminal status".
  cancelledAlready: (state) => {
    throw invalidParams(`Cannot cancel task: already in terminal status '${state.status}'`, { taskId: state.taskId });
  },
  // #task-status-notification: the requester may be told of a change (MAY; params are the Task).
  statusNotification: "notifications/tasks/status",
  subscribedNotification: undefined,
  // basic/utilities/progress: the token "MUST continue to be used ... throughout the task's lifetime".
  keepsProgress: true,
  tagRequest: (params, taskId) => {
    const given = isObject(params) ? params : {};
    const meta = isObject(given["_meta"]) ? given["_meta"] : {};
    return { ...given, _meta: { ...meta, [RELATED_TASK]: { taskId } } };
  },
  paramsToWire: (_scope, _method, params) => params,
};

/** The flavour of tasks a wire speaks, or undefined when it has none. */
export function flavourOf(wire: Wire): TaskFlavour | undefined {
  const methods = wire.tables.methods;
  const get = Object.prototype.hasOwnProperty.call(methods, "tasks/get") ? methods["tasks/get"] : undefined;
  if (!get?.capability) return undefined;
  const [root, identifier] = get.capability.path;
  return root === "extensions" && identifier !== undefined ? extensionFlavour(identifier) : coreFlavour;
}
