// A fixed corpus of realistic MCP 2025-11-25 messages for bench/validate.ts:
// what a server receives (requests, notifications) and a client receives
// (results, errors), valid and invalid.

export interface BenchMessage {
  name: string;
  /** The revision whose validators judge it. */
  revision: string;
  /** The message as it arrives on the wire. */
  text: string;
  valid: boolean;
  /** For a response: the method of the request it answers. */
  requestMethod?: string;
}

const tool = (i: number) => ({
  name: `tool_${i}`,
  title: `Tool number ${i}`,
  description: `Does the ${i}th thing: reads the input, looks things up and returns a short textual answer with sources.`,
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "What to look for" },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      verbose: { type: "boolean" },
    },
    required: ["query"],
  },
  annotations: { title: `Tool ${i}`, readOnlyHint: true, openWorldHint: false },
});

/** Deterministic bytes, base64-encoded, as an image or a file would be. */
const base64Of = (bytes: number, seed = 7) =>
  Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 31 + seed) % 256)).toString("base64");
const imageData = base64Of(2048);
const bigImageData = base64Of(4096, 11); // 5.5 KB of base64
const blobData = base64Of(16384, 3); // a 16 KiB file, 21.8 KB of base64

/** structuredContent as a search or a database tool returns it: records with nested lists, 6 levels deep. */
const deepStructured = {
  query: "open incidents",
  total: 24,
  pages: { current: 1, size: 24, next: "cursor-2" },
  results: Array.from({ length: 24 }, (_, i) => ({
    id: `INC-${1000 + i}`,
    title: `Incident ${i}: elevated error rate on the checkout service`,
    severity: ["low", "medium", "high"][i % 3],
    tags: ["checkout", "errors", `region-${i % 4}`],
    owner: {
      team: "payments",
      oncall: { name: `Engineer ${i}`, contact: { email: `eng${i}@example.com`, pager: i % 2 === 0 } },
    },
    timeline: Array.from({ length: 3 }, (_, j) => ({
      at: `2026-11-2${j}T10:0${j}:00Z`,
      event: ["opened", "acknowledged", "mitigated"][j],
      by: { name: `Engineer ${i}` },
    })),
    metrics: { errorRate: 0.02 + i / 1000, p99Ms: 850 + i * 3, samples: [1, 2, 3, 5, 8, 13] },
  })),
};

