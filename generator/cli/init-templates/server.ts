// src/server.ts of every scaffold: the server and one example of each feature.
// The same file on every runtime: only how it is served differs.

export function serverSource(name: string, servedBy = "src/main.ts", checkedBy = "src/server.test.ts"): string {
  return `// The server and its features. ${servedBy} serves it; ${checkedBy}
// checks it through an MCP client. Replace the examples with your own.
import { McpServer } from "mcpgen/server";

/**
 * A new server with its own notes, kept in memory (a real one would use a
 * database or files). Each call builds a separate server, so tests never share
 * notes.
 */
export function createServer(): McpServer {
  // Bounded: any client can call add_note, so it cannot grow this without end.
  const MAX_NOTES = 1000;
  const notes = new Map<string, string>();
  const server = new McpServer(
    { name: "${name}", version: "0.1.0" },
    {
      instructions:
        "Save notes with the add_note tool; read them all from notes://all.",
    },
  );

  // A tool: the model calls it. Arguments are checked against inputSchema
  // (invalid ones come back as a tool error the model can read and correct),
  // and the handler gets them typed from it: title and text are strings.
  server.tool(
    "add_note",
    {
      title: "Add a note",
      description:
        "Save a note under a title, replacing any earlier note with that title",
      inputSchema: {
        type: "object",
        properties: {
          title: {
            type: "string",
            minLength: 1,
            maxLength: 200,
            description: "Its title",
          },
          text: {
            type: "string",
            maxLength: 10000,
            description: "The note itself",
          },
        },
        required: ["title", "text"],
      },
      annotations: { destructiveHint: false, idempotentHint: true },
    },
    ({ title, text }) => {
      // A thrown error becomes a tool result with isError: true.
      if (!notes.has(title) && notes.size >= MAX_NOTES) {
        throw new Error(\`There are \${MAX_NOTES} notes already\`);
      }
      notes.set(title, text);
      // Clients subscribed to notes://all learn that it changed.
      server.resourceUpdated("notes://all");
      return \`Saved "\${title}" (\${notes.size} \${notes.size === 1 ? "note" : "notes"} in all)\`;
    },
  );

  // A resource: data the client application reads, by URI (and may show the
  // model). A returned string becomes one text content with the mimeType.
  server.resource(
    "notes://all",
    {
      name: "notes",
      title: "All notes",
      description: "Every note, as a JSON array of { title, text }",
      mimeType: "application/json",
    },
    () => JSON.stringify([...notes].map(([title, text]) => ({ title, text }))),
  );

  // A prompt: a message template the user picks in the client (say, as a
  // slash command). A returned string becomes one user message.
  server.prompt(
    "summarize_notes",
    {
      title: "Summarize the notes",
      description: "Ask the model to summarize every note",
      arguments: [
        {
          name: "style",
          description: "How to summarize (default: three bullet points)",
        },
      ],
    },
    ({ style = "three bullet points" }) => {
      const all = [...notes].map(([title, text]) => \`## \${title}\\n\${text}\`);
      return \`Summarize these notes as \${style}:\\n\\n\${all.join("\\n\\n") || "(no notes yet)"}\`;
    },
  );

  return server;
}
`;
}
