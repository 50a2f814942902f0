// subscriptions/listen (2026-07-28 basic/patterns/subscriptions): long-lived
// requests on which the server delivers the change notifications a client
// opted in to, each tagged with the listen request's id. The registry is the
// server's, across connections, and bounded: a client cannot grow it without
// limit. A resource's updates need the scopes its reads need, and a
// subscription ends (gracefully) when the token that opened it expires.
import { isObject } from "../validation.js";
import type { RequestId } from "../messages.js";
import { complete } from "./request/outcome.js";
import { declared } from "./capabilities.js";
import type { Inflight, ServerSession } from "./context.js";
import { INTERNAL_ERROR, INVALID_PARAMS } from "../protocol/handler-revision.js";
import { MissingClientCapabilityError, ProtocolError } from "./errors.js";
import { META_SUBSCRIPTION_ID } from "../protocol/meta.js";
import { atExpiry, boundedCallerOf, declaresScopes, principalOf, requireScopes } from "./authorization.js";

/** SubscriptionFilter's fields and the notification each opts in to (schema.ts SubscriptionFilter). */
const FILTER = {
  toolsListChanged: "notifications/tools/list_changed",
  promptsListChanged: "notifications/prompts/list_changed",
  resourcesListChanged: "notifications/resources/list_changed",
} as const;
const RESOURCE_UPDATED = "notifications/resources/updated";

type FeatureFlag = keyof typeof FILTER;

interface Listener {
  readonly id: RequestId;
  readonly session: ServerSession;
  readonly inflight: Inflight;
  readonly methods: ReadonlySet<string>;
  readonly uris: ReadonlySet<string>;
  /** Ids of things a keyed filter named (e.g. task ids), by filter field. */
  readonly keyed: ReadonlyMap<string, ReadonlySet<string>>;
  end(result: unknown): void;
}

/**
 * A filter field an extension adds to `notifications` that names things by id
 * (tasks.md#task-status-notifications: `taskIds` → notifications/tasks).
 */
export interface KeyedFilter {
  /** The field in `notifications`, e.g. "taskIds". */
  readonly field: string;
  /** The notification it opts in to; its capability (from the method table) must be the client's. */
  readonly method: string;
  /** Whether this server can tell the requester of the thing with this id (the acknowledgment lists only those). */
  known(
    id: string,
    requester: { readonly inflight: Inflight; readonly session: ServerSession },
  ): boolean | Promise<boolean>;
}

export interface ListenLimits {
  /** Open subscriptions across all clients. Default 1000. */
  maxListeners?: number;
  /**
   * Open subscriptions of one authorized caller (the issuer, subject and client
   * its token names), so that one token cannot take them all from the others.
   * Callers without authorization cannot be told apart: maxListeners alone
   * bounds them. Default 100.
   */
  maxListenersPerPrincipal?: number;
  /** resourceSubscriptions URIs one subscription may name. Default 1000. */
  maxUrisPerListener?: number;
}

export class Listeners {
  private readonly open = new Set<Listener>();
  private readonly keyedFilters = new Map<string, KeyedFilter>();
  /** Open subscriptions by authorized principal; an entry leaves with its last subscription. */
  private readonly byPrincipal = new Map<string, number>();
  private readonly maxListeners: number;
  private readonly maxPerPrincipal: number;
  private readonly maxUris: number;

  constructor(
    limits: ListenLimits = {},
    /** The scopes reading a resource needs (none for a URI nothing serves): its updates need them too. */
    private readonly scopesOf: (uri: string) => readonly string[] | undefined = () => undefined,
  ) {
    this.maxListeners = limits.maxListeners ?? 1000;
    this.maxPerPrincipal = limits.maxListenersPerPrincipal ?? 100;
    this.maxUris = limits.maxUrisPerListener ?? 1000;
  }

  get size(): number {
    return this.open.size;
  }

  /** Adds a keyed filter field (an extension's). */
  addKeyedFilter(filter: KeyedFilter): void {
    this.keyedFilters.set(filter.field, filter);
  }

