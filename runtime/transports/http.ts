// Streamable HTTP (basic/transports#streamable-http) and, beside it, the
// HTTP+SSE transport of 2024-11-05, on node:http: the adapter that hands
// IncomingMessage and ServerResponse to the handler every adapter shares
// (http-handler.ts), and reads a body off node's request stream.
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { utf8Text } from "../utf8.js";
import type { McpServer } from "../server/mcp-server.js";
import { BodiesHeld, BodyNotUtf8, BodyTooLarge } from "./http-guard.js";
import { McpHttpHandler } from "./http-handler.js";
import { BodyAlreadyRead, type BodyReader } from "./http-wire.js";
import type { HttpOptions } from "./http-options.js";

export type { ResponseMode } from "./http-exchanges.js";
export type { HttpOptions } from "./http-options.js";
export { InvalidTokenError, VerifierUnavailableError } from "./auth.js";
export type { AuthOptions, TokenVerifier, TokenVerifierContext } from "./auth.js";
export type { AuthInfo } from "../server/authorization.js";

export class StreamableHttpTransport {
  private readonly handler: McpHttpHandler<IncomingMessage>;

  constructor(server: McpServer, options: HttpOptions = {}) {
    this.handler = new McpHttpHandler(server, options, readNodeBody);
  }

  /** Bytes of request bodies held now (HttpOptions.maxHeldBodyBytes). */
  get heldBodyBytes(): number {
    return this.handler.heldBodyBytes;
  }

  /** Live sessions (Streamable HTTP and legacy SSE). */
  get sessionCount(): number {
    return this.handler.sessionCount;
  }

  /**
   * The request handler, for node:http or any framework that hands over
   * IncomingMessage and ServerResponse. Behind a body parser (express.json()),
   * pass the body it parsed: `transport.handle(req, res, req.body)`; the
   * request's stream has been read already.
   */
  readonly handle = (request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): void => {
    this.handler.handle(request, response, parsedBody);
  };

  /** Ends every session and stops the idle sweep. */
  close(): void {
    this.handler.close();
  }
}

const NODE_BODY_READ =
  "a body parser such as express.json() ran first: pass the body it parsed, transport.handle(req, res, req.body)";

/**
 * Reads a request body off node's stream, refusing one larger than `limit`
 * bytes without buffering past it, or one that `held` has no room for (a
 * declared length is taken at once, a chunked body as it comes).
 */
const readNodeBody: BodyReader<IncomingMessage> = (request, limit, held, done) => {
  // A body parser read the stream first: its `end` has come and gone, and waiting for it would hang.
  if (request.readableEnded || request.readableDidRead) return done(new BodyAlreadyRead(NODE_BODY_READ), "");
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && (declared > limit || !held.growTo(declared))) {
    request.resume(); // drain what the client sends; the reply says why
    done(declared > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
    return;
  }
  let chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  request.on("data", (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > limit || !held.growTo(size)) {
      settled = true;
      chunks = [];
      done(size > limit ? new BodyTooLarge(limit) : new BodiesHeld(held.budgetLimit), "");
      return;
    }
    chunks.push(chunk);
  });
  request.on("end", () => {
    if (settled) return;
    settled = true;
    const text = chunks.length === 0 ? "" : utf8Text(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    if (typeof text === "number") done(new BodyNotUtf8(text), "");
    else done(undefined, text);
  });
  request.on("error", (error: Error) => {
    if (settled) return;
    settled = true;
    done(error, "");
  });
};

export interface HttpServerHandle {
  /** The MCP endpoint, e.g. http://127.0.0.1:43117/mcp. */
  readonly url: string;
  readonly port: number;
  readonly transport: StreamableHttpTransport;
  readonly httpServer: NodeServer;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

/** Serves `server` over Streamable HTTP (and HTTP+SSE) on a new node:http server. */
export async function serveHttp(server: McpServer, options: HttpOptions = {}): Promise<HttpServerHandle> {
  const transport = new StreamableHttpTransport(server, options);
  const httpServer = createServer(transport.handle);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}${options.path ?? "/mcp"}`,
    port: address.port,
    transport,
    httpServer,
    close: async () => {
      transport.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
