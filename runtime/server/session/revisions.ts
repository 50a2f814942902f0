// Loading a revision for a session. The revisions one server serves
// (ServerOptions.revisions) and how a client's protocol version finds one
// (basic/lifecycle#version-negotiation for initialize; the version a request's
// `_meta` names otherwise); each revision's generated tables, with the
// extensions the server offers merged in on the revisions that can negotiate
// them (RevisionInfo.extensions; basic/index#extensions: a revision without the
// map never sees an extension's methods, -32601), loaded on a session's first
// need of them (protocol/revisions.ts loads them once per process); and, while
// one loads, the session's incoming messages waiting in order and bounded
// (SessionLimits.queuedMessages), received again once it has loaded, so that
// no message overtakes the one that needed the load.
import { revisions } from "../../../generated/index.js";
import type { RevisionInfo } from "../../table-types.js";
import type { Classification, MessageTables, RequestId } from "../../messages.js";
import { withExtensions, type ExtensionTables } from "../../extensions.js";
import { INTERNAL_ERROR } from "../../protocol/handler-revision.js";
import {
  extensionLoaders,
  loadedTables,
  loadedRevision,
  loadTables,
  loadRevision,
  type LoadedRevision,
  type TablesOnly,
} from "../../protocol/revisions.js";
import type { ServerLogger } from "../logging.js";
import { errorJson } from "../request/reply.js";
import type { Channel, IncomingRequest, SessionLimits } from "../types.js";
import type { Lifecycle } from "./lifecycle.js";

/**
 * The revisions one server serves (all generated ones unless the server names
 * some), how a client's version finds one, and each one loaded with the served
 * extensions merged in. Both lifecycles are facts of the revisions
 * (RevisionInfo.lifecycle), never names.
 */
export class ServedRevisions {
  /** Served, oldest first. */
  readonly all: readonly RevisionInfo[];
  /** The served revisions with the initialize handshake, oldest first. */
  readonly handshake: readonly RevisionInfo[];
  /** Every protocol version served, newest first (server/discover, UnsupportedProtocolVersionError). */
  readonly supportedVersions: readonly string[];
  private readonly byVersion = new Map<string, RevisionInfo>();
  /** The extensions served, merged into the tables of the revisions that negotiate extensions. */

  readonly extensions: ServedExtension[] = [];
  private loading = 0;
  private pending: Promise<unknown> = Promise.resolve();
  private readonly merged = new Map<string, LoadedRevision>();
  private readonly mergedTables = new Map<MessageTables, MessageTables>();

  constructor(names?: readonly string[]) {
    if (names) {
      const unknown = names.filter((n) => !revisions.some((r) => r.name === n));
      if (unknown.length > 0)
        throw new TypeError(
          `unknown protocol revision ${unknown.join(", ")} (generated: ${revisions.map((r) => r.name).join(", ")})`,
        );
      if (names.length === 0) throw new TypeError("a server must serve at least one protocol revision");
    }
    this.all = names ? revisions.filter((r) => names.includes(r.name)) : revisions;
    this.handshake = this.all.filter((r) => r.lifecycle === "initialize");
    // A version several revisions state (draft states the latest release's until it is cut) goes to the
    // released one, the revision named after it; else to the newest.
    for (const info of this.all) {
      const current = this.byVersion.get(info.protocolVersion);
      if (!current || current.name !== current.protocolVersion) this.byVersion.set(info.protocolVersion, info);
    }
    this.supportedVersions = [...new Set(this.all.map((r) => r.protocolVersion))].reverse();
  }

  /** The revision serving a protocol version, whatever its lifecycle. */
  forVersion(version: string): RevisionInfo | undefined {
    return this.byVersion.get(version);
  }

  /**
   * The handshake revision to answer an initialize request with: the client's
   * when served, else the newest released one the server has
   * (basic/lifecycle#version-negotiation); undefined when it serves none.
   */
  negotiate(requested: string): RevisionInfo | undefined {
    const exact = this.forVersion(requested);
    if (exact?.lifecycle === "initialize") return exact;
    return this.handshake.filter((r) => r.name === r.protocolVersion).at(-1) ?? this.handshake.at(-1);
  }

  /**
   * Starts loading a generated extension's tables (by its folder name, e.g.
   * "tasks"). Until they are loaded, sessions wait for them before serving a
   * request on a revision that negotiates extensions.
   */
  add(name: string, settings: Record<string, unknown> = {}): Promise<ServedExtension> {
    const load = extensionLoaders([name])[0]!;
    const existing = this.extensions.find((e) => e.tables.name === name);
    if (existing) {
      Object.assign(existing.settings, settings);
      return Promise.resolve(existing);
    }
    this.loading++;
    const loaded = load().then(
      (tables) => {
        this.loading--;
        const served = this.extensions.find((e) => e.tables.name === name) ?? { tables, settings };
        if (!this.extensions.includes(served)) this.extensions.push(served);
        else Object.assign(served.settings, settings);
        this.merged.clear();
        this.mergedTables.clear();
        return served;
      },
      (error: unknown) => {
        this.loading--;
        throw error;
      },
    );
    this.pending = Promise.all([this.pending, loaded.catch(() => undefined)]);
    return loaded;
  }

