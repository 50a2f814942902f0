// A small notes server over stdio: tools, a resource template with
// completion, a fixed resource, a prompt, and requests back to the client
// (sampling to summarize, elicitation to confirm a deletion).
//
//   npm run --silent example:stdio        (from the project root, after npm run generate)
import { McpServer } from "mcpgen/server";
import { serveStdio } from "mcpgen/stdio";

const notes = new Map<string, string>([["welcome", "Notes live in memory until the server exits."]]);

const server = new McpServer(
  { name: "mcpgen-notes", version: "1.0.0", title: "Notes" },
  { instructions: "Keeps short notes in memory. Add with add_note; read note:///{title}." },
);

server.tool(
  "add_note",
  {
    title: "Add a note",
    description: "Stores a note under a title, replacing any note with that title.",
    inputSchema: {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1, description: "The note's title" },
        body: { type: "string", description: "The note's text (default: empty)" },
      },
      required: ["title"],
    },
    annotations: { idempotentHint: true },
  },
  async ({ title, body = "" }) => {
    const existed = notes.has(title);
    notes.set(title, body);
    server.resourceUpdated(`note:///${encodeURIComponent(title)}`);
    if (!existed) server.sendListChanged("resources");
    return `${existed ? "Replaced" : "Added"} note "${title}" (${body.length} characters).`;
  },
);

server.tool(
  "search_notes",
  {
    title: "Search notes",
    description: "Finds the notes whose title or text contains a phrase.",
    inputSchema: {
      type: "object",
      properties: { phrase: { type: "string" } },
      required: ["phrase"],
    },
    outputSchema: {
      type: "object",
      properties: { titles: { type: "array", items: { type: "string" } } },
      required: ["titles"],
    },
    annotations: { readOnlyHint: true },
  },
  async ({ phrase }, context) => {
    const titles: string[] = [];
    let done = 0;
    for (const [title, body] of notes) {
      if (context.signal.aborted) break;
      if (title.includes(phrase) || body.includes(phrase)) titles.push(title);
      context.progress(++done, notes.size);
    }
    return { structuredContent: { titles } };
  },
);

server.tool(
  "summarize_note",
  {
    title: "Summarize a note",
    description: "Asks the client's model for a one-sentence summary of a note (needs sampling).",
    inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
  },
  async ({ title }, context) => {
    const body = notes.get(title);
    if (body === undefined) throw new Error(`No note titled "${title}"`);
    const answer = await context.sample({
      messages: [{ role: "user", content: { type: "text", text: `Summarize in one sentence:\n\n${body}` } }],
      maxTokens: 100,
    });
    const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
    const text = blocks.find((block) => block.type === "text");
    return text ? text.text : "(the model answered without text)";
  },
);

server.tool(
  "delete_note",
  {
    title: "Delete a note",
    description: "Deletes a note after the user confirms (needs elicitation).",
    inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
    annotations: { destructiveHint: true },
  },
  async ({ title }, context) => {
    if (!notes.has(title)) throw new Error(`No note titled "${title}"`);
    const answer = await context.elicit({
      message: `Delete the note "${title}"?`,
      requestedSchema: {
        type: "object",
        properties: { confirm: { type: "boolean", title: "Delete" } },
        required: ["confirm"],
      },
    });
    if (answer.action !== "accept" || answer.content?.["confirm"] !== true) return `Kept "${title}".`;
    notes.delete(title);
    server.sendListChanged("resources");
    return `Deleted "${title}".`;
  },
);

server.resourceTemplate(
  "note:///{title}",
  {
    name: "note",
    title: "A note",
    mimeType: "text/plain",
    list: () =>
      [...notes.keys()].map((title) => ({
        uri: `note:///${encodeURIComponent(title)}`,
        name: title,
        mimeType: "text/plain",
      })),
    complete: { title: (prefix) => [...notes.keys()].filter((title) => title.startsWith(prefix)) },
  },
  (_uri, { title }) => notes.get(String(title)), // undefined: "Resource not found" (-32002)
);

server.resource("notes://index", { name: "index", title: "All notes", mimeType: "text/markdown" }, () =>
  [...notes].map(([title, body]) => `- **${title}**: ${body.split("\n")[0]}`).join("\n"),
);

server.prompt(
  "review_note",
  {
    title: "Review a note",
    description: "Asks the model to suggest improvements to a note.",
    arguments: [{ name: "title", description: "The note to review", required: true }],
    complete: { title: (prefix) => [...notes.keys()].filter((title) => title.startsWith(prefix)) },
  },
  ({ title }) => `Suggest improvements to this note titled "${title}":\n\n${notes.get(title) ?? "(no such note)"}`,
);

serveStdio(server);