  /**
   * Opens a subscription: acknowledges the part of the filter the server
   * honors (what its capabilities declare), then delivers until the client
   * cancels (the promise settles without a result) or the server ends it (the
   * promise resolves with the graceful-closure result).
   */
  listen(params: Record<string, unknown>, inflight: Inflight, session: ServerSession): Promise<unknown> {
    const requested = isObject(params["notifications"]) ? params["notifications"] : {};
    const uris = Array.isArray(requested["resourceSubscriptions"])
      ? requested["resourceSubscriptions"].filter((u): u is string => typeof u === "string")
      : [];
    if (uris.length > this.maxUris)
      throw new ProtocolError(
        INVALID_PARAMS,
        `Invalid params: at most ${this.maxUris} resourceSubscriptions per subscription (${uris.length} given)`,
      );
    // Counted against the caller (boundedCallerOf): a subject's clients share its bound.
    const principal = boundedCallerOf(principalOf(inflight.channel.authorization));
    this.refuseOverLimit(principal);
    const { scope } = inflight;
    const offers = (method: string): boolean => {
      const entry = scope.wire.tables.methods[method];
      return entry !== undefined && (!entry.capability || declared(scope.serverCapabilities, entry.capability));
    };
    const honored: Record<string, unknown> = {};
    const methods = new Set<string>();
    for (const flag of Object.keys(FILTER) as FeatureFlag[]) {
      if (requested[flag] === true && offers(FILTER[flag])) {
        honored[flag] = true;
        methods.add(FILTER[flag]);
      }
    }
    const honoredUris = offers(RESOURCE_UPDATED) ? new Set(uris) : new Set<string>();
    this.requireResourceScopes(inflight, honoredUris);
    if (requested["resourceSubscriptions"] !== undefined && offers(RESOURCE_UPDATED))
      honored["resourceSubscriptions"] = [...honoredUris];
    const keyed = new Map<string, Set<string>>();
    const asking: Promise<void>[] = [];
    for (const filter of this.keyedFilters.values()) {
      const asked = requested[filter.field];
      const entry = Object.hasOwn(scope.wire.tables.methods, filter.method)
        ? scope.wire.tables.methods[filter.method]
        : undefined;
      if (!Array.isArray(asked) || !entry) continue;
      // tasks.md#task-status-notifications: asking without the capability is -32021 naming it.
      if (entry.capability?.holder === "client" && !declared(scope.clientCapabilities, entry.capability))
        throw new MissingClientCapabilityError(requiredBy(entry.capability.path) as never);
      const ids = asked.filter((id): id is string => typeof id === "string");
      if (ids.length > this.maxUris)
        throw new ProtocolError(
          INVALID_PARAMS,
          `Invalid params: at most ${this.maxUris} ${filter.field} per subscription (${ids.length} given)`,
        );
      const field = filter.field;
      asking.push(
        Promise.all(ids.map((id) => filter.known(id, { inflight, session }))).then((known) => {
          const agreed = new Set(ids.filter((_, i) => known[i]));
          keyed.set(filter.method, agreed);
          honored[field] = [...agreed];
        }),
      );
    }
    const id = inflight.id;
    // Only when something must be looked up (a shared task store) does the acknowledgment wait.
    if (asking.length > 0)
      return Promise.all(asking).then(() =>
        this.subscribe(id, inflight, session, principal, methods, honoredUris, keyed, honored),
      );
    return this.subscribe(id, inflight, session, principal, methods, honoredUris, keyed, honored);
  }

