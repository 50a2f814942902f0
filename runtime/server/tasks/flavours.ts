// What the server does with each flavour of tasks (the flavours themselves,
// as data: protocol/task-flavours.ts): whether a request may become a task,
// whose it is, and the task as each flavour's results and errors show it.
// Both flavours share one task state (tasks/store.ts).
import type { Check } from "../../validation.js";
import { isObject } from "../../validation.js";
import type { MessageTables } from "../../messages.js";
import {
  CORE_TASKS,
  RELATED_TASK,
  taskFlavourOf,
  type TaskFlavour as TaskFacts,
} from "../../protocol/task-flavours.js";
import { principalOf, type Authorization } from "../authorization.js";
import { declared } from "../capabilities.js";
import type { ServerSession } from "../context.js";
import type { Scope } from "../types.js";
import { invalidParams } from "../errors.js";
import type { LoadedRevision } from "../../protocol/revisions.js";
import type { TaskState, TaskStatus } from "./store.js";

export { RELATED_TASK, TASK_FILTER_FIELD, TASK_NOTIFICATION } from "../../protocol/task-flavours.js";

export interface TaskFlavour extends TaskFacts {
  /** Whether this request may be answered with a task. */
  accepts(scope: Scope, params: unknown): boolean;
  /** The retention the request asks for, if it may ask (params.task.ttl). */
  requestedTtl(params: unknown): number | undefined;
  /**
   * Who may see the task: the visibility key its requests must present, from
   * the request's scope, session and verified authorization (undefined without auth).
   */
  owner(scope: Scope, session: ServerSession, authorization: Authorization | undefined): string;
  /** The request's answer when it becomes a task. */
  creationResult(state: TaskState): Record<string, unknown>;
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
  /** A server-to-client request's params, tagged with the task. */
  tagRequest(params: unknown, taskId: string): unknown;
}

/** The fields of Task both flavours share, with the flavour's names for ttl and poll interval. */
function taskFields(state: TaskState, flavour: TaskFacts): Record<string, unknown> {
  const fields: Record<string, unknown> = { taskId: state.taskId, status: state.status };
  if (state.statusMessage !== undefined) fields["statusMessage"] = state.statusMessage;
  fields["createdAt"] = state.createdAt;
  fields["lastUpdatedAt"] = state.lastUpdatedAt;
  fields[flavour.ttl] = state.ttlMs;
  if (state.pollIntervalMs !== undefined) fields[flavour.pollInterval] = state.pollIntervalMs;
  return fields;
}

const extensionFlavours = new Map<TaskFacts, TaskFlavour>();

function extensionFlavour(facts: TaskFacts): TaskFlavour {
  let flavour = extensionFlavours.get(facts);
  if (!flavour) extensionFlavours.set(facts, (flavour = newExtensionFlavour(facts)));
  return flavour;
}

function newExtensionFlavour(facts: TaskFacts): TaskFlavour {
  const identifier = facts.extension!;
  return {
    ...facts,
    // tasks.md#capability-negotiation: only to a client that declared the extension on this request.
    accepts: (scope) =>
      scope.perRequest && declared(scope.clientCapabilities, { holder: "client", path: ["extensions", identifier] }),
    // tasks.md#task-creation: the server alone decides, retention included.
    requestedTtl: () => undefined,
    // tasks.md#security-considerations, "Auth binding": a task is its creator's
    // principal's, checked on every task request; without authorization the
    // id, unguessable, is what grants access ("").
    owner: (_scope, _session, authorization) => principalOf(authorization),
    creationResult: (state) => ({ resultType: "task", ...taskFields(state, facts) }),
    createdCheck: (tables) => tables.results["tools/call"],
    detailed: (state) => {
      const task = taskFields(state, facts);
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
    tagRequest: (params) => params,
  };
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
  ...CORE_TASKS,
  // #task-support-and-handling: a task when the request asks and the server declared it for tools/call.
  accepts: (scope, params) =>
    isObject(params) &&
    isObject(params["task"]) &&
    declared(scope.serverCapabilities, { holder: "server", path: CORE_TASKS.offeredAt! }),
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
  creationResult: (state) => ({ task: taskFields(state, CORE_TASKS) }),
  createdCheck: (tables) => tables.checks["CreateTaskResult"],
  detailed: (state) => taskFields(state, CORE_TASKS),
  // #task-status: a tool call whose result has isError is failed.
  completedStatus: (isError) => (isError ? "failed" : "completed"),
  cancelled: (state) => taskFields(state, CORE_TASKS),
  // #task-cancellation: "MUST reject cancellation requests for tasks already in a terminal status".
  cancelledAlready: (state) => {
    throw invalidParams(`Cannot cancel task: already in terminal status '${state.status}'`, { taskId: state.taskId });
  },
  tagRequest: (params, taskId) => {
    const given = isObject(params) ? params : {};
    const meta = isObject(given["_meta"]) ? given["_meta"] : {};
    return { ...given, _meta: { ...meta, [RELATED_TASK]: { taskId } } };
  },
};

/** What the server does with the flavour of tasks a wire speaks, or undefined when it has none. */
export function flavourOf(wire: LoadedRevision): TaskFlavour | undefined {
  const facts = taskFlavourOf(wire.tables);
  if (!facts) return undefined;
  return facts.extension === undefined ? coreFlavour : extensionFlavour(facts);
}
