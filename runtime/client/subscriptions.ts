// Change notifications on the client's side, one API for both eras: a filter
// in 2026-07-28's SubscriptionFilter shape, a listener, and a handle that
// closes. Which mechanism is used is read from the wire's method table:
// - subscriptions/listen (2026-07-28 basic/patterns/subscriptions): one
//   long-lived request per subscription. subscribe() resolves at its
//   acknowledgment (#acknowledgment), with the part of the filter the server
//   honors; the notifications tagged with the request's id follow
//   (#receiving-notifications); close() cancels the request (#cancellation:
//   the HTTP stream closed, notifications/cancelled on stdio); the server ends
//   it with a result (#graceful-closure) or, on stdio, notifications/cancelled.
// - resources/subscribe (2024-11-05 .. 2025-11-25 server/resources#subscriptions):
//   one resources/subscribe per URI, shared by this client's subscriptions
//   and unsubscribed when the last one closes; list_changed notifications
//   come unasked where the server's capabilities declare listChanged
//   (server/tools#list-changed-notification, and prompts', resources'). What
//   the filter did not ask for is not delivered, so a listener sees the same
//   notifications in both eras; `acknowledged` is what the capabilities (and
//   the subscribe requests that succeeded) let the server deliver.
import type { SubscriptionFilter } from "../protocol/handler-revision.js";
import { META_SUBSCRIPTION_ID } from "../protocol/meta.js";
import { isObject } from "../validation.js";
import type { ClientCore } from "./types.js";
import { RequestTimeoutError } from "./errors.js";

/** What a subscription delivers, with params in 2026-07-28's shapes. */
export type SubscriptionNotification =
  | {
      method:
        | "notifications/tools/list_changed"
        | "notifications/prompts/list_changed"
        | "notifications/resources/list_changed";
      params: Record<string, unknown>;
    }
  | { method: "notifications/resources/updated"; params: { uri: string } & Record<string, unknown> };

export type SubscriptionListener = (notification: SubscriptionNotification) => void;

export interface SubscribeOptions {
  /** How long to wait for the acknowledgment (modern) or the resources/subscribe answers (legacy), in ms (default 60 000). */
  timeoutMs?: number;
  /** Aborting it closes the subscription (or abandons opening it). */
  signal?: AbortSignal;
}

/** How a subscription ended. */
export interface SubscriptionEnd {
  /**
   * "client": close() or the signal; "server": the server ended it
   * (#graceful-closure, or its notifications/cancelled on stdio);
   * "connection": the connection or the stream broke off (the client MAY subscribe again).
   */
  readonly by: "client" | "server" | "connection";
  readonly error?: Error;
}

export interface Subscription {
  /** The subscriptions/listen request's id (modern); undefined on a legacy server. */
  readonly id: string | number | undefined;
  /** The part of the filter the server honors (#acknowledgment: "the subset the server agreed to honor"). */
  readonly acknowledged: SubscriptionFilter;
  /** Settles when the subscription ends. */
  readonly closed: Promise<SubscriptionEnd>;
  /** Ends it; resolves once it has ended (legacy: after resources/unsubscribe of URIs no other subscription holds). */
  close(): Promise<void>;
}

/** The filter's flags, the notification each opts in to, and the legacy capability that announces it. */
const FLAGS = [
  { flag: "toolsListChanged", method: "notifications/tools/list_changed", capability: ["tools", "listChanged"] },
  { flag: "promptsListChanged", method: "notifications/prompts/list_changed", capability: ["prompts", "listChanged"] },
  {
    flag: "resourcesListChanged",
    method: "notifications/resources/list_changed",
    capability: ["resources", "listChanged"],
  },
] as const;
const UPDATED = "notifications/resources/updated";
/** server/resources#capabilities: `subscribe` says whether the client can subscribe. */
const SUBSCRIBE_CAPABILITY = ["resources", "subscribe"] as const;

