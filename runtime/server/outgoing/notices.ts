// What a server tells its clients on its own when something changes: a list
// changed (one notifications/<feature>/list_changed per feature per tick,
// however many registrations changed), a resource was updated (to the sessions
// that subscribed to it and the subscriptions/listen requests naming it), a
// server-wide log; and the same changes to and from the other processes of one
// server through ServerOptions.bus (each delivered here, never published again).
import { isBusMessage, type BusMessage, type ServerBus } from "./bus.js";
import type { Feature } from "../types.js";
import type { LoggingLevel } from "../../protocol/handler-revision.js";
import type { ServerLogger } from "../logging.js";
import type { Session } from "../session/session.js";
import type { Listeners } from "../subscriptions.js";

/** What the server does itself with a change from the bus. */
export interface NoticeHooks {
  /** What the server offers may have changed (another process registered or removed something). */
  offerChanged(): void;
  /** A task signal from another process (tasks/service.ts). */
  taskSignal(message: Extract<BusMessage, { kind: "task_signal" }>): void;
}

export class ChangeNotices {
  /** Features changed in this tick, told of once it ends. */
  private readonly changed = new Set<Feature>();

  constructor(
    /** The server's open sessions (McpServer.connect adds each, its close removes it). */
    private readonly sessions: ReadonlyMap<unknown, Session>,
    private readonly listeners: Listeners,
    private readonly logger: ServerLogger,
    /** ServerOptions.listChanged: whether list_changed is sent at all. */
    readonly listChanged: boolean,
    private readonly bus: ServerBus | undefined,
    private readonly hooks: NoticeHooks,
  ) {
    bus?.subscribe((message) => this.fromBus(message));
  }

  /** A feature's list changed in this process: its clients and the other processes are told once this tick ends. */
  featureChanged(feature: Feature): void {
    if (!this.listChanged || (this.sessions.size === 0 && this.listeners.size === 0 && !this.bus)) return;
    if (this.changed.size === 0) queueMicrotask(() => this.flushChanged());
    this.changed.add(feature);
  }

  /** A resource changed in this process: its subscribers here and in the other processes are told. */
  resourceUpdated(uri: string): void {
    this.deliverResourceUpdated(uri);
    this.publish({ kind: "resource_updated", uri });
  }

  /** Sends a log message to every initialized client, each filtered by the level it set. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    for (const session of this.sessions.values()) if (session.isInitialized) session.log(level, data, logger);
  }

  /** Tells the other processes; a bus that fails is logged, this process's clients are told anyway. */
  publish(message: BusMessage): void {
    this.bus
      ?.publish(message)
      .catch((error: unknown) =>
        this.logger("warning", `other server processes were not told of ${message.kind}`, String(error)),
      );
  }

  private flushChanged(): void {
    const features = [...this.changed];
    this.changed.clear();
    for (const feature of features) {
      this.deliverListChanged(feature);
      this.publish({ kind: "list_changed", feature });
    }
  }

  private deliverListChanged(feature: Feature): void {
    if (!this.listChanged) return;
    const method = `notifications/${feature}/list_changed`;
    for (const session of this.sessions.values()) if (session.isInitialized) session.notify(method);
    this.listeners.listChanged(method);
  }

  private deliverResourceUpdated(uri: string): void {
    for (const session of this.sessions.values())
      if (session.isSubscribed(uri)) session.notify("notifications/resources/updated", { uri });
    this.listeners.resourceUpdated(uri);
  }

  /** What another process published: delivered to this process's clients, never published again. */
  private fromBus(message: unknown): void {
    if (!isBusMessage(message)) {
      this.logger("warning", "dropped a malformed message from the bus", JSON.stringify(message)?.slice(0, 200));
      return;
    }
    switch (message.kind) {
      case "list_changed":
        this.hooks.offerChanged();
        this.deliverListChanged(message.feature);
        return;
      case "resource_updated":
        this.deliverResourceUpdated(message.uri);
        return;
      case "task_status":
        this.listeners.keyedChanged(message.method, message.taskId, { ...message.params });
        return;
      case "task_signal":
        this.hooks.taskSignal(message);
    }
  }
}
