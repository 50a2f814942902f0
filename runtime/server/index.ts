// mcpgen/server: build an MCP server on the generated runtime. Handlers are
// written against the handler revision's types (handler-revision.ts); clients
// of every revision with the initialize handshake are served through the
// generated tables and shims.
export {
  McpServer,
  type Completer,
  type PromptArgs,
  type PromptDefinition,
  type PromptHandler,
  type PromptReturn,
  type Registration,
  type ResourceDefinition,
  type ResourceHandler,
  type ResourceReturn,
  type ResourceTemplateDefinition,
  type ResourceTemplateHandler,
  type ServerOptions,
  type ToolDefinition,
  type ToolHandler,
  type ToolReturn,
} from "./server.js";
export { RequestContext, Session, type RequestOptions } from "./session.js";
export {
  ClientError,
  ProtocolError,
  RequestRefusedError,
  RequestTimeoutError,
  RESOURCE_NOT_FOUND,
  invalidParams,
} from "./errors.js";
export type { FromSchema, JsonSchema, ObjectSchema } from "./json-schema.js";
export type { ServerLogger } from "./logging.js";
export { UriTemplate, UriTemplateError, type UriVariables } from "./uri-template.js";
export { negotiate, servedRevisions } from "./revisions.js";
export { handlerRevision } from "./handler-revision.js";
export type * from "./handler-revision.js";
