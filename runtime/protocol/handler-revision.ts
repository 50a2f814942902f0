// The one revision server handlers are written against. Every other revision a
// client speaks is converted to and from it by the generated shims, so feature
// code never branches on the wire revision.
//
// 2026-07-28 is the newest released revision (SOURCE.md) and the one whose
// shapes say the most: any JSON value as structuredContent, caching hints,
// resultType, multi round-trip requests (changelog). Its clients and draft's
// need no conversion; the handshake revisions are converted by the shims, whose
// shortcut keeps a typical call at one generated check per direction
// (ARCHITECTURE.md, "Why the handler revision is 2026-07-28").
import type { MessageTables } from "../messages.js";
import { messageTables } from "../../generated/2026-07-28/tables.js";

/** The handler revision's generated tables, looked up by name at run time. */
export const handlerTables: MessageTables = messageTables;
export { revision as handlerRevision } from "../../generated/2026-07-28/revision.js";
export type {
  Annotations,
  BlobResourceContents,
  CallToolRequestParams,
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  DiscoverResult,
  ElicitRequestParams,
  ElicitResult,
  GetPromptRequestParams,
  GetPromptResult,
  Icon,
  Implementation,
  InputRequest,
  InputRequiredResult,
  ListRootsResult,
  LoggingLevel,
  ProgressToken,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceRequestParams,
  ReadResourceResult,
  RequestId,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  SubscriptionFilter,
  TextResourceContents,
  Tool,
  ToolAnnotations,
} from "../../generated/2026-07-28/types.js";
export {
  HEADER_MISMATCH,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  PARSE_ERROR,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "../../generated/2026-07-28/types.js";
