// Streamable HTTP (basic/transports#streamable-http) and, beside it, the
// HTTP+SSE transport of 2024-11-05, on node:http: the adapter that hands
// IncomingMessage and ServerResponse to the handler every adapter shares
// (http-handler.ts), and reads a body off node's request stream.
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "../server/mcp-server.js";
import { McpHttpHandler } from "./http-handler.js";
import { nodeBodyReader } from "./http-node-body.js";
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

const readNodeBody = nodeBodyReader(
  "a body parser such as express.json() ran first: pass the body it parsed, transport.handle(req, res, req.body)",
);

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