  /** The served extension with this identifier (e.g. "io.modelcontextprotocol/tasks"), if any. */
  byIdentifier(identifier: string): ServedExtension | undefined {
    return this.extensions.find((e) => e.tables.identifier === identifier);
  }

  loaded(info: RevisionInfo): LoadedRevision | undefined {
    const base = loadedRevision(info);
    if (!base || !info.extensions) return base;
    if (this.loading > 0) return undefined;
    if (this.extensions.length === 0) return base;
    let wire = this.merged.get(info.name);
    if (!wire) {
      wire = { info, tables: this.withServed(base.tables), shims: base.shims };
      this.merged.set(info.name, wire);
    }
    return wire;
  }

  async load(info: RevisionInfo): Promise<LoadedRevision> {
    for (;;) {
      const pending = this.pending;
      await Promise.all([pending, loadRevision(info)]);
      const wire = this.loaded(info);
      if (wire) return wire;
    }
  }

  loadedForHandshake(info: RevisionInfo, tablesSuffice: boolean): LoadedRevision | TablesOnly | undefined {
    const wire = this.loaded(info);
    if (wire || !tablesSuffice) return wire;
    const base = loadedTables(info);
    if (!base || !info.extensions) return base;
    if (this.loading > 0) return undefined;
    return this.extensions.length === 0 ? base : { info, tables: this.withServed(base.tables) };
  }

  async loadForHandshake(info: RevisionInfo, tablesSuffice: boolean): Promise<LoadedRevision | TablesOnly> {
    for (;;) {
      const pending = this.pending;
      await Promise.all([pending, tablesSuffice ? loadTables(info) : loadRevision(info)]);
      const wire = this.loadedForHandshake(info, tablesSuffice);
      if (wire) return wire;
    }
  }

  /** A revision's tables with the served extensions merged in, made once per set of extensions. */
  private withServed(tables: MessageTables): MessageTables {
    let merged = this.mergedTables.get(tables);
    if (!merged) {
      merged = withExtensions(
        tables,
        this.extensions.map((e) => e.tables),
      );
      this.mergedTables.set(tables, merged);
    }
    return merged;
  }
}

/** An extension a server serves: its generated tables, once loaded. */
export interface ServedExtension {
  readonly tables: ExtensionTables;
  /** What the server declares under `capabilities.extensions[identifier]` besides `{}` (e.g. skills' directoryRead). */
  settings: Record<string, unknown>;
}

/** What the waits need of their session (Session implements it). */
export interface LoadingSession {
  readonly host: {
    readonly served: ServedRevisions;
    readonly sessionLimits: Required<SessionLimits>;
    readonly logger: ServerLogger;
  };
  readonly lifecycle: Lifecycle;
  /** A message that waited, received again in its turn. */
  receiveMessage(value: unknown, channel: Channel, length: number): boolean;
  /** The waiting messages are all received: whoever waits for the session to go idle may be told. */
  settleIdle(): void;
}

interface Waiting {
  readonly value: unknown;
  readonly channel: Channel;
  readonly length: number;
}

export class RevisionLoads {
  /** The messages waiting for a load, in order; null while none is pending. */
  private backlog: Waiting[] | null = null;
  /** Their lengths, summed (SessionLimits.inflightLength bounds it, as it bounds the requests in flight). */
  private backlogLength = 0;

  constructor(private readonly session: LoadingSession) {}

  /** A load is pending: incoming messages must wait (hold). */
  get holding(): boolean {
    return this.backlog !== null;
  }

  /**
   * Holds an incoming message until the pending load is done. When the
   * backlog is full (by count, or by length unless it is empty), nothing is
   * held: each request in the message gets -32603 with its id (a batch, an
   * array of them), and a message without requests is logged and dropped.
   */
  hold(value: unknown, channel: Channel, classification: Classification, length: number): void {
    const { host } = this.session;
    const { queuedMessages, inflightLength } = host.sessionLimits;
    const backlog = this.backlog!;
    const full =
      backlog.length >= queuedMessages
        ? `${queuedMessages} messages are already queued in this session`
        : backlog.length > 0 && this.backlogLength + length > inflightLength
          ? `the messages queued in this session are ${this.backlogLength} characters long, and this one's ${length} would pass the limit of ${inflightLength}`
          : undefined;
    if (full === undefined) {
      backlog.push({ value, channel, length });
      this.backlogLength += length;
      return;
    }
    const busy = `Server busy: ${full}`;
    const replies = idsToAnswer(classification).map((id) => errorJson(id, INTERNAL_ERROR, busy));
    if (replies.length === 0) host.logger("warning", `dropped a message: ${full}`);
    else
      channel.reply(classification.kind === "batch" ? `[${replies.join(",")}]` : replies[0]!, { code: INTERNAL_ERROR });
  }

