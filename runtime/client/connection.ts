// The JSON-RPC half of a client: ids, the requests in flight (bounded), their
// timeouts and cancellation, progress, and every incoming message checked
// against the wire revision's generated tables before anything sees it
// (decode → check → dispatch). Which era and which _meta is the client's
// (client.ts); how bytes travel is the transport's.
import { parseJson } from "../json.js";
import { checkMessage, type MessageTables } from "../messages.js";
import { isObject, type ValidationError } from "../validation.js";
import type { LoadedRevision } from "../protocol/revisions.js";
import { RequestTimeoutError } from "../protocol/errors.js";
import { PendingRequests } from "../protocol/pending-requests.js";
import { INTERNAL_ERROR, INVALID_PARAMS } from "../protocol/handler-revision.js";
import { ConnectionClosedError, McpError, ServerMessageError } from "./errors.js";
import type { ClientTransport, SendContext } from "./transport.js";

export interface RequestOptions {
  /** Longest wait for the answer, in ms (default: the client's timeoutMs). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Progress notifications for this request (the token is added to params._meta). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * Told the JSON-RPC id the request is sent with, before it is sent (each
   * round of a multi round-trip request has its own), e.g. to match the
   * notifications of a subscriptions/listen stream (basic/patterns/subscriptions#receiving-notifications).
   */
  onRequestId?: (id: string | number) => void;
}

export interface ConnectionHandlers {
  /** A request from the server, its params checked: resolves with the result (wire shape) or throws. */
  request(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  notification(method: string, params: unknown): void;
  /** Something the server sent that could not be used (reported, never thrown). */
  problem(error: Error): void;
}

/** What a waiting request keeps besides its method and resolvers. */
interface Progress {
  readonly onProgress: RequestOptions["onProgress"] | undefined;
}

/** How one request is carried (SendContext); its AbortSignal is made when a transport reads it (HTTP; stdio never does). */
class Exchange implements SendContext {
  readonly era: SendContext["era"];
  readonly protocolVersion: string | undefined;
  private controller: AbortController | undefined;
  cancelled = false;

  constructor(
    context: Connection["context"],
    readonly requestId: string | number,
    readonly headers: Readonly<Record<string, string>> | undefined,
  ) {
    this.era = context.era;
    this.protocolVersion = context.protocolVersion;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort();
    }
    return this.controller.signal;
  }

  cancel(reason: Error): void {
    this.cancelled = true;
    this.controller?.abort(reason);
  }
}

/**
 * Requests from the server being served at once; more are refused (a server must not grow this without
 * bound). Also how many input requests of one multi round-trip result run at once (input.ts).
 */
export const MAX_SERVED = 100;

export class Connection {
  /** The revision messages are checked against, set by the client once the era is known. */
  wire!: LoadedRevision;
  /** How messages travel (the era and version), set by the client. */
  context: Omit<SendContext, "headers" | "signal" | "requestId"> = { era: "modern" };
  private readonly pending: PendingRequests<Progress>;
  private readonly served = new Map<string | number, AbortController>();
  private closedBy: Error | undefined;
  private readonly life = new AbortController();
  private markEnded!: (reason: Error) => void;
  /** Settles with the reason once the connection is gone for good (the transport closed, or close()). */
  readonly ended: Promise<Error> = new Promise((resolve) => (this.markEnded = resolve));

  constructor(
    readonly transport: ClientTransport,
    private readonly handlers: ConnectionHandlers,
    private readonly defaults: { timeoutMs: number; maxPending: number },
  ) {
    const { target } = transport;
    this.pending = new PendingRequests<Progress>({
      max: defaults.maxPending,
      firstId: 1,
      unrefTimers: false,
      full: (_method, max) => new Error(`${max} requests are already waiting for the server`),
      timedOut: (method, _id, timeoutMs) =>
        new RequestTimeoutError(`${method} got no answer from ${target} within ${timeoutMs} ms`, { method, timeoutMs }),
      aborted: (_method, reason) => abortError(reason),
    });
  }

