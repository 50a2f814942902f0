// Server-Sent Events for Streamable HTTP (basic/transports#streamable-http):
// a logical stream outlives the HTTP connections that carry it. Every event
// gets an id naming its stream; the events are kept in an event store, so that
// a client that lost the connection (or was asked to poll, SEP-1699) resumes
// with GET and Last-Event-ID and receives what it missed, on that stream only.
// Event ids are `${streamId}_${sequence}`, so that a Last-Event-ID names its stream.
import type { HttpResponseSink } from "./http-wire.js";

export interface StoredEvent {
  /** The event's position in its stream: 1, 2, ... (0 is the priming event, never stored). */
  readonly sequence: number;
  /** One JSON-RPC message, serialized. */
  readonly message: string;
}

/**
 * Where SSE events are kept for resumption. The default keeps them in memory;
 * a store shared between processes can stand in for it.
 */
export interface EventStore {
  append(streamKey: string, event: StoredEvent): void;
  /** The stream's events after `sequence`, in order, as far as the store still has them. */
  replayAfter(streamKey: string, sequence: number): readonly StoredEvent[] | Promise<readonly StoredEvent[]>;
  /** The stream will not be resumed again (its session ended). */
  forget(streamKey: string): void;
}

/** What InMemoryEventStore keeps at most; beyond a bound, the oldest events (then streams) go first. */
export interface EventStoreLimits {
  /** Events of one stream. Default 1000. */
  maxEventsPerStream?: number;
  /** Streams. Default 10,000. */
  maxStreams?: number;
  /** UTF-16 code units of the messages of one stream (its last event is always kept). Default 8 Mi. */
  maxCharsPerStream?: number;
  /** UTF-16 code units of every stream's messages together. Default 64 Mi. */
  maxChars?: number;
}

/**
 * Keeps the last events of each stream, bounded in count and size per stream
 * and in all (the oldest go first): memory stays bounded whatever clients do,
 * a message's size included (a request id or a log line may be megabytes).
 */
export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, { events: StoredEvent[]; chars: number }>();
  private chars = 0;

  constructor(private readonly limits: EventStoreLimits = {}) {}

  append(streamKey: string, event: StoredEvent): void {
    let stream = this.streams.get(streamKey);
    if (!stream) {
      stream = { events: [], chars: 0 };
      this.streams.set(streamKey, stream);
      if (this.streams.size > (this.limits.maxStreams ?? 10_000)) this.drop(this.streams.keys().next().value as string);
    }
    stream.events.push(event);
    stream.chars += event.message.length;
    this.chars += event.message.length;
    const maxEvents = this.limits.maxEventsPerStream ?? 1000;
    const maxCharsPerStream = this.limits.maxCharsPerStream ?? 8 * 1024 * 1024;
    while (stream.events.length > 1 && (stream.events.length > maxEvents || stream.chars > maxCharsPerStream)) {
      const dropped = stream.events.shift()!.message.length;
      stream.chars -= dropped;
      this.chars -= dropped;
    }
    const maxChars = this.limits.maxChars ?? 64 * 1024 * 1024;
    while (this.chars > maxChars) {
      const oldest = this.streams.keys().next().value as string;
      if (oldest === streamKey) break; // this stream alone: its own bound holds it
      this.drop(oldest);
    }
  }

  replayAfter(streamKey: string, sequence: number): readonly StoredEvent[] {
    return (this.streams.get(streamKey)?.events ?? []).filter((event) => event.sequence > sequence);
  }

  forget(streamKey: string): void {
    this.drop(streamKey);
  }

  private drop(streamKey: string): void {
    const stream = this.streams.get(streamKey);
    if (!stream) return;
    this.chars -= stream.chars;
    this.streams.delete(streamKey);
  }

  /** How many streams are kept (for tests and monitoring). */
  get size(): number {
    return this.streams.size;
  }

  /** UTF-16 code units of the messages kept (for tests and monitoring). */
  get storedChars(): number {
    return this.chars;
  }
}

/**
 * Bytes an SSE connection may hold unsent (the client not reading) before it
 * is cut: a resumable stream keeps its events in the store and the client
 * resumes; any other stream ends, as its client has stopped taking it.
 */
export const MAX_UNSENT_BYTES = 8 * 1024 * 1024;

/** Whether `response` holds more unsent bytes than MAX_UNSENT_BYTES. */
export function overfull(response: HttpResponseSink): boolean {
  return response.writableLength > MAX_UNSENT_BYTES;
}

/** Writes the SSE response head. */
export function openEventStream(response: HttpResponseSink, headers: Record<string, string> = {}): void {
  response.writeHead(200, {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache, no-transform",
    Connection: "keep-alive",
    ...headers,
  });
  response.flushHeaders();
}

