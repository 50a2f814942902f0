// mcpgen/server: build an MCP server on the generated runtime. Handlers are
// written against the handler revision's types (protocol/handler-revision.ts); clients
// of every revision, with the initialize handshake or per-request `_meta`, are
// served through the generated tables and shims.
export { McpServer } from "./mcp-server.js";
export type * from "./definitions.js";
export { RequestContext, Session, type Channel, type RequestOptions, type Scope } from "./session/session.js";
export { DEFAULT_SESSION_LIMITS, type SessionLimits } from "./types.js";
export { InputRequired, type InputRequestSpec } from "./input/round.js";
export { InsufficientScopeError, INSUFFICIENT_SCOPE, type AuthInfo, type Authorization } from "./authorization.js";
export type { RequestStateKey, RequestStateKeySource, RequestStateOptions } from "./input/request-state.js";
export type { ListenLimits } from "./subscriptions.js";
export type { HeaderParam } from "../protocol/headers.js";
export { TASKS_EXTENSION, type TasksOptions, type ToolTaskOptions } from "./tasks/service.js";
export {
  MemoryTaskStore,
  isTerminal,
  newTaskId,
  type MemoryTaskStoreOptions,
  type TaskChange,
  type TaskState,
  type TaskStatus,
  type TaskStore,
} from "./tasks/store.js";
export { loadSkills, SkillError, SKILL_LIMITS, type LoadedSkill, type SkillFile } from "./skills/load.js";
export { withExtensions, type ExtensionTables } from "../extensions.js";
export {
  ClientError,
  ProtocolError,
  RequestRefusedError,
  RequestTimeoutError,
  ResourceNotFoundError,
  MissingClientCapabilityError,
  RESOURCE_NOT_FOUND,
  invalidParams,
} from "./errors.js";
export type { FromSchema, JsonSchema, ObjectSchema } from "../protocol/json-schema.js";
export type { ServerLogger } from "./logging.js";
export { UriTemplate, UriTemplateError, type UriVariables } from "./features/uri-template.js";
export { ServedRevisions } from "./session/revisions.js";
export { generatedRevisions } from "../protocol/revisions.js";
export { handlerRevision } from "../protocol/handler-revision.js";
export type * from "../protocol/handler-revision.js";
