// The two flavours of tasks a client meets, as data: 2025-11-25's core tasks
// (basic/utilities/tasks) and the io.modelcontextprotocol/tasks extension
// (tasks.md). Which one a wire speaks is read from its method table (the
// capability tasks/get needs), never from a revision's name; tasks.ts holds
// the one API over both.
import type { ClientCapabilities } from "../server/handler-revision.js";
import type { Wire } from "../server/revisions.js";
import { isObject } from "../validation.js";

/** What differs between the two flavours. */
export interface Flavour {
  readonly label: string;
  /** Where the server's capabilities offer task-augmented tools/call; undefined: the server decides per request. */
  readonly offeredAt: readonly string[] | undefined;
  /** What each task request declares besides the client's capabilities. */
  readonly declare: ClientCapabilities | undefined;
  /** Task's retention and poll interval fields on this wire. */
  readonly ttl: string;
  readonly pollInterval: string;
  /** The params that ask for a task, if the client asks (2025-11-25). */
  ask(params: Record<string, unknown>, ttlMs: number | undefined): Record<string, unknown>;
  /** The task a tools/call answer created, or undefined when the answer is the tool's result. */
  created(result: Record<string, unknown>): Record<string, unknown> | undefined;
  /** Where a terminal task's outcome is: inlined in tasks/get, or what tasks/result answers. */
  readonly outcome: "inline" | "tasks/result";
  /** How a task asks for input: the task's inputRequests, or server-to-client requests. */
  readonly input: "task" | "requests";
  /** The notification a server may send on a status change, outside any subscription. */
  readonly statusNotification: string | undefined;
}

const core: Flavour = {
  label: "2025-11-25 tasks",
  // basic/utilities/tasks#capabilities: "tasks.requests.tools.call".
  offeredAt: ["tasks", "requests", "tools", "call"],
  declare: undefined,
  ttl: "ttl",
  pollInterval: "pollInterval",
  // #creating-tasks: "the task field included in the request params", with an optional ttl.
  ask: (params, ttlMs) => ({ ...params, task: ttlMs !== undefined ? { ttl: ttlMs } : {} }),
  created: (result) => (isObject(result["task"]) ? result["task"] : undefined),
  outcome: "tasks/result",
  input: "requests",
  // #task-status-notification: MAY, the full Task.
  statusNotification: "notifications/tasks/status",
};

const extensionFlavours = new Map<string, Flavour>();

function extensionFlavour(identifier: string): Flavour {
  let flavour = extensionFlavours.get(identifier);
  if (!flavour)
    extensionFlavours.set(
      identifier,
      (flavour = {
        label: identifier,
        offeredAt: undefined,
        // #capability-negotiation: in the per-request capabilities of the request it may answer with a task,
        // and of tasks/get, tasks/update and tasks/cancel (#protocol-errors: -32021 otherwise).
        declare: { extensions: { [identifier]: {} } },
        ttl: "ttlMs",
        pollInterval: "pollIntervalMs",
        ask: (params) => params,
        // #polymorphic-results: resultType "task".
        created: (result) => (result["resultType"] === "task" ? result : undefined),
        outcome: "inline",
        input: "task",
        // #task-status-notifications: only on a subscriptions/listen stream.
        statusNotification: undefined,
      }),
    );
  return flavour;
}

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** The wire's flavour of tasks: from the capability its tasks/get needs; undefined when it has none. */
export function flavourOf(wire: Wire): Flavour | undefined {
  const get = hasOwn(wire.tables.methods, "tasks/get") ? wire.tables.methods["tasks/get"] : undefined;
  if (!get) return undefined;
  const [root, identifier] = get.capability?.path ?? [];
  return root === "extensions" && identifier !== undefined ? extensionFlavour(identifier) : core;
}
