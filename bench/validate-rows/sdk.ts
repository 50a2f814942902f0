// The official SDK's row: what @modelcontextprotocol/sdk does on receipt:
// JSONRPCMessageSchema.parse, then the method's schema (requests,
// notifications) or result schema (responses); 2025-11-25 messages only.
import * as sdk from "@modelcontextprotocol/sdk/types.js";
import type { Row } from "./row.js";

type ZodLike = { parse(value: unknown): unknown; safeParse(value: unknown): { success: boolean } };

export function sdkRow(): Row {
  const schemas = sdk as unknown as Record<string, ZodLike>;
  /** The SDK's schema for each method's request or notification, and for each request's result. */
  const messageSchemas: Record<string, ZodLike> = {
    initialize: schemas["InitializeRequestSchema"]!,
    "tools/list": schemas["ListToolsRequestSchema"]!,
    "tools/call": schemas["CallToolRequestSchema"]!,
    "resources/read": schemas["ReadResourceRequestSchema"]!,
    "notifications/progress": schemas["ProgressNotificationSchema"]!,
    "sampling/createMessage": schemas["CreateMessageRequestSchema"]!,
  };
  const resultSchemas: Record<string, ZodLike> = {
    initialize: schemas["InitializeResultSchema"]!,
    "tools/list": schemas["ListToolsResultSchema"]!,
    "tools/call": schemas["CallToolResultSchema"]!,
    "resources/read": schemas["ReadResourceResultSchema"]!,
  };
  return {
    name: "JSON.parse + SDK (zod)",
    receive(text, m) {
      try {
        const message = schemas["JSONRPCMessageSchema"]!.parse(JSON.parse(text)) as Record<string, unknown>;
        if ("method" in message) messageSchemas[message["method"] as string]!.parse(message);
        else if ("result" in message) return resultSchemas[m.requestMethod!]!.safeParse(message["result"]).success;
        return true;
      } catch {
        return false; // the SDK throws on invalid messages
      }
    },
  };
}
