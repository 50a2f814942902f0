// Several server processes behind one load balancer: what one process must
// tell the others so that a client is served the same whichever process it
// reaches. Change notifications (list_changed, resources/updated, task
// status) go to the listeners and handshake subscribers every process holds;
// a task's cancellation and input reach the process where its work runs. The
// runtime defines the contract; mcpgen/redis implements it on Redis pub/sub.
// One process alone needs no bus.
import type { Feature } from "../types.js";

export type BusMessage =
  /** notifications/<feature>/list_changed (server/tools#list-changed-notification, ...). */
  | { readonly kind: "list_changed"; readonly feature: Feature }
  /** notifications/resources/updated (server/resources#subscriptions). */
  | { readonly kind: "resource_updated"; readonly uri: string }
  /** A task's status changed: its notification, for subscriptions/listen naming it (tasks.md#task-status-notifications). */
  | {
      readonly kind: "task_status";
      readonly method: string;
      readonly taskId: string;
      readonly params: Readonly<Record<string, unknown>>;
    }
  /** tasks/cancel or tasks/update reached a process other than the one running the task. */
  | {
      readonly kind: "task_signal";
      readonly taskId: string;
      readonly cancel?: string;
      readonly inputResponses?: Readonly<Record<string, unknown>>;
    };

export interface ServerBus {
  /** Delivers to every other process, never back to this one; rejects when it cannot (the caller logs it). */
  publish(message: BusMessage): Promise<void>;
  /** Where this process receives what the others publish. Called once, by the server. */
  subscribe(receive: (message: BusMessage) => void): void;
}

/** Checks a message from the bus: another process's, but still input (a bad one is dropped, not trusted). */
export function isBusMessage(value: unknown): value is BusMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message["kind"]) {
    case "list_changed":
      return message["feature"] === "tools" || message["feature"] === "resources" || message["feature"] === "prompts";
    case "resource_updated":
      return typeof message["uri"] === "string";
    case "task_status":
      return (
        typeof message["method"] === "string" &&
        typeof message["taskId"] === "string" &&
        typeof message["params"] === "object" &&
        message["params"] !== null
      );
    case "task_signal":
      return (
        typeof message["taskId"] === "string" &&
        (message["cancel"] === undefined || typeof message["cancel"] === "string") &&
        (message["inputResponses"] === undefined ||
          (typeof message["inputResponses"] === "object" && message["inputResponses"] !== null))
      );
    default:
      return false;
  }
}
