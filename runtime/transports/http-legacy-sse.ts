// The HTTP+SSE transport of 2024-11-05 (basic/transports#http-with-sse), served
// beside Streamable HTTP (http.ts): GET on the SSE path opens a session whose
// first event names where to POST; every answer travels on that stream, and a
// POST is only acknowledged (202).
import type { HttpRequestHead, HttpResponseSink } from "./http-wire.js";
import type { Authorization } from "../server/authorization.js";
import type { McpServer } from "../server/mcp-server.js";
import type { Channel } from "../server/session/session.js";
import { endAccepted, type RequestAuth } from "./http-exchanges.js";
import { httpError, refused, sessionNotFound } from "./http-errors.js";
import type { MessageReader } from "./http-wire.js";
import { ACCEPTS_SSE, accepted } from "./http-headers.js";
import { principalOf, type HttpSessionTable, type LegacySseSession } from "./http-sessions.js";
import { openEventStream, overfull } from "./sse.js";

export class LegacySseEndpoints {
  constructor(
    private readonly server: McpServer,
    /** Where its sessions are kept, and counted against maxSessions with the Streamable HTTP ones. */
    private readonly table: HttpSessionTable,
    private readonly readMessage: MessageReader,
    private readonly messagesPath: string,
  ) {}

  /** GET on the SSE path: a new session and its stream. */
  open(request: HttpRequestHead, response: HttpResponseSink, auth: RequestAuth | undefined): void {
    if ((accepted(request) & ACCEPTS_SSE) === 0)
      return httpError(response, 406, "Not Acceptable: the Accept header must list text/event-stream");
    const principal = principalOf(auth);
    const refusal = this.table.roomFor(principal);
    if (refusal) return refused(response, refusal);
    const id = this.table.newId();
    openEventStream(response);
    const write = (json: string) => {
      response.write(`event: message\ndata: ${json}\n\n`);
      if (overfull(response)) response.destroy(); // the client does not read: the session ends (close)
    };
    const session = this.server.connect(write);
    this.table.addLegacy(id, { session, principal, write });
    // 2024-11-05 basic/transports#http-with-sse: the first event names where to POST.
    response.write(`event: endpoint\ndata: ${this.messagesPath}?sessionId=${id}\n\n`);
    response.once("close", () => {
      this.table.removeLegacy(id);
      session.close();
    });
  }

  /** POST on the messages path: a message of the session its query names. */
  post(request: HttpRequestHead, response: HttpResponseSink, auth: RequestAuth | undefined): void {
    const id = new URL(request.url ?? "/", "http://localhost").searchParams.get("sessionId");
    const legacy = id === null ? undefined : this.table.ownedLegacy(id, principalOf(auth));
    if (!legacy) return sessionNotFound(response, id ?? "(none)");
    this.readMessage(request, response, (message, length) => this.receive(response, legacy, auth, message, length));
  }

  private receive(
    response: HttpResponseSink,
    legacy: LegacySseSession,
    auth: RequestAuth | undefined,
    message: unknown,
    length: number,
  ): void {
    legacy.session.receiveMessage(message, new StreamChannel(legacy, auth), length);
    endAccepted(response);
  }
}

/** A POST's channel: replies travel on the session's SSE stream; it carries the POST's authorization. */
class StreamChannel implements Channel {
  readonly send: (json: string) => void;
  readonly authorization: Authorization | undefined;

  constructor(
    private readonly legacy: LegacySseSession,
    auth: RequestAuth | undefined,
  ) {
    this.send = legacy.write;
    this.authorization = auth?.authorization;
  }

  reply(json: string | null): void {
    if (json !== null) this.legacy.write(json);
  }
}
