// The server the official conformance suite (@modelcontextprotocol/conformance)
// tests: every tool, resource and prompt its server scenarios call, built on
// the public API only, served over Streamable HTTP on loopback, to clients of
// both eras (initialize sessions and 2026-07-28 per-request POSTs) at once.
//
//   npm run conformance:server -- --port 3001      (then: conformance server --url http://127.0.0.1:3001/mcp)
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { McpServer, MissingClientCapabilityError, ProtocolError, type RequestContext } from "mcpgen/server";
import { serveHttp } from "mcpgen/http";

// A 1x1 red PNG and a WAV header with no samples: the smallest valid media.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms`, or rejects when the request (or its task) is cancelled. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new Error(String(signal.reason)));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error(String(signal.reason)))), {
      once: true,
    });
  });

/** The skills the io.modelcontextprotocol/skills scenarios read (examples/conformance-skills/), from source or dist. */
const SKILLS_DIR = ["./conformance-skills/", "../../examples/conformance-skills/"]
  .map((path) => fileURLToPath(new URL(path, import.meta.url)))
  .find((path) => existsSync(path));

/** The conformance fixture: every feature the scenarios call, skills included. */
export async function buildConformanceServer(): Promise<McpServer> {
  const server = buildFixture();
  if (!SKILLS_DIR) throw new Error("conformance fixture: examples/conformance-skills/ not found");
  await server.skills(SKILLS_DIR);
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

interface ElicitAnswer {
  action?: string;
  content?: Record<string, unknown>;
}

function isAnswer(value: unknown): value is ElicitAnswer {
  return typeof value === "object" && value !== null && "action" in value;
}

function elicitation(message: string, properties: Record<string, { type: "string" | "boolean" }>) {
  return {
    method: "elicitation/create",
    params: {
      mode: "form",
      message,
      requestedSchema: { type: "object", properties, required: Object.keys(properties) },
    },
  };
}

const sampling = (text: string, maxTokens: number) => ({
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text } }], maxTokens },
});

const sampledText = (value: unknown) => {
  const content = (value as { content?: { type?: string; text?: string } } | undefined)?.content;
  return content?.type === "text" ? content.text : undefined;
};

/**
 * The tools the 2026-07-28 scenarios call: multi round-trip requests in the
 * explicit style (the suite names the input request keys), capability and
 * logging rules, change notifications to subscriptions/listen, x-mcp-header.
 * They work on handshake revisions too: there the runtime sends the input
 * requests to the client itself.
 */
function addPerRequestTools(server: McpServer): void {
  server.tool(
    "test_missing_capability",
    { description: "Needs the client's sampling capability" },
    (_args, context) => {
      // basic/index#meta: a capability the request did not declare is -32021.
      if (!context.clientCapabilities?.sampling) throw new MissingClientCapabilityError({ sampling: {} });
      return "Success";
    },
  );
  server.tool(
    "test_streaming_elicitation",
    { description: "Answers at once, sending no request on its stream" },
    () => "Streaming complete",
  );
  server.tool("test_logging_tool", { description: "Logs at every level the client asked for" }, (_args, context) => {
    context.log("debug", "debug message from test_logging_tool");
    context.log("info", "info message from test_logging_tool");
    context.log("error", "error message from test_logging_tool");
    return "Logging evaluated";
  });
  server.tool("test_trigger_tool_change", { description: "Tells subscribers the tool list changed" }, () => {
    server.sendListChanged("tools");
    return "Tool change notification sent";
  });
  server.tool("test_trigger_prompt_change", { description: "Tells subscribers the prompt list changed" }, () => {
    server.sendListChanged("prompts");
    return "Prompt change notification sent";
  });
  server.tool(
    "test_custom_headers",
    {
      description: "Echoes a parameter the client mirrors into the Mcp-Param-Region header (SEP-2243)",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" } },
        required: ["region"],
      },
    },
    ({ region }) => `Region: ${region}`,
  );

  server.tool(
    "test_input_required_result_elicitation",
    { description: "Asks the user's name (input request user_name)" },
    (_args, context) => {
      const answer = context.inputResponses["user_name"];
      if (!isAnswer(answer))
        return context.inputRequired({ user_name: elicitation("What is your name?", { name: { type: "string" } }) });
      return `Hello, ${String(answer.content?.["name"] ?? "friend")}!`;
    },
  );
  server.tool(
    "test_input_required_result_sampling",
    { description: "Asks the client's model (input request sample_request)" },
    (_args, context) => {
      const answer = context.inputResponses["sample_request"];
      if (answer === undefined)
        return context.inputRequired({ sample_request: sampling("What is the capital of France?", 100) });
      return `Sampling result: ${sampledText(answer) ?? "no response"}`;
    },
  );
  server.tool(
    "test_input_required_result_list_roots",
    { description: "Asks for the client's roots (input request roots_request)" },
    (_args, context) => {
      const answer = context.inputResponses["roots_request"] as { roots?: unknown[] } | undefined;
      if (answer === undefined) return context.inputRequired({ roots_request: { method: "roots/list" } });
      return `Found ${answer.roots?.length ?? 0} root(s)`;
    },
  );
  server.tool(
    "test_input_required_result_request_state",
    { description: "Carries state between rounds in requestState" },
    (_args, context) => {
      const answer = context.inputResponses["confirm"];
      const state = context.requestState as { kind?: string } | undefined;
      if (state?.kind === "request-state" && isAnswer(answer) && answer.content?.["ok"] === true)
        return "state-ok: requestState validated";
      return context.inputRequired(
        { confirm: elicitation("Please confirm", { ok: { type: "boolean" } }) },
        { kind: "request-state" },
      );
    },
  );
  server.tool(
    "test_input_required_result_multiple_inputs",
    { description: "Asks the user, the model and the roots in one round" },
    (_args, context) => {
      const { user_name: name, greeting, client_roots: roots } = context.inputResponses;
      if (isAnswer(name) && greeting !== undefined && roots !== undefined)
        return `Name: ${String(name.content?.["name"])}; Greeting: ${sampledText(greeting) ?? "Hello there!"}; Roots: ${(roots as { roots?: unknown[] }).roots?.length ?? 0}`;
      return context.inputRequired(
        {
          user_name: elicitation("What is your name?", { name: { type: "string" } }),
          greeting: sampling("Generate a greeting", 50),
          client_roots: { method: "roots/list" },
        },
        { kind: "multiple-inputs" },
      );
    },
  );
  server.tool(
    "test_input_required_result_multi_round",
    { description: "Asks two questions, one round each" },
    (_args, context) => {
      // Answers of earlier rounds come back through the signed requestState.
      const { step1, step2 } = context.inputResponses;
      if (isAnswer(step1) && isAnswer(step2))
        return `Multi-round complete for ${String(step1.content?.["name"])} who likes ${String(step2.content?.["color"])}`;
      if (isAnswer(step1))
        return context.inputRequired(
          { step2: elicitation("Step 2: What is your favorite color?", { color: { type: "string" } }) },
          { round: 2 },
        );
      return context.inputRequired(
        { step1: elicitation("Step 1: What is your name?", { name: { type: "string" } }) },
        { round: 1 },
      );
    },
  );
  server.tool(
    "test_input_required_result_tampered_state",
    { description: "Refuses a requestState it did not sign" },
    (_args, context) => {
      const answer = context.inputResponses["confirm"];
      if (context.requestState !== undefined && isAnswer(answer)) return "State verified";
      return context.inputRequired(
        { confirm: elicitation("Please confirm", { ok: { type: "boolean" } }) },
        { kind: "tamper-check" },
      );
    },
  );
  server.tool(
    "test_input_required_result_capabilities",
    { description: "Asks only for what the client declared" },
    (_args, context) => {
      if (Object.keys(context.inputResponses).length > 0) return "Capabilities respected";
      const declared = context.clientCapabilities ?? {};
      const requests: Record<string, { method: string; params?: unknown }> = {};
      if (declared.elicitation) requests["elicit_input"] = elicitation("Elicit request", { value: { type: "string" } });
      if (declared.sampling) requests["sample_input"] = sampling("Sample request", 50);
      if (Object.keys(requests).length === 0) return "No input capability declared";
      return context.inputRequired(requests, { kind: "capabilities" });
    },
  );
}

