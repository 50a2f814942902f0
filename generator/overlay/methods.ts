// The reviewed method overlay: what the method model needs and schema.ts does
// not say. Everything else about a method is derived from the schema (see
// generator/model/methods.ts). Each entry cites the prose it follows, as
// `<docs path>#<section>` under ../shared/mcp-spec/docs/<revision>/.
//
// Entries apply to the pinned revisions in their `since`..`until` range
// (inclusive, both optional). For every revision in spec/revisions.json an entry
// that applies must name methods, types and capabilities that revision has, and
// a result entry must fill a gap the schema leaves; the model builder reports a
// violation as an error, so this file cannot drift from the schema unnoticed.
// A revision not in the lock is never placed in a range by its name: it gets the
// entries whose method, types and capability its schema has, in the era of the
// pinned revisions the entry was written for (generator/model/overlay.ts); what
// that leaves unsettled is a warning naming the entry (E_OVERLAY_GUESS), since a
// new spec release must generate without a code change.
import type { MethodOverlay } from "../model/overlay.js";

export const methodOverlay: MethodOverlay = {
  // Requests whose result the schema names neither by @category nor by the
  // XRequest → XResult convention: each returns the empty result.
  results: [
    {
      method: "logging/setLevel",
      result: "EmptyResult",
      until: "2025-11-25",
      cite: "server/utilities/logging#setting-log-level",
    },
    {
      method: "ping",
      result: "EmptyResult",
      until: "2025-11-25",
      cite: "basic/utilities/ping#behavior-requirements (an empty response)",
    },
    {
      method: "resources/subscribe",
      result: "EmptyResult",
      until: "2025-11-25",
      cite: "server/resources#subscriptions",
    },
    {
      method: "resources/unsubscribe",
      result: "EmptyResult",
      until: "2025-11-25",
      cite: "server/resources#subscriptions",
    },
  ],

  // Results the prose adds to a request's own, which no schema union lists.
  alternativeResults: [
    {
      method: "tools/call",
      types: ["CreateTaskResult"],
      since: "2025-11-25",
      until: "2025-11-25",
      cite: "basic/utilities/tasks#result-retrieval (a receiver that accepts a task-augmented request MUST return a CreateTaskResult)",
    },
  ],

  // The capability a party must have declared before a method may be used.
  // `holder` is who declares it; "receiver" is for requests both sides send
  // (2025-11-25 tasks), where the receiving side must have declared it.
  capabilities: [
    {
      method: "completion/complete",
      holder: "server",
      path: "completions",
      since: "2025-03-26",
      cite: "server/utilities/completion#capabilities",
    },
    {
      method: "elicitation/create",
      holder: "client",
      path: "elicitation",
      since: "2025-06-18",
      cite: "client/elicitation#capabilities",
    },
    {
      method: "logging/setLevel",
      holder: "server",
      path: "logging",
      until: "2025-11-25",
      cite: "server/utilities/logging#capabilities",
    },
    {
      method: "notifications/elicitation/complete",
      holder: "client",
      path: "elicitation.url",
      since: "2025-11-25",
      until: "2025-11-25",
      cite: "client/elicitation#completion-notifications-for-url-mode-elicitation (URL mode only)",
    },
    {
      method: "notifications/message",
      holder: "server",
      path: "logging",
      cite: "server/utilities/logging#capabilities",
    },
    {
      method: "notifications/prompts/list_changed",
      holder: "server",
      path: "prompts.listChanged",
      cite: "server/prompts#capabilities",
    },
    {
      method: "notifications/resources/list_changed",
      holder: "server",
      path: "resources.listChanged",
      cite: "server/resources#capabilities",
    },
    {
      method: "notifications/resources/updated",
      holder: "server",
      path: "resources.subscribe",
      cite: "server/resources#capabilities",
    },
    {
      method: "notifications/roots/list_changed",
      holder: "client",
      path: "roots.listChanged",
      until: "2025-11-25",
      cite: "client/roots#capabilities",
    },
    {
      method: "notifications/tools/list_changed",
      holder: "server",
      path: "tools.listChanged",
      cite: "server/tools#capabilities",
    },
    { method: "prompts/get", holder: "server", path: "prompts", cite: "server/prompts#capabilities" },
    { method: "prompts/list", holder: "server", path: "prompts", cite: "server/prompts#capabilities" },
    { method: "resources/list", holder: "server", path: "resources", cite: "server/resources#capabilities" },
    { method: "resources/read", holder: "server", path: "resources", cite: "server/resources#capabilities" },
    {
      method: "resources/subscribe",
      holder: "server",
      path: "resources.subscribe",
      until: "2025-11-25",
      cite: "server/resources#capabilities",
    },
    { method: "resources/templates/list", holder: "server", path: "resources", cite: "server/resources#capabilities" },
    {
      method: "resources/unsubscribe",
      holder: "server",
      path: "resources.subscribe",
      until: "2025-11-25",
      cite: "server/resources#capabilities",
    },
    { method: "roots/list", holder: "client", path: "roots", cite: "client/roots#capabilities" },
    { method: "sampling/createMessage", holder: "client", path: "sampling", cite: "client/sampling#capabilities" },
    {
      method: "tasks/cancel",
      holder: "receiver",
      path: "tasks.cancel",
      since: "2025-11-25",
      until: "2025-11-25",
      cite: "basic/utilities/tasks#capabilities",
    },
    {
      method: "tasks/get",
      holder: "receiver",
      path: "tasks",
      since: "2025-11-25",
      until: "2025-11-25",
      cite: "basic/utilities/tasks#capabilities",
    },
    {
      method: "tasks/list",
      holder: "receiver",
      path: "tasks.list",
      since: "2025-11-25",
      until: "2025-11-25",
      cite: "basic/utilities/tasks#capabilities",
    },
    {
      method: "tasks/result",
      holder: "receiver",
      path: "tasks",
      since: "2025-11-25",
      until: "2025-11-25",
      cite: "basic/utilities/tasks#capabilities",
    },
    { method: "tools/call", holder: "server", path: "tools", cite: "server/tools#capabilities" },
    { method: "tools/list", holder: "server", path: "tools", cite: "server/tools#capabilities" },
  ],

  // How a session is set up, and where server-to-client requests travel.
  revisions: [
    {
      until: "2025-11-25",
      lifecycle: "initialize",
      // "The client SHOULD NOT send requests other than pings before the server
      // has responded to the initialize request. The server SHOULD NOT send
      // requests other than pings and logging before receiving the initialized
      // notification."
      beforeInitialized: { client: ["ping"], server: ["notifications/message", "ping"] },
      // server/resources#error-handling: "Resource not found: -32002".
      errorCodes: { resourceNotFound: -32002 },
      cite: "basic/lifecycle#initialization; server/resources#error-handling",
    },
    {
      since: "2026-07-28",
      lifecycle: "per-request",
      // sampling/createMessage, elicitation/create and roots/list are no longer
      // sent to the client; they ride in InputRequiredResult.inputRequests and
      // come back in the retried request's inputResponses.
      inputRequests: "InputRequest",
      // changelog#minor-changes 6: "Change resource not found error code from -32002 to -32602".
      errorCodes: { resourceNotFound: -32602 },
      cite: "changelog#major-changes (2: no initialize handshake; 7: multi round-trip requests); server/resources#error-handling",
    },
  ],
};