const messages: { name: string; value: unknown; valid: boolean; requestMethod?: string }[] = [
  {
    name: "initialize request",
    valid: true,
    value: {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } },
        clientInfo: { name: "bench-client", title: "Bench client", version: "1.2.3" },
      },
    },
  },
  {
    name: "initialize result",
    valid: true,
    requestMethod: "initialize",
    value: {
      jsonrpc: "2.0",
      id: 0,
      result: {
        protocolVersion: "2025-11-25",
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, logging: {} },
        serverInfo: { name: "bench-server", version: "0.1.0" },
        instructions: "Use the tools to look things up.",
      },
    },
  },
  { name: "tools/list request", valid: true, value: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } },
  {
    name: "tools/list result (20 tools)",
    valid: true,
    requestMethod: "tools/list",
    value: { jsonrpc: "2.0", id: 1, result: { tools: Array.from({ length: 20 }, (_, i) => tool(i)) } },
  },
  {
    name: "tools/call request",
    valid: true,
    value: {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "tool_3", arguments: { query: "weather in Paris", limit: 5 }, _meta: { progressToken: "p-2" } },
    },
  },
  {
    name: "CallToolResult (text + image + structured)",
    valid: true,
    requestMethod: "tools/call",
    value: {
      jsonrpc: "2.0",
      id: 2,
      result: {
        content: [
          { type: "text", text: "Paris: 18°C, light rain, wind 12 km/h from the south-west." },
          { type: "image", data: imageData, mimeType: "image/png", annotations: { audience: ["user"], priority: 0.5 } },
        ],
        structuredContent: { city: "Paris", temperatureC: 18, conditions: "light rain", windKmh: 12 },
        isError: false,
      },
    },
  },
  {
    name: "tools/list result (100 tools)",
    valid: true,
    requestMethod: "tools/list",
    value: { jsonrpc: "2.0", id: 11, result: { tools: Array.from({ length: 100 }, (_, i) => tool(i)) } },
  },
  {
    name: "CallToolResult (4 KiB image + audio)",
    valid: true,
    requestMethod: "tools/call",
    value: {
      jsonrpc: "2.0",
      id: 12,
      result: {
        content: [
          { type: "text", text: "The chart and the recording you asked for." },
          { type: "image", data: bigImageData, mimeType: "image/png" },
          { type: "audio", data: imageData, mimeType: "audio/wav" },
        ],
      },
    },
  },
  {
    name: "CallToolResult (deep structuredContent + its text)",
    valid: true,
    requestMethod: "tools/call",
    value: {
      jsonrpc: "2.0",
      id: 13,
      result: {
        content: [{ type: "text", text: JSON.stringify(deepStructured) }],
        structuredContent: deepStructured,
      },
    },
  },
  {
    name: "resources/read result (16 KiB blob)",
    valid: true,
    requestMethod: "resources/read",
    value: {
      jsonrpc: "2.0",
      id: 14,
      result: { contents: [{ uri: "file:///project/logo.png", mimeType: "image/png", blob: blobData }] },
    },
  },
  {
    name: "sampling/createMessage request",
    valid: true,
    value: {
      jsonrpc: "2.0",
      id: 15,
      method: "sampling/createMessage",
      params: {
        messages: [
          { role: "user", content: { type: "text", text: "Summarize the incident list in three sentences." } },
          { role: "assistant", content: { type: "text", text: "Here is a summary of the incidents so far." } },
          { role: "user", content: { type: "image", data: imageData, mimeType: "image/png" } },
        ],
        systemPrompt: "You are a concise assistant.",
        maxTokens: 400,
        modelPreferences: { hints: [{ name: "claude" }], intelligencePriority: 0.8, speedPriority: 0.3 },
      },
    },
  },
  {
    name: "resources/read request",
    valid: true,
    value: { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "file:///project/README.md" } },
  },
  {
    name: "resources/read result",
    valid: true,
    requestMethod: "resources/read",
    value: {
      jsonrpc: "2.0",
      id: 3,
      result: {
        contents: [
          {
            uri: "file:///project/README.md",
            mimeType: "text/markdown",
            text: "# Project\n\nA short readme.\n".repeat(8),
          },
        ],
      },
    },
  },
  {
    name: "progress notification",
    valid: true,
    value: {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "p-2", progress: 40, total: 100, message: "Looking up" },
    },
  },
  {
    name: "error response",
    valid: true,
    requestMethod: "tools/call",
    value: { jsonrpc: "2.0", id: 4, error: { code: -32602, message: "Unknown tool: nope" } },
  },
  // Invalid messages.
  {
    name: "tools/call without a name",
    valid: false,
    value: { jsonrpc: "2.0", id: 5, method: "tools/call", params: { arguments: {} } },
  },
  { name: "request with a null id", valid: false, value: { jsonrpc: "2.0", id: null, method: "tools/list" } },
  {
    name: "initialize without protocolVersion",
    valid: false,
    value: {
      jsonrpc: "2.0",
      id: 6,
      method: "initialize",
      params: { capabilities: {}, clientInfo: { name: "c", version: "1" } },
    },
  },
  {
    name: "progress notification with a string progress",
    valid: false,
    value: { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: "half" } },
  },
  {
    name: "CallToolResult with an unknown content type",
    valid: false,
    requestMethod: "tools/call",
    value: { jsonrpc: "2.0", id: 7, result: { content: [{ type: "video", url: "https://example.com/v.mp4" }] } },
  },
  {
    name: "tools/list result, tool 10 without inputSchema",
    valid: false,
    requestMethod: "tools/list",
    value: {
      jsonrpc: "2.0",
      id: 8,
      result: {
        tools: Array.from({ length: 20 }, (_, i) => (i === 10 ? { ...tool(i), inputSchema: undefined } : tool(i))),
      },
    },
  },
  { name: "jsonrpc 1.0", valid: false, value: { jsonrpc: "1.0", id: 9, method: "tools/list" } },
  { name: "method that is a number", valid: false, value: { jsonrpc: "2.0", id: 10, method: 42 } },
  {
    name: "tools/call with params that are an array",
    valid: false,
    value: { jsonrpc: "2.0", id: 16, method: "tools/call", params: ["tool_1", {}] },
  },
  {
    name: "error response with a string code",
    valid: false,
    requestMethod: "tools/call",
    value: { jsonrpc: "2.0", id: 17, error: { code: "-32602", message: "Unknown tool" } },
  },
  {
    name: "CallToolResult, 4 KiB image whose base64 breaks at its end",
    valid: false,
    requestMethod: "tools/call",
    value: {
      jsonrpc: "2.0",
      id: 18,
      result: { content: [{ type: "image", data: `${bigImageData.slice(0, -4)}ab!=`, mimeType: "image/png" }] },
    },
  },
  {
    name: "tools/list result (100 tools), the last with a string inputSchema",
    valid: false,
    requestMethod: "tools/list",
    value: {
      jsonrpc: "2.0",
      id: 19,
      result: {
        tools: Array.from({ length: 100 }, (_, i) => (i === 99 ? { ...tool(i), inputSchema: "object" } : tool(i))),
      },
    },
  },
  {
    name: "CallToolResult, deep structuredContent that is an array",
    valid: false,
    requestMethod: "tools/call",
    value: {
      jsonrpc: "2.0",
      id: 20,
      result: { content: [{ type: "text", text: "24 incidents" }], structuredContent: deepStructured.results },
    },
  },
];

export const corpus: BenchMessage[] = messages.map((m) => ({
  name: m.name,
  revision: "2025-11-25",
  text: JSON.stringify(m.value),
  valid: m.valid,
  ...(m.requestMethod ? { requestMethod: m.requestMethod } : {}),
}));
