// A session's waits for protocol revisions. A revision's tables and shims load
// on a session's first need of them (revisions.ts, wires.ts); while one is
// loading, the session's incoming messages wait here, in order and bounded
// (SessionLimits.queuedMessages), and are received again once it has loaded,
// so that no message overtakes the one that needed the load.
import type { RevisionInfo } from "../revision-facts.js";
import type { Classification, RequestId } from "../messages.js";
import { INTERNAL_ERROR } from "../protocol/handler-revision.js";
import type { Channel, Inflight } from "./context.js";
import type { Lifecycle } from "./lifecycle.js";
import { errorJson } from "./replies.js";
import type { TablesOnly, Wire } from "../protocol/revisions.js";
import type { SessionHost } from "./context.js";

/** What the waits need of their session (Session implements it). */
export interface LoadingSession {
  readonly host: SessionHost;
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
  withWire(
    info: RevisionInfo,
    id: RequestId,
    reply: Inflight["reply"],
    then: (wire: Wire) => void,
    failed?: () => void,
  ): void {
    const { wires } = this.session.host;
    const ready = wires.loaded(info);
    if (ready) then(ready);
    else this.afterLoad(wires.load(info), info, id, reply, then, failed);
  }

  /** withWire for answering initialize: the tables alone when they suffice (handshake.ts). */
  withHandshakeWire(
    info: RevisionInfo,
    tablesSuffice: boolean,
    id: RequestId,
    reply: Inflight["reply"],
    then: (wire: Wire | TablesOnly) => void,
    failed: () => void,
  ): void {
    const { wires } = this.session.host;
    const ready = wires.loadedForHandshake(info, tablesSuffice);
    if (ready) then(ready);
    else this.afterLoad(wires.loadForHandshake(info, tablesSuffice), info, id, reply, then, failed);
  }

  /**
   * Holds the session's messages until `info`'s wire is loaded and adopted
   * (handshake.ts); when it cannot load, every request gets -32603 from then on
   * (Lifecycle.failure): the initialize answer is out and cannot be taken back,
   * and closing would leave the waiting requests unanswered.
   */
  adoptOnLoad(info: RevisionInfo, adopt: (wire: Wire) => void): void {
    const { host, lifecycle } = this.session;
    this.backlog ??= []; // messages that came while the tables loaded stay first
    host.wires
      .load(info)
      .then((wire) => {
        if (lifecycle.phase !== "closed") adopt(wire);
      })
      .catch((error: unknown) => {
        host.logger("error", `cannot load protocol revision ${info.name}`, String(error));
        lifecycle.failure = `Internal error: cannot load protocol revision ${info.name}`;
      })
      .finally(() => {
        lifecycle.settling = undefined;
        this.drain();
      });
  }

  /** Holds the session's messages while `loading`, then runs `then` with what it loaded. */
  private afterLoad<W>(
    loading: Promise<W>,
    info: RevisionInfo,
    id: RequestId,
    reply: Inflight["reply"],
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
    if (this.session.lifecycle.settling) return; // the handshake's shims are loading: adoptOnLoad drains once they are
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
