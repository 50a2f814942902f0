// The reviewed shim overlay: what converting messages between revisions needs
// and the diff cannot decide. generator/shims/plan.ts consults it for every
// diff entry no generic rule covers; test/shims/ fails on an entry no pinned
// revision consults, so the overlay cannot go stale. Each entry cites the
// prose it follows, as `<revision>/<docs path>#<section>`, and names the pinned
// revisions whose steps it was written for (`between`, older first): it applies
// to steps between pinned revisions that include one of those, and to a step
// with a revision the lock does not pin only on a reported guess.
//
// Rules named here are implemented in runtime/shim-rules.ts.
import type { ShimOverlay } from "../shims/plan.js";

export const shimOverlay: ShimOverlay = {
  // Fields a target requires that a source value may lack, by "Owner.field" in the target.
  defaults: [
    {
      field: "CacheableResult.ttlMs",
      value: { value: 0 },
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/server/utilities/caching#time-to-live-ttl-field (absent: clients SHOULD assume 0, immediately stale)",
    },
    {
      field: "CacheableResult.cacheScope",
      value: { value: "private" },
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/server/utilities/caching#cache-scope-field (private: no shared cache serves one caller's result to another)",
    },
    {
      field: "Result.resultType",
      value: { value: "complete" },
      between: ["2025-11-25", "2026-07-28"],
      cite: '2026-07-28/basic/index#resulttype (a result without resultType is treated as "complete")',
    },
    {
      field: "RequestMetaObject.io.modelcontextprotocol/protocolVersion",
      value: { context: "protocolVersion" },
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/basic/index#meta (every request states the protocol version it speaks: the target's)",
    },
    {
      field: "RequestMetaObject.io.modelcontextprotocol/clientCapabilities",
      value: { value: {} },
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/basic/index#meta (an empty object declares no optional capabilities; a runtime that knows the session's sets them)",
    },
    {
      field: "CancelledNotificationParams.requestId",
      value: {
        refuse: "a cancellation without requestId (which 2025-11-25 allows for tasks) names no request to cancel",
      },
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/basic/patterns/cancellation",
    },
    {
      field: "CancelledNotification.params.requestId",
      value: {
        refuse: "a cancellation without requestId (which 2025-11-25 allows for tasks) names no request to cancel",
      },
      between: ["2025-06-18", "2025-11-25"],
      cite: "2025-06-18/basic/utilities/cancellation",
    },
    {
      field: "ElicitRequestURLParams.elicitationId",
      value: {
        refuse: "2026-07-28 URL elicitations carry no elicitationId, which 2025-11-25 requires to correlate completion",
      },
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/changelog#minor-changes (11: elicitationId removed)",
    },
  ],

  // Union members and literals some target lacks.
  members: [
    {
      member: "AudioContent",
      rule: { rule: "contentAsText" },
      between: ["2024-11-05", "2025-03-26"],
      cite: "2025-03-26/changelog (audio content is new in 2025-03-26)",
    },
    {
      member: "ResourceLink",
      rule: { rule: "contentAsText" },
      between: ["2025-03-26", "2025-06-18"],
      cite: "2025-06-18/server/tools#resource-links (new in 2025-06-18)",
    },
    {
      member: "ToolUseContent",
      rule: { refuse: "tool use in sampling is new in 2025-11-25" },
      between: ["2025-06-18", "2025-11-25"],
      cite: "2025-11-25/client/sampling#tools-in-sampling",
    },
    {
      member: "ToolResultContent",
      rule: { refuse: "tool results in sampling are new in 2025-11-25" },
      between: ["2025-06-18", "2025-11-25"],
      cite: "2025-11-25/client/sampling#tools-in-sampling",
    },
    {
      member: "InputRequiredResult",
      rule: {
        refuse:
          "a multi round-trip interim result (InputRequiredResult) is new in 2026-07-28; earlier revisions send requests to the client instead",
      },
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/basic/patterns/mrtr",
    },
    {
      member: "CreateTaskResult",
      rule: {
        refuse:
          "a 2025-11-25 task's creation result exists only where the client asked for the task; each revision answers tasks in its own flavour, never converted",
      },
      between: ["2025-06-18", "2026-07-28"],
      cite: "2025-11-25/basic/utilities/tasks#result-retrieval",
    },
    {
      member: "SamplingMessageContentBlock[]",
      rule: { rule: "singleContentBlock" },
      between: ["2025-06-18", "2025-11-25"],
      cite: "2025-11-25/client/sampling (a message with several content blocks is new in 2025-11-25)",
    },
  ],

  // Types that narrow on the way to a target, by field key in the target.
  narrowing: [
    {
      field: "ElicitRequest.params",
      rule: { refuse: "URL mode elicitation is new in 2025-11-25" },
      between: ["2025-06-18", "2025-11-25"],
      cite: "2025-11-25/client/elicitation#url-mode-elicitation-requests",
    },
    {
      field: "ElicitResult.content[key]",
      rule: { refuse: "a multi-select answer (string[]) is new in 2025-11-25" },
      between: ["2025-06-18", "2025-11-25"],
      cite: "2025-11-25/client/elicitation#supported-schema-types",
    },
    {
      field: "CallToolResult.structuredContent",
      rule: {
        refuse:
          "structured content that is not an object is new in 2026-07-28 (the structuredContentAsText hook moves it into a text block first)",
      },
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/changelog#minor-changes (10: structuredContent may be any JSON value)",
    },
    {
      field: "ToolResultContent.structuredContent",
      rule: {
        refuse:
          "structured content that is not an object is new in 2026-07-28 (the structuredContentAsText hook moves it into a text block first)",
      },
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/changelog#minor-changes (10: structuredContent may be any JSON value)",
    },
  ],

  // Semantic rules on every value of a type (the rule decides whether it applies).
  hooks: [
    {
      type: "CallToolResult",
      rule: "structuredContentAsText",
      cite: "2025-06-18/server/tools#structured-content (SHOULD also return the serialized JSON in a TextContent block)",
    },
    { type: "ToolResultContent", rule: "structuredContentAsText", cite: "2025-06-18/server/tools#structured-content" },
  ],

  // Error codes that changed meaning.
  errorCodes: [
    {
      method: "resources/read",
      code: -32002,
      becomes: -32602,
      between: ["2025-11-25", "2026-07-28"],
      cite: "2026-07-28/server/resources#error-handling (resource not found is -32602; -32002 before)",
    },
  ],
};
