// The client benchmark's traffic, shared by its server (bench/servers/search-mcpgen.ts)
// and its clients (bench/clients/run.ts): a `search` tool as a real one looks,
// with nested arguments, an outputSchema, and a result of a few text blocks
// and structuredContent (about 4.7 KB on the wire). The result echoes the call's
// query, so every client checks that each answer is the one to its own call.

export const TOOL_NAME = "search";

export const inputSchema = {
  type: "object",
  properties: {
    query: { type: "string", minLength: 1, description: "What to look for" },
    limit: { type: "integer", minimum: 1, maximum: 50 },
    filters: {
      type: "object",
      properties: {
        repository: { type: "string" },
        state: { type: "string", enum: ["open", "closed", "all"] },
        labels: { type: "array", items: { type: "string" } },
        updatedAfter: { type: "string" },
      },
    },
    includeSnippets: { type: "boolean" },
  },
  required: ["query"],
} as const;

export const outputSchema = {
  type: "object",
  properties: {
    query: { type: "string" },
    total: { type: "integer", minimum: 0 },
    results: {
      type: "array",
      items: {
        type: "object",
        properties: {
          title: { type: "string" },
          url: { type: "string" },
          snippet: { type: "string" },
          score: { type: "number" },
          updatedAt: { type: "string" },
          labels: { type: "array", items: { type: "string" } },
        },
        required: ["title", "url", "score"],
      },
    },
  },
  required: ["query", "total", "results"],
} as const;

/** The arguments of call `i`: its query names i, which the answer echoes. */
export function searchArguments(i: number): Record<string, unknown> {
  return {
    query: `stdio transport hangs after a timeout #${i}`,
    limit: 5,
    filters: {
      repository: "modelcontextprotocol/typescript-sdk",
      state: "open",
      labels: ["bug", "transport"],
      updatedAfter: "2026-01-01T00:00:00Z",
    },
    includeSnippets: true,
  };
}

const results = Array.from({ length: 5 }, (_, i) => ({
  title: `Client ${i + 1}: the stdio transport stops reading after a request times out`,
  url: `https://github.com/modelcontextprotocol/typescript-sdk/issues/${1200 + i * 17}`,
  snippet:
    "After a request times out, the client keeps the child process but never reads its stdout again; " +
    `later calls wait until their own timeout (seen with ${i + 2} servers at once).`,
  score: Math.round((0.97 - i * 0.08) * 1000) / 1000,
  updatedAt: `2026-0${i + 3}-1${i}T08:30:00Z`,
  labels: ["bug", "transport", ...(i % 2 === 0 ? ["needs repro"] : [])],
}));

const resultsJson = JSON.stringify(results);

/** The tool's answer to a query (what the server's handler returns). */
export function searchResult(query: string) {
  const structuredContent = { query, total: 37, results };
  return {
    content: [
      { type: "text" as const, text: `Found 37 issues for "${query}"; the ${results.length} most relevant follow.` },
      // What the spec suggests for compatibility: the structured result serialized in a text block too
      // (JSON.stringify(structuredContent), with the constant part serialized once: the server should be fast).
      { type: "text" as const, text: `{"query":${JSON.stringify(query)},"total":37,"results":${resultsJson}}` },
      { type: "text" as const, text: "Refine with filters.labels or filters.updatedAfter to narrow the list." },
    ],
    structuredContent,
  };
}

/** Whether an answer (any client's, in any shape that has these members) is the one to `query`. */
export function answers(result: unknown, query: string): boolean {
  const r = result as { content?: unknown[]; structuredContent?: { query?: unknown } } | undefined;
  return r?.structuredContent?.query === query && r.content?.length === 3;
}
