/* A small but complete revision: the JSON-RPC envelope, a handshake, a
 * request both sides send, client and server requests, notifications. */

/** @internal */
export const LATEST_PROTOCOL_VERSION = "2025-01-01";
/** @internal */
export const JSONRPC_VERSION = "2.0";

export const INVALID_PARAMS = -32602;

/** A uniquely identifying ID for a request in JSON-RPC. */
export type RequestId = string | number;

/** @internal */
export interface Request {
  method: string;
  // `any`, as upstream writes it: an interface such as CallToolRequestParams
  // only satisfies an index signature whose value type is any.
  params?: { [key: string]: any };
}

/** @internal */
export interface Notification {
  method: string;
  params?: { [key: string]: unknown };
}

export interface Result {
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

export interface JSONRPCRequest extends Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
}

export interface JSONRPCNotification extends Notification {
  jsonrpc: typeof JSONRPC_VERSION;
}

export interface JSONRPCResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  result: Result;
}

export interface JSONRPCError {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  error: { code: number; message: string; data?: unknown };
}

export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse | JSONRPCError;

export type EmptyResult = Result;

export interface ClientCapabilities {
  sampling?: object;
}

export interface ServerCapabilities {
  tools?: {
    /** Whether the server notifies when its tool list changes. */
    listChanged?: boolean;
  };
}

/** Sent by the client first. */
export interface InitializeRequest extends JSONRPCRequest {
  method: "initialize";
  params: {
    protocolVersion: string;
    capabilities: ClientCapabilities;
  };
}

export interface InitializeResult extends Result {
  protocolVersion: string;
  capabilities: ServerCapabilities;
}

export interface InitializedNotification extends JSONRPCNotification {
  method: "notifications/initialized";
}

/** Either side may ping. */
export interface PingRequest extends JSONRPCRequest {
  method: "ping";
}

export interface Tool {
  name: string;
  description?: string;
  inputSchema: { type: "object"; properties?: { [key: string]: object } };
}

export interface ListToolsRequest extends JSONRPCRequest {
  method: "tools/list";
}

export interface ListToolsResult extends Result {
  tools: Tool[];
}

export interface CallToolRequestParams {
  name: string;
  arguments?: { [key: string]: unknown };
}

export interface CallToolRequest extends JSONRPCRequest {
  method: "tools/call";
  params: CallToolRequestParams;
}

export interface CallToolResult extends Result {
  content: TextContent[];
  isError?: boolean;
}

export interface TextContent {
  type: "text";
  text: string;
}

export interface ToolListChangedNotification extends JSONRPCNotification {
  method: "notifications/tools/list_changed";
}

export interface CreateMessageRequest extends JSONRPCRequest {
  method: "sampling/createMessage";
  params: { messages: TextContent[]; maxTokens: number };
}

export interface CreateMessageResult extends Result {
  model: string;
  content: TextContent;
}

/** @internal */
export type ClientRequest = InitializeRequest | PingRequest | ListToolsRequest | CallToolRequest;
/** @internal */
export type ServerRequest = PingRequest | CreateMessageRequest;
/** @internal */
export type ClientNotification = InitializedNotification;
/** @internal */
export type ServerNotification = ToolListChangedNotification;
