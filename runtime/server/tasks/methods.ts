// The methods a client sends about its tasks, answered in its wire's flavour
// (tasks/flavours.ts): tasks/get, tasks/update and tasks/cancel (the
// io.modelcontextprotocol/tasks extension's; tasks/get and tasks/cancel shared
// with 2025-11-25) and 2025-11-25's own tasks/result and tasks/list. A request
// sees only its requester's tasks (2025-11-25 #task-isolation-and-access-control;
// tasks.md#security-considerations, "Auth binding"). The tasks themselves, and
// whose each is, are the task service's (tasks/service.ts).
import { isObject } from "../../validation.js";
import { declared } from "../capabilities.js";
import { requestOf, sessionOf, type RequestContext } from "../context.js";
import type { Scope, TaskOutcome } from "../types.js";
import { invalidParams, MissingClientCapabilityError, ProtocolError } from "../errors.js";
import { paginate, withCursor } from "../features/pagination.js";
import { TASKS_EXTENSION } from "../../protocol/task-flavours.js";
import { flavourOf, RELATED_TASK, UNIDENTIFIED_OWNER } from "./flavours.js";
import { isTerminal, type TaskState } from "./store.js";
import type { Requester, TaskService } from "./service.js";

type Handler = (params: any, context: RequestContext) => unknown;

/**
 * The task methods: the extension's, which refuse a client that did not
 * declare the extension (-32021) before any lookup (tasks.md#protocol-errors),
 * and 2025-11-25's own (`core`: the method tables say where they exist).
 */
export function taskMethods(
  service: TaskService,
  pageSize: number,
): { extension: { [method: string]: Handler }; core: { [method: string]: Handler } } {
  const gated =
    <P>(method: (params: P, context: RequestContext) => unknown) =>
    (params: P, context: RequestContext) => {
      if (!flavourOf(requestOf(context).scope.wire)?.clientAsks) gate(requestOf(context).scope);
      return method(params, context);
    };
  return {
    extension: {
      "tasks/get": gated((params: { taskId?: unknown }, context) => get(service, params, context)),
      "tasks/update": gated((params: { taskId?: unknown; inputResponses?: unknown }, context) =>
        update(service, params, context),
      ),
      "tasks/cancel": gated((params: { taskId?: unknown }, context) => cancel(service, params, context)),
    },
    core: {
      "tasks/result": async (params: { taskId?: unknown }, context: RequestContext) => {
        const outcome = await result(service, params, context);
        // #associating-task-related-messages: tasks/result "MUST include this metadata in its response".
        const related = { [RELATED_TASK]: { taskId: params.taskId } };
        if (!outcome) return { _meta: related };
        if ("error" in outcome) throw new ProtocolError(outcome.error.code, outcome.error.message, outcome.error.data);
        const answer = JSON.parse(outcome.result) as Record<string, unknown>;
        return { ...answer, _meta: { ...(answer["_meta"] as object | undefined), ...related } };
      },
      "tasks/list": async (params: { cursor?: string }, context: RequestContext) => {
        const all = await list(service, context);
        const page = paginate(all, params.cursor, pageSize);
        const flavour = flavourOf(requestOf(context).scope.wire)!;
        return withCursor({ tasks: page.items.map((t) => flavour.detailed(t)) }, page.nextCursor);
      },
    },
  };
}

/** The request a context is for, as the task service asks whose tasks it may see. */
function requesterOf(context: RequestContext): Requester {
  return { inflight: requestOf(context), session: sessionOf(context) };
}

/**
 * The task a request names, if its requester may see it; -32602 otherwise:
 * unknown and foreign look alike, so an id is never confirmed to another.
 */
async function visible(service: TaskService, taskId: unknown, context: RequestContext): Promise<TaskState> {
  const owner = service.ownerFor(requesterOf(context));
  const state = typeof taskId === "string" ? await service.store.get(taskId) : undefined;
  if (!state || owner === null || state.owner !== owner)
    throw invalidParams(`Task not found: ${String(taskId)}`, { taskId });
  return state;
}

/** The extension's methods refuse a client that did not declare it (tasks.md#protocol-errors: -32021). */
function gate(scope: Scope): void {
  if (!declared(scope.clientCapabilities, { holder: "client", path: ["extensions", TASKS_EXTENSION] }))
    throw new MissingClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } } as never);
}

/** tasks/get. */
async function get(
  service: TaskService,
  params: { taskId?: unknown },
  context: RequestContext,
): Promise<Record<string, unknown>> {
  const state = await visible(service, params.taskId, context);
  return flavourOf(requestOf(context).scope.wire)!.detailed(state);
}

/** tasks/update (the extension): answers to what the task asked. */
async function update(
  service: TaskService,
  params: { taskId?: unknown; inputResponses?: unknown },
  context: RequestContext,
): Promise<object> {
  const state = await visible(service, params.taskId, context);
  const responses = isObject(params.inputResponses) ? params.inputResponses : {};
  if (!isTerminal(state.status)) {
    const running = service.runningTask(state.taskId);
    if (running) running.answer(responses);
    else await service.signalOthers?.({ kind: "task_signal", taskId: state.taskId, inputResponses: responses });
  }
  return {};
}

/** tasks/cancel: stops the work and marks the task cancelled; the flavour says what a finished task gets. */
async function cancel(
  service: TaskService,
  params: { taskId?: unknown },
  context: RequestContext,
): Promise<Record<string, unknown>> {
  const flavour = flavourOf(requestOf(context).scope.wire)!;
  const state = await visible(service, params.taskId, context);
  if (isTerminal(state.status)) return flavour.cancelledAlready(state);
  const after = await service.store.update(state.taskId, {
    status: "cancelled",
    statusMessage: "Cancelled by the client",
  });
  const running = service.runningTask(state.taskId);
  const reason = "the task was cancelled (tasks/cancel)";
  if (running) {
    running.abort(reason);
    running.announce(after);
  } else await service.signalOthers?.({ kind: "task_signal", taskId: state.taskId, cancel: reason });
  return flavour.cancelled(after ?? state);
}

/** tasks/result (2025-11-25): waits for a terminal status, then answers what the request would have. */
async function result(
  service: TaskService,
  params: { taskId?: unknown },
  context: RequestContext,
): Promise<TaskOutcome | undefined> {
  for (let state = await visible(service, params.taskId, context); ;) {
    if (isTerminal(state.status))
      return state.error
        ? { error: state.error }
        : state.result !== undefined
          ? { result: state.result, isError: false }
          : undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(state.pollIntervalMs ?? 100, 250)));
    if (context.signal.aborted) throw new ProtocolError(-32603, "tasks/result was cancelled");
    state = await visible(service, params.taskId, context);
  }
}

/** tasks/list (2025-11-25): the requester's own tasks. */
async function list(service: TaskService, context: RequestContext): Promise<TaskState[]> {
  const owner = service.ownerFor(requesterOf(context));
  if (owner === null || owner === UNIDENTIFIED_OWNER) return [];
  return (await service.store.list(owner, 0, Number.MAX_SAFE_INTEGER)).tasks;
}