  async start(): Promise<void> {
    await this.transport.start({
      message: (text) => this.receive(text),
      problem: (error) => this.problem(error),
      lost: (error) => this.problem(error, true),
      closed: (reason) => this.end(reason),
    });
  }

  get closed(): boolean {
    return this.closedBy !== undefined;
  }

  /** Aborted with the reason once the connection is gone: ends the waits that are no request (task polls). */
  get lifetime(): AbortSignal {
    return this.life.signal;
  }

  /** Sends a request and resolves with its result as the wire revision shapes it (checked). */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions & { headers?: Record<string, string> } = {},
  ): Promise<unknown> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    options.signal?.throwIfAborted();
    let exchange: Exchange | undefined;
    return this.pending.send(
      method,
      {
        timeoutMs: options.timeoutMs ?? this.defaults.timeoutMs,
        signal: options.signal,
        gaveUp: (id, error) => {
          exchange?.cancel(error);
          // basic/utilities/cancellation: tell the server the answer is no longer wanted.
          if (!this.closedBy && method !== "initialize")
            void this.notify("notifications/cancelled", { requestId: id, reason: error.message }).catch(() => {});
        },
      },
      (id) => {
        options.onRequestId?.(id);
        let body = params;
        if (options.onProgress) {
          const meta = isObject(params?.["_meta"]) ? params["_meta"] : {};
          body = { ...params, _meta: { ...meta, progressToken: id } };
        }
        const text = JSON.stringify(
          body !== undefined ? { jsonrpc: "2.0", id, method, params: body } : { jsonrpc: "2.0", id, method },
        );
        const carried = (exchange = new Exchange(this.context, id, options.headers));
        this.transport.send(text, carried).catch((error: Error) => {
          if (carried.cancelled) return;
          this.pending.take(id)?.reject(error);
        });
      },
      { onProgress: options.onProgress },
    );
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closedBy) throw this.closedBy;
    const message = { jsonrpc: "2.0", method, ...(params !== undefined ? { params } : {}) };
    await this.deliver(JSON.stringify(message), { ...this.context, headers: { "Mcp-Method": method } }, method);
  }

  /**
   * Sends a message that gets no answer (a notification, a response to the server), bounded by
   * the request timeout like a request: a server that holds its POST open must not hold the
   * caller (Client.connect's notifications/initialized) or a served slot forever.
   */
  private async deliver(text: string, context: SendContext, what: string): Promise<void> {
    const controller = new AbortController();
    const timeoutMs = this.defaults.timeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new RequestTimeoutError(`${this.transport.target} did not take ${what} within ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      await Promise.race([this.transport.send(text, { ...context, signal: controller.signal }), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Every request in flight fails with this error (e.g. a dropped oversized line: which one it answered is unknown). */
  failAll(error: Error): void {
    this.pending.rejectAll(() => error);
  }

  async close(): Promise<void> {
    await this.transport.close();
    this.end(new ConnectionClosedError(`the connection to ${this.transport.target} was closed`));
  }

  private end(reason: Error): void {
    if (this.closedBy) return;
    this.closedBy = reason;
    this.markEnded(reason);
    this.life.abort(reason);
    this.failAll(reason);
    for (const controller of this.served.values()) controller.abort(reason);
    this.served.clear();
  }

  private problem(error: Error, failPending = false): void {
    this.handlers.problem(error);
    if (failPending) this.failAll(error);
  }

  // --- incoming ----------------------------------------------------------------

  private receive(text: string): void {
    const parsed = parseJson(text);
    if (!parsed.ok) {
      this.problem(
        new ServerMessageError(
          `${this.transport.target} sent text that is not JSON (line ${parsed.line}, column ${parsed.column}: ${parsed.message})`,
          "",
        ),
      );
      return;
    }
    if (Array.isArray(parsed.value)) {
      // JSON-RPC batches only where the revision's envelope admits them (2025-03-26; the 2025-06-18 changelog removed them).
      if (!this.wire.tables.envelope.batching) this.refuseBatch(parsed.value);
      else for (const item of parsed.value) this.dispatch(item);
    } else this.dispatch(parsed.value);
  }

  /** A batch the wire revision forbids: reported, and the requests its answers name fail now, not at their timeouts. */
  private refuseBatch(items: readonly unknown[]): void {
    const error = new ServerMessageError(
      `${this.transport.target} sent a JSON-RPC batch, which revision ${this.wire.info.name} does not allow`,
      "",
    );
    this.problem(error);
    for (const item of items) {
      const id = isObject(item) && !("method" in item) ? item["id"] : undefined;
      if (typeof id === "string" || typeof id === "number") this.pending.take(id)?.reject(error);
    }
  }

  private dispatch(message: unknown): void {
    const id = isObject(message) && !("method" in message) ? message["id"] : undefined;
    const entry = typeof id === "string" || typeof id === "number" ? this.pending.get(id) : undefined;
    // 2026-07-28 basic/index#resulttype: "clients MUST treat an absent resultType as "complete"".
    if (entry && this.context.era === "modern") completeByDefault(message);
    const verdict = checkMessage(message, this.wire.tables, entry?.method);
    const { classification } = verdict;
    switch (classification.kind) {
      case "result":
      case "error": {
        if (!entry) {
          this.problem(
            new ServerMessageError(
              `${this.transport.target} answered a request it was not sent (id ${JSON.stringify(id)})`,
              "/id",
            ),
          );
          return;
        }
        this.pending.take(id as string | number);
        if (!verdict.result.valid) {
          entry.reject(invalidMessage(this.transport.target, `its answer to ${entry.method}`, verdict.result.errors));
          return;
        }
        const body = message as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
        if (classification.kind === "error")
          entry.reject(new McpError(body.error!.code, body.error!.message, body.error!.data));
        else entry.resolve(body.result);
        return;
      }
      case "request": {
        if (!verdict.result.valid) {
          const error = invalidMessage(
            this.transport.target,
            `its ${classification.method} request`,
            verdict.result.errors,
          );
          this.problem(error);
          // Where the revision has server-to-client requests, the server is owed an answer. Where it has none
          // (2026-07-28 basic/transports: "servers do not initiate JSON-RPC requests and clients do not send
          // JSON-RPC responses"; streamable-http#sending-messages: "The client MUST NOT send JSON-RPC
          // responses"), there is nothing to answer: the problem is reported only.
          if (answersServerRequests(this.wire.tables))
            void this.answer(classification.id, undefined, { code: INVALID_PARAMS, message: error.message });
          return;
        }
        void this.serve(classification.id, classification.method, (message as { params?: unknown }).params);
        return;
      }
      case "notification": {
        if (!verdict.result.valid) {
          this.problem(
            invalidMessage(this.transport.target, `its ${classification.method} notification`, verdict.result.errors),
          );
          return;
        }
        const params = (message as { params?: unknown }).params;
        if (classification.method === "notifications/progress" && isObject(params)) {
          const target = this.pending.get(params["progressToken"] as number);
          target?.onProgress?.(params as { progress: number; total?: number; message?: string });
          return;
        }
        if (classification.method === "notifications/cancelled" && isObject(params)) {
          const requestId = params["requestId"] as number;
          const reason = String(params["reason"] ?? "cancelled by the server");
          this.served.get(requestId)?.abort(new Error(reason));
          // 2026-07-28 basic/patterns/cancellation: a server's cancellation ends a subscriptions/listen stream it tore down.
          if (!this.served.has(requestId) && this.pending.get(requestId)?.method === "subscriptions/listen")
            this.pending
              .take(requestId)!
              .reject(new ConnectionClosedError(`${this.transport.target} ended subscription ${requestId}: ${reason}`));
        }
        this.handlers.notification(classification.method, params);
        return;
      }
      default: {
        const error = verdict.result.valid
          ? new ServerMessageError(`${this.transport.target} sent a message of a kind this client does not take`, "")
          : invalidMessage(
              this.transport.target,
              entry ? `its answer to ${entry.method}` : "a message",
              verdict.result.errors,
            );
        // Not a usable response, but it names a request in flight: that request fails now, not at its timeout.
        if (entry) this.pending.take(id as string | number)!.reject(error);
        else this.problem(error);
      }
    }
  }

  private async serve(id: string | number, method: string, params: unknown): Promise<void> {
    if (this.served.size >= MAX_SERVED || this.served.has(id)) {
      await this.answer(id, undefined, {
        code: INTERNAL_ERROR,
        message: `the client already serves ${MAX_SERVED} requests`,
      });
      return;
    }
    const controller = new AbortController();
    this.served.set(id, controller);
    try {
      const result = await this.handlers.request(method, params, controller.signal);
      if (!controller.signal.aborted) await this.answer(id, result);
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure =
        error instanceof McpError
          ? { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) }
          : { code: INTERNAL_ERROR, message: (error as Error).message ?? String(error) };
      await this.answer(id, undefined, failure);
    } finally {
      this.served.delete(id);
    }
  }

  private async answer(
    id: string | number,
    result: unknown,
    error?: { code: number; message: string; data?: unknown },
  ): Promise<void> {
    if (this.closedBy) return;
    const message = error ? { jsonrpc: "2.0", id, error } : { jsonrpc: "2.0", id, result };
    // Failed or timed out, it returns: serve() then frees the request's slot.
    await this.deliver(JSON.stringify(message), this.context, `the answer to request ${JSON.stringify(id)}`).catch(
      (failure: Error) => this.handlers.problem(failure),
    );
  }
}

const answering = new WeakMap<MessageTables, boolean>();

/**
 * Whether a revision's tables (with the extensions merged in) carry a request the server sends as a
 * message of its own: one the client answers with a JSON-RPC response. 2026-07-28 has none (sampling,
 * elicitation and roots travel inside InputRequiredResult), so a client of it sends no responses.
 */
function answersServerRequests(tables: MessageTables): boolean {
  let answers = answering.get(tables);
  if (answers === undefined) {
    answers = Object.values(tables.methods).some(
      (entry) => entry.kind === "request" && entry.direction !== "client-to-server" && !entry.inputRequest,
    );
    answering.set(tables, answers);
  }
  return answers;
}

/** The error for a message that fails its schema: what, where (JSON pointer), and why. */
function invalidMessage(target: string, what: string, errors: readonly ValidationError[]): ServerMessageError {
  const first = errors[0];
  const where = first?.path || "";
  return new ServerMessageError(
    `${target} sent an invalid message (${what}): at ${where || "/"} ${first?.message ?? "does not match the schema"}`,
    where,
    errors,
  );
}

/**
 * A result without resultType gets "complete" (2026-07-28 basic/index#resulttype: "clients MUST treat
 * an absent resultType as complete"), as the shims' walk would default it. Set before a handshake
 * revision's result is converted up, it lets the conversion take the shims' shortcut (one generated
 * check) instead of walking the whole result.
 */
export function completeResult(result: unknown): unknown {
  if (isObject(result) && !("resultType" in result)) result["resultType"] = "complete";
  return result;
}

/** A modern result without resultType gets "complete" (servers of earlier revisions never send one). */
function completeByDefault(message: unknown): void {
  if (isObject(message) && isObject(message["result"]) && !("resultType" in message["result"]))
    message["result"]["resultType"] = "complete";
}

function abortError(reason: unknown): Error {
  return reason instanceof Error ? reason : new DOMException(String(reason ?? "The request was aborted"), "AbortError");
}
