// The client the official conformance suite (@modelcontextprotocol/conformance)
// tests in its client mode, built on the public mcpgen/client API only. The
// suite starts a scenario's server, then runs this program with the server's
// URL as its last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO
// (and, for some scenarios, a JSON object in MCP_CONFORMANCE_CONTEXT).
//
//   node dist/examples/conformance-client.js http://127.0.0.1:PORT/mcp   (MCP_CONFORMANCE_SCENARIO=tools_call)
//
// The era is detected as any mcpgen client detects it (a server/discover
// probe, then the initialize handshake for a legacy server), not taken from
// MCP_CONFORMANCE_PROTOCOL_VERSION: the suite sets that to 2025-11-25 for the
// extension scenarios too, whose servers speak the 2026-07-28 revision the
// skills extension is built on. Every scenario connects and then does what
// it asks of a client; the client library does the rest (elicitation
// defaults, SSE resumption, mirrored headers, multi round-trip input, tool
// rejection, skill verification). Exit code 0 when the scenario's steps ran,
// 1 when one failed (the message on stderr), 2 for a usage error.
import {
  Client,
  SkillsClient,
  SkillVerificationError,
  StreamableHttpClientTransport,
  type ClientHandlers,
  type ClientOptions,
} from "mcpgen/client";

const scenario = process.env["MCP_CONFORMANCE_SCENARIO"] ?? "";
const url = process.argv.at(-1);

const handlers: ClientHandlers = {
  // An accepted form leaves every field as offered: the client fills in each omitted field's
  // default from requestedSchema (2025-11-25 client/elicitation#requested-schema, SEP-1034).
  elicitation: async () => ({ action: "accept", content: {} }),
  sampling: async () => ({
    role: "assistant",
    content: { type: "text", text: "This is a conformance test response." },
    model: "mcpgen-conformance",
    stopReason: "endTurn",
  }),
  roots: async () => ({ roots: [{ uri: "file:///conformance", name: "conformance" }] }),
};

/** What MCP_CONFORMANCE_CONTEXT says, when it is a JSON object. */
function context(): Record<string, unknown> {
  const text = process.env["MCP_CONFORMANCE_CONTEXT"];
  if (!text) return {};
  const value = JSON.parse(text) as unknown;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(`MCP_CONFORMANCE_CONTEXT is not a JSON object: ${text.slice(0, 200)}`);
  return value as Record<string, unknown>;
}

/** Arguments for a tool a scenario wants called without saying how: its required primitive parameters, filled in. */
function sampleArguments(inputSchema: unknown): Record<string, unknown> {
  const schema = (inputSchema ?? {}) as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const type = schema.properties?.[name]?.type;
    args[name] = type === "integer" || type === "number" ? 1 : type === "boolean" ? true : "conformance";
  }
  return args;
}

/**
 * A host using the skills a server serves: every listed skill is loaded (its
 * SKILL.md read and verified) and then every file its entry lists is read (and
 * verified). A skill that fails verification is reported and left alone.
 */
async function useSkills(client: Client): Promise<void> {
  const skills = new SkillsClient(client);
  for (const entry of await skills.list()) {
    try {
      const skill = await skills.load(entry);
      const files = skill.files === "dynamic" ? [] : skill.files;
      for (const uri of files) await skill.read(uri);
      process.stdout.write(`loaded ${entry.uri} (${files.length} files verified)\n`);
    } catch (error) {
      if (!(error instanceof SkillVerificationError)) throw error;
      process.stdout.write(`refused ${entry.uri}: ${error.message}\n`);
    }
  }
}

type Step = (client: Client) => Promise<void>;

