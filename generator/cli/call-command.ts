// `mcpgen call`: one request to a server, from a shell. The server is a URL
// (Streamable HTTP) or a command (stdio, spawned and stopped). It uses
// mcpgen/client, loaded from the runtime package at run time (./runtime-package.ts).
import { SpecError } from "../lock/lock.js";
import type { Io } from "./io.js";
import { importRuntime } from "./runtime-package.js";

export interface CallOptions {
  /** A URL, or a command and its arguments. */
  server: readonly string[];
  tool?: string;
  resource?: string;
  prompt?: string;
  list?: string;
  /** JSON object: the tool's arguments or the prompt's. */
  args?: string;
  revision?: string;
  headers: readonly string[];
  timeoutMs: number;
  json: boolean;
}

/** What this command uses of mcpgen/client (typed loosely: it is loaded at run time). */
interface ClientModule {
  Client: {
    connect(transport: unknown, options: Record<string, unknown>): Promise<LoadedClient>;
  };
  StdioClientTransport: new (options: Record<string, unknown>) => unknown;
  StreamableHttpClientTransport: new (url: string, options: Record<string, unknown>) => unknown;
  McpError: new (...args: never[]) => Error & { code: number };
}

interface LoadedClient {
  era: string;
  revision: { name: string };
  request(
    method: string,
    params: Record<string, unknown>,
    options?: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const LISTS: Record<string, { method: string; field: string }> = {
  tools: { method: "tools/list", field: "tools" },
  resources: { method: "resources/list", field: "resources" },
  templates: { method: "resources/templates/list", field: "resourceTemplates" },
  prompts: { method: "prompts/list", field: "prompts" },
};

export async function callCommand(io: Io, options: CallOptions): Promise<number> {
  const asks = [options.tool, options.resource, options.prompt, options.list].filter((x) => x !== undefined);
  if (asks.length !== 1)
    throw new SpecError("say what to do: one of --tool NAME, --resource URI, --prompt NAME, --list WHAT");
  if (options.list !== undefined && !Object.prototype.hasOwnProperty.call(LISTS, options.list))
    throw new SpecError(`--list takes ${Object.keys(LISTS).join(", ")}, not "${options.list}"`);
  const args = parseArgs(options.args);
  const headers = Object.fromEntries(
    options.headers.map((header) => {
      const colon = header.indexOf(":");
      if (colon <= 0) throw new SpecError(`--header "${header}" is not "Name: value"`);
      return [header.slice(0, colon).trim(), header.slice(colon + 1).trim()];
    }),
  );
  const module = await importRuntime<ClientModule>(
    "client",
    "the mcpgen runtime package's client is missing (in a checkout: npm run generate)",
  );

  const [first, ...rest] = options.server;
  const url = /^https?:\/\//i.test(first!) ? first! : undefined;
  if (url && rest.length > 0) throw new SpecError(`a URL takes no arguments (got ${rest.join(" ")})`);
  const transport = url
    ? new module.StreamableHttpClientTransport(url, { headers })
    : new module.StdioClientTransport({ command: first, args: rest, stderr: "inherit" });
  let client: LoadedClient;
  try {
    client = await module.Client.connect(transport, {
      timeoutMs: options.timeoutMs,
      clientInfo: { name: "mcpgen-call", version: "0.1.0" },
      ...(options.revision ? { revision: options.revision } : {}),
      onProblem: (error: Error) => io.stderr(`mcpgen: ${error.message}\n`),
    });
  } catch (error) {
    if (error instanceof TypeError && /unknown protocol revision/.test(error.message))
      throw new SpecError(error.message);
    io.stderr(`mcpgen: cannot connect to ${options.server.join(" ")}: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    const [method, params] =
      options.tool !== undefined
        ? ["tools/call", { name: options.tool, arguments: args }]
        : options.resource !== undefined
          ? ["resources/read", { uri: options.resource }]
          : options.prompt !== undefined
            ? ["prompts/get", { name: options.prompt, arguments: args }]
            : [LISTS[options.list!]!.method, {}];
    const result = await client.request(method, params);
    if (options.json) io.stdout(JSON.stringify(result, null, 2) + "\n");
    else io.stdout(render(method, result, options.list ? LISTS[options.list]!.field : undefined));
    return method === "tools/call" && result["isError"] === true ? 1 : 0;
  } catch (error) {
    const code = error instanceof module.McpError ? ` (${(error as { code: number }).code})` : "";
    io.stderr(`mcpgen: ${method(options)} failed${code}: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

function method(options: CallOptions): string {
  return options.tool !== undefined
    ? `tools/call ${options.tool}`
    : options.resource !== undefined
      ? `resources/read ${options.resource}`
      : options.prompt !== undefined
        ? `prompts/get ${options.prompt}`
        : `${options.list} list`;
}

function parseArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SpecError(`--args is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new SpecError("--args must be a JSON object");
  return value as Record<string, unknown>;
}

/** A result for a person: text as text, everything else summarized. */
function render(method: string, result: Record<string, unknown>, listField?: string): string {
  const lines: string[] = [];
  const block = (b: Record<string, unknown>) =>
    b["type"] === "text"
      ? String(b["text"])
      : b["type"] === "resource_link"
        ? `[link ${String(b["uri"])}]`
        : b["type"] === "resource"
          ? `[resource ${String((b["resource"] as Record<string, unknown>)?.["uri"])}]`
          : `[${String(b["type"])} ${String(b["mimeType"] ?? "")}, ${String(b["data"] ?? "").length} base64 characters]`;
  if (listField) {
    for (const item of (result[listField] as Record<string, unknown>[]) ?? [])
      lines.push(
        `${String(item["name"] ?? item["uri"])}${item["uri"] && item["name"] ? ` (${String(item["uri"])})` : ""}${item["uriTemplate"] ? ` (${String(item["uriTemplate"])})` : ""}${item["description"] ? `: ${String(item["description"])}` : ""}`,
      );
  } else if (method === "tools/call") {
    for (const b of (result["content"] as Record<string, unknown>[]) ?? []) lines.push(block(b));
    if (result["structuredContent"] !== undefined) lines.push(JSON.stringify(result["structuredContent"], null, 2));
  } else if (method === "resources/read") {
    for (const c of (result["contents"] as Record<string, unknown>[]) ?? [])
      lines.push(
        typeof c["text"] === "string"
          ? c["text"]
          : `[blob ${String(c["mimeType"] ?? "")}, ${String(c["blob"] ?? "").length} base64 characters]`,
      );
  } else {
    for (const m of (result["messages"] as Record<string, unknown>[]) ?? [])
      lines.push(`${String(m["role"])}: ${block(m["content"] as Record<string, unknown>)}`);
  }
  return lines.join("\n") + "\n";
}
