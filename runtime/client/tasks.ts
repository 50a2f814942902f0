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
// The handle that polls a task to its end is task-handle.ts.
import type { CallToolResult } from "../protocol/handler-revision.js";
import { TASKS_EXTENSION, taskFlavourOf, type TaskFlavour as Flavour } from "../protocol/task-flavours.js";
import { isObject } from "../validation.js";
import type { ClientCore } from "./types.js";
import type { RequestOptions } from "./connection.js";
import { McpError } from "./errors.js";
import {
  declares,
  normalize,
  offers,
  publicInfo,
  TaskHandle,
  toolResult,
  type TaskInfo,
  type TaskWaitOptions,
  type ToolTask,
} from "./task-handle.js";

export { TASKS_EXTENSION };
export type { TaskInfo, TaskWaitOptions, ToolTask };
export type { TaskStatus } from "./task-handle.js";

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

/** The flavour, or a clear error where the revision negotiates the extension but the client was not given it. */
function requireFlavour(client: ClientCore): Flavour | undefined {
  const flavour = taskFlavourOf(client.wire.tables);
  if (!flavour && client.wire.info.extensions)
    throw new TypeError(
      `tasks on revision ${client.revision.name} are the ${TASKS_EXTENSION} extension: connect with ClientOptions.extensions including "tasks"`,
    );
  return flavour;
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
