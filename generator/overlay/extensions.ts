// Reviewed facts about extensions that their schemas cannot say, each citing
// the extension's prose. An extension's schema has no ClientRequest /
// ServerRequest unions: who sends each of its methods is stated here. An
// extension missing from this file still generates; its methods are then left
// out of its method table with a warning (an error for a pinned extension).
import type { ExtensionOverlay } from "../model/extension.js";

export const extensionOverlay: ExtensionOverlay = {
  tasks: {
    cite: "spec/ext/tasks/specification/draft/tasks.md#task-operations, #task-notifications",
    senders: {
      "tasks/get": "client",
      "tasks/update": "client",
      "tasks/cancel": "client",
      "notifications/tasks": "server",
    },
    // tasks.md#supported-methods: "tools/call" may answer CreateTaskResult (#polymorphic-results).
    augments: { "tools/call": ["CreateTaskResult"] },
    // tasks.md#streamable-http-routing-headers: Mcp-Name carries params.taskId.
    nameHeaders: { "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" },
    // tasks.md#task-update-requests: "A server SHOULD ignore any inputResponses responses mapped to a key
    // that is not currently outstanding"; the entries it uses are checked against the request asked.
    selfChecked: { "tasks/update": ["inputResponses"] },
  },
  skills: {
    cite: "spec/ext/skills/skills.mdx#listing-skills, #getting-a-skill, #reading-directories",
    senders: { "skills/list": "client", "skills/get": "client", "resources/directory/read": "client" },
  },
};