  private subscribe(
    id: RequestId,
    inflight: Inflight,
    session: ServerSession,
    /** Who asked, as the bounds count callers (authorization.ts boundedCallerOf); "" without authorization. */
    principal: string,
    methods: Set<string>,
    honoredUris: Set<string>,
    keyed: Map<string, Set<string>>,
    honored: Record<string, unknown>,
  ): Promise<unknown> {
    const { scope } = inflight;
    if (inflight.done || inflight.cancelled) return Promise.resolve(undefined);
    // Again: a keyed filter's lookup may have let others subscribe meanwhile.
    this.refuseOverLimit(principal);
    return new Promise((resolve) => {
      // Past its token's expiry a subscription would go on telling of changes unauthorized: it ends
      // gracefully, and the client listens again with a fresh token (#graceful-closure).
      const stopWaiting = atExpiry(inflight.channel.authorization, () => this.closeGracefully(listener));
      const listener: Listener = {
        id,
        session,
        inflight,
        methods,
        uris: honoredUris,
        keyed,
        end: (result) => {
          stopWaiting();
          if (this.open.delete(listener) && principal !== "") {
            const left = this.byPrincipal.get(principal)! - 1;
            if (left === 0) this.byPrincipal.delete(principal);
            else this.byPrincipal.set(principal, left);
          }
          resolve(result);
        },
      };
      this.open.add(listener);
      if (principal !== "") this.byPrincipal.set(principal, (this.byPrincipal.get(principal) ?? 0) + 1);
      // #cancellation: closing the stream (HTTP) or notifications/cancelled (stdio) ends it; no response follows.
      inflight.signal.addEventListener("abort", () => listener.end(undefined), { once: true });
      // #acknowledgment: the first message carrying the subscription's id.
      session.notify(
        "notifications/subscriptions/acknowledged",
        { _meta: { [META_SUBSCRIPTION_ID]: id }, notifications: honored },
        inflight.channel,
        scope,
      );
    });
  }

  /** -32603 when the server, or the authorized caller `principal`, holds as many subscriptions as allowed. */
  private refuseOverLimit(principal: string): void {
    if (this.open.size >= this.maxListeners)
      throw new ProtocolError(INTERNAL_ERROR, `the server has ${this.maxListeners} open subscriptions, its limit`);
    if (principal !== "" && (this.byPrincipal.get(principal) ?? 0) >= this.maxPerPrincipal)
      throw new ProtocolError(
        INTERNAL_ERROR,
        `this caller has ${this.maxPerPrincipal} open subscriptions, its limit (ListenLimits.maxListenersPerPrincipal)`,
      );
  }

  /** A list changed: every subscription that opted in to it is told. */
  listChanged(method: string): void {
    for (const listener of this.open) if (listener.methods.has(method)) this.deliver(listener, method, {});
  }

  /** A resource changed: every subscription naming its URI is told. */
  resourceUpdated(uri: string): void {
    for (const listener of this.open) if (listener.uris.has(uri)) this.deliver(listener, RESOURCE_UPDATED, { uri });
  }

  /** Something a keyed filter names changed: every subscription naming its id is told (`params` is the notification's). */
  keyedChanged(method: string, id: string, params: Record<string, unknown>): void {
    for (const listener of this.open) if (listener.keyed.get(method)?.has(id)) this.deliver(listener, method, params);
  }

  /** #graceful-closure: the server ends every subscription with a result carrying its id. */
  closeAll(): void {
    for (const listener of [...this.open]) this.closeGracefully(listener);
  }

  private closeGracefully(listener: Listener): void {
    if (!this.open.has(listener)) return;
    // Sent now, before the connection under it closes; the listen request's promise then settles unused.
    complete(listener.session, listener.inflight, {
      resultType: "complete",
      _meta: { [META_SUBSCRIPTION_ID]: listener.id },
    });
    listener.end(undefined);
  }

  /**
   * -32010 insufficient_scope (403 over HTTP) naming every scope the resources
   * in `uris` need, when the caller lacks one: an update tells of a protected
   * resource as a read does (basic/authorization#runtime-insufficient-scope-errors: one challenge).
   */
  private requireResourceScopes(inflight: Inflight, uris: ReadonlySet<string>): void {
    const needed = new Set<string>();
    const protectedUris: string[] = [];
    for (const uri of uris) {
      const scopes = this.scopesOf(uri);
      if (!declaresScopes(scopes)) continue;
      protectedUris.push(uri);
      for (const scope of scopes) needed.add(scope);
    }
    requireScopes(inflight.channel.authorization, [...needed], `updates of resource ${protectedUris.join(" ")}`);
  }

  private deliver(listener: Listener, method: string, params: Record<string, unknown>): void {
    const { inflight } = listener;
    listener.session.notify(
      method,
      { ...params, _meta: { [META_SUBSCRIPTION_ID]: listener.id } },
      inflight.channel,
      inflight.scope,
    );
  }
}

/** The capabilities object that declares `path` (e.g. { extensions: { "io.modelcontextprotocol/tasks": {} } }). */
function requiredBy(path: readonly string[]): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), {});
}