/** One logical SSE stream of a session: a POST's, or the standalone GET stream. */
export class SseStream {
  private sequence = 0;
  private connection: HttpResponseSink | null = null;
  /** Set once the stream's last event (a POST's response) was sent: no more events, replay then end. */
  ended = false;

  constructor(
    /** Unique within the session, e.g. "s3"; event ids are `${id}_${sequence}`. */
    readonly id: string,
    /** The event store's key: unique across sessions. */
    readonly key: string,
    private readonly store: EventStore,
    private readonly retryMs: number,
  ) {}

  get connected(): boolean {
    return this.connection !== null;
  }

  /**
   * Carries the stream on `response`: writes the head, then either the priming
   * event (a new stream) or the events after `lastSequence` (a resumption).
   * Returns false, writing nothing, when the events the client missed are no
   * longer all in the store.
   */
  async attach(
    response: HttpResponseSink,
    lastSequence?: number,
    headers: Record<string, string> = {},
  ): Promise<boolean> {
    let missed: readonly StoredEvent[] = [];
    if (lastSequence !== undefined) {
      if (lastSequence > this.sequence) return false;
      if (lastSequence < this.sequence) {
        missed = await this.store.replayAfter(this.key, lastSequence);
        if (missed[0]?.sequence !== lastSequence + 1) return false;
      }
    }
    // The client left while the store answered: `close` has fired already and would never free
    // the stream (connected forever, its session never idle). Nothing to answer.
    if (response.destroyed) return true;
    this.detach();
    openEventStream(response, headers);
    if (lastSequence === undefined) {
      // basic/transports: prime the client with an event id and empty data, so
      // that it can resume from here; retry tells it how long to wait.
      response.write(`id: ${this.id}_0\nretry: ${this.retryMs}\ndata: \n\n`);
    }
    for (const event of missed) response.write(`id: ${this.id}_${event.sequence}\ndata: ${event.message}\n\n`);
    if (this.ended) {
      response.end();
      return true;
    }
    this.connection = response;
    response.once("close", () => {
      if (this.connection === response) this.connection = null;
    });
    return true;
  }

  /** Sends one message as an event (kept for resumption even when no connection carries the stream now). */
  send(message: string): void {
    if (this.ended) return;
    const sequence = ++this.sequence;
    this.store.append(this.key, { sequence, message });
    if (!this.connection) return;
    this.connection.write(`id: ${this.id}_${sequence}\ndata: ${message}\n\n`);
    if (overfull(this.connection)) {
      // The client does not read: drop the connection, keep the stream (it resumes from the store).
      this.connection.destroy();
      this.connection = null;
    }
  }

  /** The stream is complete: the connection carrying it ends; a later resumption replays and ends. */
  end(): void {
    this.ended = true;
    this.connection?.end();
    this.connection = null;
  }

  /**
   * Ends the connection but not the stream (SEP-1699 polling): the client
   * waits `retryMs`, then resumes with Last-Event-ID.
   */
  disconnect(retryMs = this.retryMs): boolean {
    if (!this.connection) return false;
    this.connection.end(`retry: ${retryMs}\n\n`);
    this.connection = null;
    return true;
  }

  private detach(): void {
    this.connection?.end();
    this.connection = null;
  }
}

/**
 * The SSE stream of one request on a per-request revision: events without
 * ids, nothing kept for resumption ("Resumable SSE streams via Last-Event-ID
 * are not supported", 2026-07-28 basic/transports/streamable-http#receiving-messages),
 * and a comment line as keep-alive while it is quiet, which long-lived
 * streams such as subscriptions/listen need against idle timeouts.
 */
export class ResponseStream {
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastWrite = Date.now();

  constructor(
    private readonly response: HttpResponseSink,
    keepAliveMs: number,
  ) {
    openEventStream(response, { "X-Accel-Buffering": "no" });
    if (keepAliveMs > 0) {
      this.timer = setInterval(() => {
        if (Date.now() - this.lastWrite >= keepAliveMs) this.write(":\n\n");
      }, keepAliveMs);
      this.timer.unref?.(); // a number on Deno and workerd: nothing to unref
    }
    response.once("close", () => this.stop());
  }

  send(message: string): void {
    this.write(`event: message\ndata: ${message}\n\n`);
  }

  end(): void {
    this.stop();
    this.response.end();
  }

  private write(text: string): void {
    if (this.response.writableEnded) return;
    this.lastWrite = Date.now();
    this.response.write(text);
    if (overfull(this.response)) this.response.destroy(); // not read: its request is cancelled (close)
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
