// The benchmark's echo tool on the official SDK's StreamableHTTPServerTransport
// over node:http, as its documentation sets it up: with sessions, a transport
// per session; stateless (--stateless), a server and transport per request.
// enableJsonResponse: JSON answers, as mcpgen gives for this tool (the SDK's
// default, an SSE stream per request, is slower).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { echoServer } from "./echo-sdk.js";

function body(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
  });
}

const stateless = process.argv.includes("--stateless");
const transports = new Map<string, StreamableHTTPServerTransport>();

const http = createServer(async (request, response) => {
  const parsed = request.method === "POST" ? await body(request) : undefined;
  if (stateless) {
    const server = echoServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, parsed);
    return;
  }
  const sessionId = request.headers["mcp-session-id"];
  let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void transports.set(id, transport!),
    });
    transport.onclose = () => void (transport!.sessionId && transports.delete(transport!.sessionId));
    await echoServer().connect(transport);
  }
  await transport.handleRequest(request, response, parsed);
});
http.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`));
