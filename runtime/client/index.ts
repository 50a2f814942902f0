// mcpgen/client: a client of MCP servers of every revision, on the generated runtime.
export { Client, type Answer, type CallParams, type ClientHandlers, type ClientOptions } from "./client.js";
export type { RequestOptions } from "./connection.js";
export { StdioClientTransport, type StdioClientOptions } from "./stdio.js";
export { StreamableHttpClientTransport, type HttpClientOptions } from "./http.js";
export { LegacySseClientTransport, type LegacySseClientOptions } from "./legacy-sse.js";
export type {
  SubscribeOptions,
  Subscription,
  SubscriptionEnd,
  SubscriptionListener,
  SubscriptionNotification,
} from "./subscriptions.js";
export {
  TASKS_EXTENSION,
  type TaskCallOptions,
  type TaskInfo,
  type TaskStatus,
  type TaskWaitOptions,
  type ToolCallOptions,
  type ToolTask,
} from "./tasks.js";
export type { ClientTransport, SendContext, TransportSink } from "./transport.js";
export { forgetEra, type EraVerdict } from "./era.js";
export {
  ConnectionClosedError,
  HttpStatusError,
  SessionExpiredError,
  McpError,
  RequestTimeoutError,
  ServerMessageError,
  TaskCancelledError,
} from "./errors.js";
export { elicitationDefaults, withElicitationDefaults } from "./elicitation.js";
export {
  LoadedSkill,
  SKILL_LIMITS,
  SKILLS_EXTENSION,
  SkillVerificationError,
  SkillsClient,
  type Skill,
  type SkillFailure,
  type SkillFile,
  type SkillResource,
  type SkillsOptions,
} from "./skills.js";