const steps: { readonly [scenario: string]: Step } = {
  // Connecting is the scenario: the handshake (or probe), then one request.
  initialize: async (client) => {
    await client.listTools();
  },
  tools_call: async (client) => {
    await client.listTools();
    await client.callTool("add_numbers", { a: 5, b: 3 });
  },
  "elicitation-sep1034-client-defaults": async (client) => {
    await client.listTools();
    await client.callTool("test_client_elicitation_defaults");
  },
  // The answer's SSE stream ends after its priming event; the transport resumes it (GET, Last-Event-ID).
  "sse-retry": async (client) => {
    await client.listTools();
    await client.callTool("test_reconnection");
  },
  // The probe's UnsupportedProtocolVersionError is answered by the probe again at a version the
  // server lists (2026-07-28 basic/versioning#protocol-version-negotiation); then one request.
  "request-metadata": async (client) => {
    await client.listTools();
  },
  "sep-2322-client-request-state": async (client) => {
    await client.listTools();
    // The unrelated call runs beside the first call's multi round-trip exchange: nothing of that
    // exchange may leak into it (2026-07-28 basic/patterns/mrtr).
    await Promise.all([client.callTool("test_mrtr_echo_state"), client.callTool("test_mrtr_unrelated")]);
    await client.callTool("test_mrtr_no_state");
    await client.callTool("test_mrtr_no_result_type");
  },
  // Every method whose Mcp-Method / Mcp-Name headers the scenario checks.
  "http-standard-headers": async (client) => {
    for (const tool of await client.listTools()) await client.callTool(tool.name, sampleArguments(tool.inputSchema));
    const { resources } = await client.request("resources/list", {});
    for (const resource of resources) await client.readResource(resource.uri);
    const { prompts } = await client.request("prompts/list", {});
    for (const prompt of prompts) await client.getPrompt(prompt.name);
  },
  // The calls the scenario names in its context, with their arguments as given.
  "http-custom-headers": async (client) => {
    await client.listTools();
    const calls = context()["toolCalls"];
    if (!Array.isArray(calls)) throw new Error("http-custom-headers: MCP_CONFORMANCE_CONTEXT has no toolCalls array");
    for (const call of calls as { name: string; arguments?: Record<string, unknown> }[])
      await client.callTool(call.name, call.arguments ?? {});
  },
  // The client drops the tools whose x-mcp-header annotations are invalid; every tool it keeps is called.
  "http-invalid-tool-headers": async (client) => {
    for (const tool of await client.listTools()) await client.callTool(tool.name, sampleArguments(tool.inputSchema));
  },
  // The tools are listed; the client dereferences no $ref of an inputSchema (SEP-2106: never a network one).
  "json-schema-ref-no-deref": async (client) => {
    await client.listTools();
  },
  // The focal tool's inputSchema, as the client holds it, echoed back verbatim.
  "json-schema-2020-12-preservation": async (client) => {
    const tools = await client.listTools();
    const focal = tools.find((tool) => tool.name === "json_schema_2020_12_tool");
    if (!focal) throw new Error(`json_schema_2020_12_tool is not among ${tools.map((t) => t.name).join(", ")}`);
    await client.callTool("json_schema_echo", { schema: focal.inputSchema });
  },
  // Listing skills is not loading them: nothing is read (extensions/skills/skills.mdx#lazy-retrieval).
  "sep-2640-client-no-prefetch": async (client) => {
    for (const entry of await new SkillsClient(client).list())
      process.stdout.write(`listed ${entry.uri}: ${entry.frontmatter.description}\n`);
  },
  // Each serves a SKILL.md that fails one check (digest, size, frontmatter): loading it must fail,
  // and the skill's other files are then not read (skills.mdx#integrity-and-verification).
  "sep-2640-client-verify-digest": useSkills,
  "sep-2640-client-verify-size": useSkills,
  "sep-2640-client-verify-frontmatter": useSkills,
};

async function main(): Promise<number> {
  if (!url || !/^https?:\/\//.test(url)) {
    process.stderr.write("usage: conformance-client <server URL>  (MCP_CONFORMANCE_SCENARIO names the scenario)\n");
    return 2;
  }
  if (scenario.startsWith("auth/")) {
    process.stderr.write(
      `conformance client: ${scenario} is an authorization scenario; mcpgen's client has no OAuth client flow\n`,
    );
    return 1;
  }
  const step = Object.prototype.hasOwnProperty.call(steps, scenario) ? steps[scenario] : undefined;
  if (!step) {
    process.stderr.write(`conformance client: unknown scenario ${JSON.stringify(scenario)}\n`);
    return 2;
  }
  const options: ClientOptions = {
    clientInfo: { name: "mcpgen-conformance-client", version: "1.0.0" },
    handlers,
    extensions: ["skills"],
    timeoutMs: 10_000,
    onProblem: (error) => process.stderr.write(`conformance client: ${error.message}\n`),
  };
  const client = await Client.connect(new StreamableHttpClientTransport(url), options);
  process.stdout.write(`${scenario}: ${client.era} era, revision ${client.revision.name}\n`);
  try {
    await step(client);
  } finally {
    await client.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance client (${scenario}): ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
