// The conformance fixture's tools whose answer takes more than one exchange:
// multi round-trip requests (2026-07-28 basic/patterns/mrtr) and tasks
// (the io.modelcontextprotocol/tasks extension and 2025-11-25's core tasks).
import { MissingClientCapabilityError, ProtocolError, type McpServer, type RequestContext } from "mcpgen/server";

/** Waits `ms`, or rejects when the request (or its task) is cancelled. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new Error(String(signal.reason)));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error(String(signal.reason)))), {
      once: true,
    });
  });

export interface ElicitAnswer {
  action?: string;
  content?: Record<string, unknown>;
}

export function isAnswer(value: unknown): value is ElicitAnswer {
  return typeof value === "object" && value !== null && "action" in value;
}

export function elicitation(message: string, properties: Record<string, { type: "string" | "boolean" }>) {
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
export function addPerRequestTools(server: McpServer): void {
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
export function addTaskTools(server: McpServer): void {
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
