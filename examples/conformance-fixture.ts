// The server the official conformance suite (@modelcontextprotocol/conformance)
// tests: every tool, resource and prompt its server scenarios call, built on
// the public API only, with no transport and no node: import, so that each
// launcher serves the same fixture: conformance-server.ts (Node, serveHttp),
// fetch-server.ts (Bun, Deno), conformance-worker.ts and
// conformance-durable-object.ts (Cloudflare Workers).
import { McpServer } from "mcpgen/server";
import {
  addPerRequestTools,
  addTaskTools,
  elicitation,
  isAnswer,
  type ElicitAnswer,
} from "./conformance-input-tools.js";

// A 1x1 red PNG and a WAV header with no samples: the smallest valid media.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The conformance fixture: every feature the scenarios call. The skills the
 * io.modelcontextprotocol/skills scenarios read are a directory
 * (examples/conformance-skills/), served when `skillsRoot` names it; a
 * launcher with a file system finds it (conformance-skills-root.ts).
 */
export async function buildConformanceServer(options: { skillsRoot?: string } = {}): Promise<McpServer> {
  const server = buildFixture();
  if (options.skillsRoot !== undefined) await server.skills(options.skillsRoot);
  return server;
}

function buildFixture(): McpServer {
  const server = new McpServer({ name: "mcpgen-conformance", version: "1.0.0" }, { capabilities: { completions: {} } });

  server.tool(
    "test_simple_text",
    { description: "Returns simple text" },
    () => "This is a simple text response for testing.",
  );
  server.tool("test_image_content", { description: "Returns an image" }, () => ({
    content: [{ type: "image", data: PNG, mimeType: "image/png" }],
  }));
  server.tool("test_audio_content", { description: "Returns audio" }, () => ({
    content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }],
  }));
  server.tool("test_embedded_resource", { description: "Returns an embedded resource" }, () => ({
    content: [
      {
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        },
      },
    ],
  }));
  server.tool("test_multiple_content_types", { description: "Returns text, an image and a resource" }, () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        },
      },
    ],
  }));
  server.tool(
    "test_tool_with_logging",
    { description: "Logs three messages while it runs" },
    async (_args, context) => {
      context.log("info", "Tool execution started");
      await sleep(50);
      context.log("info", "Tool processing data");
      await sleep(50);
      context.log("info", "Tool execution completed");
      return "Tool with logging executed successfully";
    },
  );
  server.tool(
    "test_tool_with_progress",
    { description: "Reports progress 0, 50, 100 of 100" },
    async (_args, context) => {
      context.progress(0, 100);
      await sleep(50);
      context.progress(50, 100);
      await sleep(50);
      context.progress(100, 100);
      return "Tool with progress executed successfully";
    },
  );
  server.tool("test_error_handling", { description: "Always fails" }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });
  server.tool(
    "test_sampling",
    {
      description: "Asks the client's model",
      inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
    },
    async ({ prompt }, context) => {
      const answer = await context.sample({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      const block = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      return `LLM response: ${block?.type === "text" ? block.text : JSON.stringify(block)}`;
    },
  );
  server.tool(
    "test_elicitation",
    {
      description: "Asks the user",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    },
    async ({ message }, context) => {
      const answer = await context.elicit({
        message,
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  );
  server.tool(
    "test_elicitation_sep1034_defaults",
    { description: "Asks the user, with a default for every primitive type (SEP-1034)" },
    async (_args, context) => {
      const answer = await context.elicit({
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: {
              type: "string",
              description: "User status",
              enum: ["active", "inactive", "pending"],
              default: "active",
            },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  );
  server.tool(
    "test_elicitation_sep1330_enums",
    { description: "Asks the user with the five enum schema forms (SEP-1330)" },
    async (_args, context) => {
      const answer = await context.elicit({
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
            titledMulti: {
              type: "array",
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  );
  server.tool(
    "json_schema_2020_12_tool",
    {
      description: "Tool with JSON Schema 2020-12 features",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: {
          address: {
            $anchor: "addressDef",
            type: "object",
            properties: { street: { type: "string" }, city: { type: "string" } },
          },
        },
        properties: {
          name: { type: "string" },
          address: { $ref: "#/$defs/address" },
          contactMethod: { type: "string", enum: ["phone", "email"] },
          phone: { type: "string" },
          email: { type: "string" },
        },
        allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
        if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
        then: { required: ["phone"] },
        else: { required: ["email"] },
        additionalProperties: false,
      },
    },
    (args) => `Received: ${JSON.stringify(args)}`,
  );
  server.tool(
    "test_reconnection",
    { description: "Closes its SSE stream mid-call; the client resumes it with Last-Event-ID (SEP-1699)" },
    async (_args, context) => {
      context.closeStream(500);
      await sleep(100);
      return "Reconnection test completed successfully";
    },
  );

  addPerRequestTools(server);
  addTaskTools(server);

  server.resource(
    "test://static-text",
    { name: "static-text", description: "A static text resource", mimeType: "text/plain" },
    () => "This is the content of the static text resource.",
  );
  server.resource(
    "test://static-binary",
    { name: "static-binary", description: "A static binary resource (a PNG)", mimeType: "image/png" },
    (uri) => ({ contents: [{ uri, mimeType: "image/png", blob: PNG }] }),
  );
  server.resource(
    "test://watched-resource",
    { name: "watched-resource", description: "A resource clients can subscribe to", mimeType: "text/plain" },
    () => "Watched resource content",
  );
  server.resourceTemplate(
    "test://template/{id}/data",
    { name: "template-data", description: "Data for an id", mimeType: "application/json" },
    (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
  );

  server.prompt(
    "test_simple_prompt",
    { description: "A prompt without arguments" },
    () => "This is a simple prompt for testing.",
  );
  server.prompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
      complete: { arg1: (prefix) => ["paris", "park", "party"].filter((value) => value.startsWith(prefix)) },
    },
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  );
  server.prompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt embedding a resource",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
  );
  // 2026-07-28 basic/patterns/mrtr: InputRequiredResult on prompts/get, explicit style.
  server.prompt(
    "test_input_required_result_prompt",
    { description: "Asks the user for context before it builds the prompt" },
    (_args, context) => {
      const answer = context.inputResponses["user_context"] as ElicitAnswer | undefined;
      if (!isAnswer(answer))
        return context.inputRequired({
          user_context: elicitation("What context should the prompt use?", { context: { type: "string" } }),
        });
      return `Prompt with context: ${String(answer.content?.["context"] ?? "")}`;
    },
  );
  server.prompt("test_prompt_with_image", { description: "A prompt with an image" }, () => ({
    messages: [
      { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }));
  return server;
}
