// The one revision server handlers are written against. Every other revision a
// client negotiates is converted to and from it by the generated shims, so
// feature code never branches on the wire revision.
//
// 2025-11-25 is the newest revision with the initialize handshake, the
// lifecycle this server runtime speaks (basic/lifecycle). 2026-07-28 drops the
// handshake for per-request metadata (changelog, major change 2); serving it is
// a separate transport concern, after which the pin can move.
import type { MessageTables } from "../index.js";
import { messageTables } from "../../generated/2025-11-25/validators.js";

/** The handler revision's generated tables, looked up by name at run time. */
export const handlerTables: MessageTables = messageTables;
export { revision as handlerRevision } from "../../generated/2025-11-25/revision.js";
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
  ElicitRequestParams,
  ElicitResult,
  GetPromptRequestParams,
  GetPromptResult,
  Icon,
  Implementation,
  InitializeRequestParams,
  InitializeResult,
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
  TextResourceContents,
  Tool,
  ToolAnnotations,
} from "../../generated/2025-11-25/types.js";
export {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
} from "../../generated/2025-11-25/types.js";