  /** The session closed: what waits is dropped. */
  clear(): void {
    this.backlog = null;
    this.backlogLength = 0;
  }

  /**
   * Runs `then` with a revision's wire, loading it first (later messages wait,
   * in order); a revision that cannot load fails request `id` with -32603.
   */
  withRevision(
    info: RevisionInfo,
    request: Pick<IncomingRequest, "id" | "reply">,
    then: (wire: LoadedRevision) => void,
    failed?: () => void,
  ): void {
    const { served } = this.session.host;
    const ready = served.loaded(info);
    if (ready) then(ready);
    else this.afterLoad(served.load(info), info, request, then, failed);
  }

  /** withRevision for answering initialize: the tables alone when they suffice (session/handshake.ts). */
  withHandshakeRevision(
    info: RevisionInfo,
    tablesSuffice: boolean,
    request: Pick<IncomingRequest, "id" | "reply">,
    then: (wire: LoadedRevision | TablesOnly) => void,
    failed: () => void,
  ): void {
    const { served } = this.session.host;
    const ready = served.loadedForHandshake(info, tablesSuffice);
    if (ready) then(ready);
    else this.afterLoad(served.loadForHandshake(info, tablesSuffice), info, request, then, failed);
  }

  /**
   * Holds the session's messages until `info`'s wire is loaded and adopted
   * (session/handshake.ts); when it cannot load, every request gets -32603 from then on
   * (Lifecycle.failure): the initialize answer is out and cannot be taken back,
   * and closing would leave the waiting requests unanswered.
   */
  adoptOnLoad(info: RevisionInfo, adopt: (wire: LoadedRevision) => void): void {
    const { host, lifecycle } = this.session;
    this.backlog ??= []; // messages that came while the tables loaded stay first
    host.served
      .load(info)
      .then((wire) => {
        if (lifecycle.phase !== "closed") adopt(wire);
      })
      .catch((error: unknown) => {
        host.logger("error", `cannot load protocol revision ${info.name}`, String(error));
        lifecycle.failure = `Internal error: cannot load protocol revision ${info.name}`;
      })
      .finally(() => {
        lifecycle.negotiated = undefined;
        this.drain();
      });
  }

  /** Holds the session's messages while `loading`, then runs `then` with what it loaded. */
  private afterLoad<W>(
    loading: Promise<W>,
    info: RevisionInfo,
    { id, reply }: Pick<IncomingRequest, "id" | "reply">,
    then: (wire: W) => void,
    failed: (() => void) | undefined,
  ): void {
    this.backlog = [];
    const { lifecycle } = this.session;
    loading
      .then((wire) => {
        // Closed while it loaded: what waited for the load is dropped with the session, not run
        // (a handler nobody can cancel, an initialize that would reopen the session).
        if (lifecycle.phase !== "closed") then(wire);
      })
      .catch((error: unknown) => {
        if (lifecycle.phase === "closed") return;
        failed?.();
        this.session.host.logger("error", `cannot load protocol revision ${info.name}`, String(error));
        reply(errorJson(id, INTERNAL_ERROR, `Internal error: cannot load protocol revision ${info.name}`), {
          code: INTERNAL_ERROR,
        });
      })
      .finally(() => this.drain());
  }

  /** The load is done: the waiting messages are received again, in order. */
  private drain(): void {
    if (this.session.lifecycle.negotiated) return; // the handshake's shims are loading: adoptOnLoad drains once they are
    const waiting = this.backlog ?? [];
    this.backlog = null;
    this.backlogLength = 0;
    for (let i = 0; i < waiting.length; i++) {
      if (this.backlog) {
        // A message loaded another revision: the rest waits again, in order.
        const rest = waiting.slice(i);
        (this.backlog as Waiting[]).push(...rest);
        for (const { length } of rest) this.backlogLength += length;
        return;
      }
      const { value, channel, length } = waiting[i]!;
      this.session.receiveMessage(value, channel, length);
    }
    this.session.settleIdle();
  }
}

/** The ids of the requests in a message that must be answered (undefined: an invalid one whose id could not be read). */
function idsToAnswer(classification: Classification): (RequestId | undefined)[] {
  switch (classification.kind) {
    case "request":
      return [classification.id];
    case "invalid":
      return [classification.id];
    case "batch":
      return classification.messages.flatMap(idsToAnswer);
    default:
      return [];
  }
}