/** resourceSubscriptions one subscription may name. */
const MAX_URIS = 1000;
/** Subscriptions one client may hold open at once. */
const MAX_OPEN = 100;
/** setTimeout's longest delay: the listen request's timeout, as it is open until closed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const open = new WeakMap<ClientCore, number>();

export async function subscribe(
  client: ClientCore,
  filter: SubscriptionFilter,
  listener: SubscriptionListener,
  options: SubscribeOptions = {},
): Promise<Subscription> {
  const uris = filter.resourceSubscriptions ?? [];
  if (!Array.isArray(uris) || uris.some((uri) => typeof uri !== "string"))
    throw new TypeError("subscribe: resourceSubscriptions must be an array of URI strings");
  if (uris.length > MAX_URIS)
    throw new TypeError(`subscribe: at most ${MAX_URIS} resourceSubscriptions per subscription (${uris.length} given)`);
  const count = open.get(client) ?? 0;
  if (count >= MAX_OPEN) throw new Error(`this client has ${MAX_OPEN} subscriptions open, its limit`);
  options.signal?.throwIfAborted();
  const methods = client.wire.tables.methods;
  const opening = Object.hasOwn(methods, "subscriptions/listen")
    ? listen(client, filter, listener, options)
    : Object.hasOwn(methods, "resources/subscribe")
      ? legacy(client, filter, listener, options)
      : undefined;
  if (!opening) throw new TypeError(`revision ${client.revision.name} has no subscriptions`);
  open.set(client, count + 1);
  let subscription: Subscription;
  try {
    subscription = await opening;
  } catch (error) {
    open.set(client, (open.get(client) ?? 1) - 1);
    throw error;
  }
  void subscription.closed.then(() => open.set(client, (open.get(client) ?? 1) - 1));
  return subscription;
}

/** 2026-07-28: one subscriptions/listen request, its notifications told apart by its id. */
async function listen(
  client: ClientCore,
  filter: SubscriptionFilter,
  listener: SubscriptionListener,
  options: SubscribeOptions,
): Promise<Subscription> {
  let id: string | number | undefined;
  let acknowledged: SubscriptionFilter | undefined;
  let byClient = false;
  let byServer = false;
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  const ours = (params: Record<string, unknown>) =>
    id !== undefined && isObject(params["_meta"]) && params["_meta"][META_SUBSCRIPTION_ID] === id;
  let ack: (filter: SubscriptionFilter) => void = () => {};
  const acked = new Promise<SubscriptionFilter>((resolve) => (ack = resolve));
  const stops = [
    client.on("notifications/subscriptions/acknowledged", (params) => {
      if (ours(params) && !acknowledged && isObject(params["notifications"])) {
        // #acknowledgment: "The client SHOULD check the acknowledged filter against what it requested":
        // what the server acknowledges beyond the request is not delivered.
        acknowledged = asked(params["notifications"], filter);
        ack(acknowledged);
      }
    }),
    // #cancellation: on stdio the server tears a subscription down with notifications/cancelled naming it.
    client.on("notifications/cancelled", (params) => {
      if (id !== undefined && params["requestId"] === id) byServer = true;
    }),
    ...[...FLAGS.map((f) => f.method), UPDATED].map((method) =>
      client.on(method, (params) => {
        // #acknowledgment: nothing is delivered before it; and only what it agreed to.
        if (acknowledged && !signal.aborted && ours(params) && honors(acknowledged, method, params))
          listener({ method, params } as SubscriptionNotification);
      }),
    ),
  ];
  const request = client.request(
    "subscriptions/listen",
    { notifications: filter },
    {
      signal,
      timeoutMs: MAX_TIMER_MS,
      onRequestId: (requestId) => (id = requestId),
    },
  );
  const closed: Promise<SubscriptionEnd> = request.then(
    () => ({ by: "server" }) as const,
    (error: Error) =>
      byClient || options.signal?.aborted
        ? ({ by: "client" } as const)
        : ({ by: byServer ? "server" : "connection", error } as const),
  );
  void closed.then(() => {
    for (const stop of stops) stop();
  });
  const waitMs = options.timeoutMs ?? 60_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const first = await Promise.race([
      acked,
      request.then(
        () => {
          throw new Error(
            `${client.serverInfo?.name ?? "the server"} ended subscriptions/listen before acknowledging it`,
          );
        },
        (error: Error) => {
          throw error;
        },
      ),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new RequestTimeoutError(`subscriptions/listen was not acknowledged within ${waitMs} ms`)),
          waitMs,
        );
      }),
    ]);
    return {
      get id() {
        return id;
      },
      acknowledged: first,
      closed,
      close: async () => {
        byClient = true;
        controller.abort(new Error("the client closed the subscription"));
        await closed;
      },
    };
  } catch (error) {
    byClient = true;
    controller.abort(error);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The part of an acknowledged filter that the filter asked for (a server may only narrow it: #acknowledgment). */
function asked(acknowledged: Record<string, unknown>, filter: SubscriptionFilter): SubscriptionFilter {
  const kept: SubscriptionFilter = {};
  for (const { flag } of FLAGS) if (acknowledged[flag] === true && filter[flag] === true) kept[flag] = true;
  const uris = acknowledged["resourceSubscriptions"];
  if (Array.isArray(uris) && filter.resourceSubscriptions !== undefined) {
    const wanted = new Set(filter.resourceSubscriptions);
    kept.resourceSubscriptions = uris.filter((uri): uri is string => typeof uri === "string" && wanted.has(uri));
  }
  return kept;
}

/** Whether a notification is one the acknowledged (or honored) filter lets through. */
function honors(filter: SubscriptionFilter, method: string, params: Record<string, unknown>): boolean {
  if (method === UPDATED)
    return typeof params["uri"] === "string" && (filter.resourceSubscriptions ?? []).includes(params["uri"]);
  return FLAGS.some((f) => f.method === method && filter[f.flag] === true);
}

/** Whether the server's capabilities (in its revision's shape) set this path to true or to an object. */
function declares(client: ClientCore, path: readonly string[]): boolean {
  let at: unknown = client.serverCapabilities;
  for (const key of path) {
    if (!isObject(at)) return false;
    at = at[key];
  }
  return at === true || isObject(at);
}

/** resources/subscribe per URI, shared by a client's subscriptions: how many hold it, and whether the server took it. */
const held = new WeakMap<ClientCore, Map<string, { count: number; ready: Promise<boolean> }>>();

/** Legacy: resources/subscribe for the URIs, list_changed where the capabilities declare it; filtered on arrival. */
async function legacy(
  client: ClientCore,
  filter: SubscriptionFilter,
  listener: SubscriptionListener,
  options: SubscribeOptions,
): Promise<Subscription> {
  const honored: SubscriptionFilter = {};
  for (const { flag, capability } of FLAGS)
    if (filter[flag] === true && declares(client, capability)) honored[flag] = true;
  let uris = filter.resourceSubscriptions !== undefined ? [...new Set(filter.resourceSubscriptions)] : undefined;
  if (uris !== undefined && !declares(client, SUBSCRIBE_CAPABILITY)) uris = undefined;
  let subscriptions = held.get(client);
  if (!subscriptions) held.set(client, (subscriptions = new Map()));
  const table = subscriptions;
  const release = async (uri: string) => {
    const entry = table.get(uri);
    if (!entry || --entry.count > 0) return;
    table.delete(uri);
    if (!client.closed)
      await client
        .wireRequest("resources/unsubscribe", { uri }, { timeoutMs: options.timeoutMs ?? 60_000 })
        .catch(() => {});
  };
  if (uris !== undefined) {
    const taken = await Promise.all(
      uris.map(async (uri) => {
        let entry = table.get(uri);
        if (!entry) {
          const ready = client
            .wireRequest(
              "resources/subscribe",
              { uri },
              {
                timeoutMs: options.timeoutMs ?? 60_000,
                ...(options.signal ? { signal: options.signal } : {}),
              },
            )
            .then(
              () => true,
              () => false,
            );
          table.set(uri, (entry = { count: 0, ready }));
        }
        entry.count++;
        if (await entry.ready) return true;
        // Refused (e.g. an unknown resource): not held, so that a later subscribe asks again.
        if (--entry.count === 0 && table.get(uri) === entry) table.delete(uri);
        return false;
      }),
    );
    honored.resourceSubscriptions = uris.filter((_, i) => taken[i]);
  }
  if (options.signal?.aborted) {
    await Promise.all((honored.resourceSubscriptions ?? []).map(release));
    options.signal.throwIfAborted();
  }
  let ended: ((end: SubscriptionEnd) => void) | undefined;
  const closed = new Promise<SubscriptionEnd>((resolve) => (ended = resolve));
  let active = true;
  const stops = [...FLAGS.map((f) => f.method), UPDATED].map((method) =>
    client.on(method, (params) => {
      if (active && honors(honored, method, params)) listener({ method, params } as SubscriptionNotification);
    }),
  );
  const end = async (how: SubscriptionEnd) => {
    if (!active) return;
    active = false;
    for (const stop of stops) stop();
    options.signal?.removeEventListener("abort", onAbort);
    if (how.by === "client") await Promise.all((honored.resourceSubscriptions ?? []).map(release));
    else for (const uri of honored.resourceSubscriptions ?? []) table.delete(uri);
    ended!(how);
  };
  const onAbort = () => void end({ by: "client" });
  options.signal?.addEventListener("abort", onAbort, { once: true });
  void client.whenClosed.then((error) => end({ by: "connection", error }));
  return {
    id: undefined,
    acknowledged: honored,
    closed,
    close: () => end({ by: "client" }),
  };
}
