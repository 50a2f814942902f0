// A fixed corpus of realistic MCP 2025-11-25 messages for bench/validate.ts:
// what a server receives (requests, notifications) and a client receives
// (results, errors), valid and invalid.

export interface BenchMessage {
  name: string;
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

// 2 KiB of deterministic bytes, base64-encoded, as a small image would be.
const imageData = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 31 + 7) % 256)).toString("base64");

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
];

export const corpus: BenchMessage[] = messages.map((m) => ({
  name: m.name,
  text: JSON.stringify(m.value),
  valid: m.valid,
  ...(m.requestMethod ? { requestMethod: m.requestMethod } : {}),
}));