const elicitName = (context: RequestContext, message: string) =>
  context.elicit({
    message,
    requestedSchema: {
      type: "object",
      properties: { name: { type: "string" }, confirm: { type: "boolean" } },
    },
  });

/**
 * The tools the io.modelcontextprotocol/tasks scenarios call. Each is an
 * ordinary handler; its `task` options say whether (and when) a call turns
 * into a task for a client that can take one.
 */
function addTaskTools(server: McpServer): void {
  server.tool(
    "greet",
    { description: "Greets by name", inputSchema: { type: "object", properties: { name: { type: "string" } } } },
    ({ name }) => `Hello, ${name ?? "World"}!`,
  );
  server.tool(
    "slow_compute",
    {
      description: "Computes for `seconds`; a task when the client can take one",
      inputSchema: { type: "object", properties: { seconds: { type: "number" }, label: { type: "string" } } },
      task: { support: "optional" },
    },
    async ({ seconds = 0, label = "" }, context) => {
      if (seconds > 0) await pause(seconds * 1000, context.signal);
      return `Computed ${label} in ${seconds}s`;
    },
  );
  server.tool(
    "failing_job",
    { description: "Runs only as a task, and ends in a tool error", task: { support: "required" } },
    async (_args, context) => {
      await pause(1000, context.signal);
      return { content: [{ type: "text", text: "The job failed" }], isError: true };
    },
  );
  server.tool(
    "protocol_error_job",
    { description: "Runs as a task and ends in a JSON-RPC error", task: { support: "required" } },
    async (_args, context) => {
      await pause(100, context.signal);
      throw new ProtocolError(-32603, "The job hit an internal error");
    },
  );
  server.tool(
    "confirm_delete",
    {
      description: "Looks the file up, then asks for confirmation",
      inputSchema: { type: "object", properties: { filename: { type: "string" } } },
      task: { support: "optional" },
    },
    async ({ filename = "" }, context) => {
      await pause(20, context.signal);
      const answer = await elicitName(context, `Delete ${filename}?`);
      return answer.action === "accept" && answer.content?.["confirm"] === true
        ? `Deleted ${filename}`
        : `Kept ${filename}`;
    },
  );
  server.tool(
    "multi_input",
    { description: "Asks two questions at once", task: { support: "optional" } },
    async (_args, context) => {
      await pause(20, context.signal);
      const answers = await Promise.all([elicitName(context, "First?"), elicitName(context, "Second?")]);
      return `Answers: ${answers.map((a) => String(a.content?.["name"])).join(", ")}`;
    },
  );
  server.tool(
    "test_tool_with_task",
    { description: "Asks a name on the request, then works on as a task", task: { support: "required" } },
    async (_args, context) => {
      const answer = await elicitName(context, "What is your name?");
      await pause(300, context.signal);
      return `Hello, ${String(answer.content?.["name"])}! The task is done.`;
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const portAt = process.argv.indexOf("--port");
  const port = portAt === -1 ? 3001 : Number(process.argv[portAt + 1]);
  const handle = await serveHttp(await buildConformanceServer(), { port });
  console.log(`conformance server: ${handle.url}`);
  const stop = () => void handle.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
