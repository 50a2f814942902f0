// One client connection as a transport and a server author see it: what
// arrives (receive*), what the server sends on its own (notify, request, log),
// and what the client negotiated. The protocol core behind it is connection.ts,
// its way in receive.ts.
import type { ClientCapabilities, Implementation, LoggingLevel } from "../../protocol/handler-revision.js";
import type { SessionHost } from "../context.js";
import type { Channel, RequestOptions, Scope } from "../types.js";
import { Connection } from "./connection.js";

export type { Channel, RequestOptions, Scope } from "../types.js";
export { RequestContext } from "../context.js";
export { REMEMBERED_IDS } from "./requests-in-flight.js";

/** The protocol core behind a session, for the server that made it. */
export let connectionOf!: (session: Session) => Connection;

export class Session {
  static {
    connectionOf = (session) => session.connection;
  }

  private readonly connection: Connection;

  /** Made by McpServer.connect; `send` writes one message. */
  constructor(host: SessionHost, send: (json: string) => void) {
    this.connection = new Connection(host, send);
  }

  /** The revision negotiated by initialize, or undefined before (and on a connection without a handshake). */
  get revision(): string | undefined {
    return this.connection.revision;
  }

  get isInitialized(): boolean {
    return this.connection.isInitialized;
  }

  get isClosed(): boolean {
    return this.connection.isClosed;
  }

  /** Whether the session was assumed for one stateless POST (no handshake): it ends with it. */
  get isStateless(): boolean {
    return this.connection.isStateless;
  }

  /**
   * A request of the client's is being handled, the server waits for the
   * client's answer to one of its own, or a task the session created still
   * runs: ending the session now would lose work (an HTTP transport never
   * evicts such a session).
   */
  get busy(): boolean {
    return this.connection.busy;
  }

  /** The client's name and version from initialize. */
  get clientInfo(): Implementation | undefined {
    return this.connection.clientInfo;
  }

  /** The client's capabilities from initialize (as sent, in its revision's shape). */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.connection.clientCapabilities;
  }

  /** The level set by logging/setLevel; until then every level passes. */
  get logLevel(): LoggingLevel | undefined {
    return this.connection.logLevel;
  }

  set logLevel(level: LoggingLevel | undefined) {
    this.connection.logLevel = level;
  }

  /** Whether the client subscribed to `uri` (resources/subscribe). */
  isSubscribed(uri: string): boolean {
    return this.connection.isSubscribed(uri);
  }

  /**
   * One framed message from the transport: a line on stdio, a body over HTTP.
   * Returns true when `channel.reply` will be called exactly once (the message
   * holds a request, or is invalid), false when nothing will answer it (only
   * notifications and responses), as HTTP needs to know (202 Accepted).
   */
  receive(text: string, channel?: Channel): boolean {
    return this.connection.receiver.receive(text, channel);
  }

  /**
   * A message the transport has parsed already; see receive(). `length`: the
   * length of its text, where the transport knows it (SessionLimits.inflightLength).
   */
  receiveMessage(value: unknown, channel?: Channel, length?: number): boolean {
    return this.connection.receiver.receiveMessage(value, channel, length);
  }

  /**
   * A message that is not UTF-8 (basic/transports: messages "MUST be UTF-8
   * encoded"), from its byte `offset` on: not decoded, so the reply has no id.
   */
  receiveNotUtf8(offset: number, channel?: Channel): void {
    this.connection.receiver.receiveNotUtf8(offset, channel);
  }

  /** A message the transport refused to frame because it is too large; the reply has no id (it was not read). */
  receiveOversized(bytes: number, limit: number, channel?: Channel): void {
    this.connection.receiver.receiveOversized(bytes, limit, channel);
  }

  /**
   * Treats the session as initialized at `protocolVersion` without a
   * handshake, for stateless Streamable HTTP (basic/transports#session-management).
   * Returns false for a version the server does not serve with a handshake.
   */
  assumeInitialized(protocolVersion: string): boolean {
    return this.connection.assumeInitialized(protocolVersion);
  }

  /**
   * Sends a notification (params in the handler revision's shape) at a scope:
   * the handshake session's unless a request's is given. Returns false, and
   * sends nothing, when the revision lacks the method, its capability was not
   * declared, or a handshake session is not yet initialized and the method may
   * not be sent before.
   */
  notify(method: string, params?: unknown, channel?: Channel, scope?: Scope): boolean {
    return this.connection.notify(method, params, channel, scope);
  }

  /** Sends a server-to-client request in the handshake session and resolves with the client's result (handler revision's shape). */
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    return this.connection.request(method, params, options);
  }

  /**
   * Sends notifications/message when `level` passes the threshold of the
   * scope: the level a handshake client set with logging/setLevel, or the one
   * a per-request request named in `_meta` (none named: nothing is sent).
   */
  log(level: LoggingLevel, data: unknown, logger?: string, channel?: Channel, scope?: Scope): boolean {
    return this.connection.log(level, data, logger, channel, scope);
  }

  /**
   * The client will send nothing more (stdin ended): server requests still
   * waiting fail now, since no answer can come; resolves once every request in
   * flight has been answered, so that a transport can close without losing replies.
   */
  inputEnded(): Promise<void> {
    return this.connection.inputEnded();
  }

  /** The transport closed: handlers are aborted, waiting server requests fail, nothing more is sent. */
  close(): void {
    this.connection.close();
  }
}
