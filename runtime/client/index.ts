// mcpgen/client: a client of MCP servers of every revision, on the generated runtime.
export { Client, type Answer, type CallParams, type ClientHandlers, type ClientOptions } from "./client.js";
export type { RequestOptions } from "./connection.js";
export { StdioClientTransport, type StdioClientOptions } from "./stdio.js";
export { StreamableHttpClientTransport, type HttpClientOptions } from "./http.js";
export type { ClientTransport, SendContext, TransportSink } from "./transport.js";
export { forgetEra, type EraVerdict } from "./era.js";
export { ConnectionClosedError, HttpStatusError, McpError, RequestTimeoutError, ServerMessageError } from "./errors.js";
