// The files `mcpgen init` writes: a server project on the runtime package
// (`mcpgen`), as data. Pure functions of the options, no file system:
// ./init-command.ts writes what these return. test/cli/init.test.ts installs
// both variants from the packed tarballs and runs their own tests, so the code
// below is known to build and pass, not merely to look right.

export type Transport = "stdio" | "http";

export interface InitOptions {
  /** The npm package name (see packageName), also the server's name in serverInfo. */
  name: string;
  transport: Transport;
  /** The runtime package's version: the generator's own, as the two are released together. */
  mcpgenVersion: string;
}

export interface ProjectFile {
  /** "/"-separated, relative to the project folder. */
  path: string;
  content: string;
}

/**
 * The project's dev dependencies, at the versions mcpgen's own build and tests
 * use (the installed generator cannot read the repository's package.json, so
 * they are written here; test/cli/init.test.ts fails when they drift).
 */
export const DEV_DEPENDENCIES: Readonly<Record<string, string>> = {
  "@types/node": "20.19.43",
  typescript: "6.0.3",
};

/** The name used when a folder's name has nothing npm accepts. */
const FALLBACK_NAME = "mcp-server";

/**
 * An npm package name from a folder's name: lower case, characters npm does
 * not accept in a name replaced by "-", no leading "." or "_" (npm refuses
 * them), at most 214 characters.
 */
export function packageName(directoryName: string): string {
  const name = directoryName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[._~-]+/, "")
    .replace(/[-.]+$/, "")
    .slice(0, 214);
  return name || FALLBACK_NAME;
}

/** The two commands of the project, as its README's first lines and the CLI's next steps show them. */
export function commands(transport: Transport): { start: string; test: string } {
  return {
    start:
      transport === "stdio"
        ? "serve MCP on stdio (an MCP client starts it itself: node dist/main.js)"
        : "serve MCP at http://127.0.0.1:3000/mcp (PORT=8080 npm start: another port)",
    test: "build, then check the tool, resource and prompt through an MCP client",
  };
}

/** Every file of a new project, sorted by path. */
export function projectFiles(options: InitOptions): ProjectFile[] {
  const { name, transport } = options;
  return [
    { path: ".gitignore", content: "node_modules/\ndist/\n" },
    { path: "README.md", content: readme(options) },
    { path: "package.json", content: packageJson(options) },
    { path: "src/main.ts", content: transport === "stdio" ? STDIO_MAIN : HTTP_MAIN },
    { path: "src/server.test.ts", content: serverTest(name, transport) },
    { path: "src/server.ts", content: server(name) },
    { path: "tsconfig.json", content: TSCONFIG },
  ];
}

function packageJson({ name, transport, mcpgenVersion }: InitOptions): string {
  const manifest = {
    name,
    version: "0.1.0",
    description: `An MCP server ${transport === "stdio" ? "on stdio" : "over Streamable HTTP"}, built with mcpgen`,
    private: true,
    type: "module",
    engines: { node: ">=20.16" },
    scripts: {
      build: "tsc",
      start: "node dist/main.js",
      // Every compiled test file. A file list, not a folder: from Node 21 on, a
      // folder given to --test is taken for a test file.
      test: "npm run build && node --test dist/*.test.js",
    },
    dependencies: { mcpgen: mcpgenVersion },
    devDependencies: DEV_DEPENDENCIES,
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

const TSCONFIG = `{
  "compilerOptions": {
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "types": ["node"],
    "strict": true,
    "skipLibCheck": true,
    "rootDir": "src",
    "outDir": "dist"
  },
  "include": ["src"]
}
`;

function readme({ name, transport }: InitOptions): string {
  const { start, test } = commands(transport);
  const startLine = "npm install && npm run build && npm start";
  const connecting =
    transport === "stdio"
      ? `## Connecting a client

An MCP client starts the server itself and speaks MCP on its stdin and stdout.
Claude Desktop (\`claude_desktop_config.json\`) and most other clients take:

\`\`\`json
{
  "mcpServers": {
    "${name}": {
      "command": "node",
      "args": ["/absolute/path/to/${name}/dist/main.js"]
    }
  }
}
\`\`\`

From a shell, \`mcpgen call\` starts it, makes one request and stops it:

\`\`\`sh
npx mcpgen-generator call --tool add_note --args '{"title":"groceries","text":"milk"}' node dist/main.js
\`\`\`

stdout carries only MCP messages (while the server runs, a stray \`console.log\`
goes to stderr instead): log with \`console.error\`.
`
      : `## Connecting a client

\`npm start\` serves MCP at \`http://127.0.0.1:3000/mcp\` (\`PORT\` chooses another
port); point an MCP client at that URL. From a shell, \`mcpgen call\` makes one
request:

\`\`\`sh
npx mcpgen-generator call --list tools http://127.0.0.1:3000/mcp
\`\`\`

The server listens on loopback only, and refuses a request whose \`Host\` or
\`Origin\` header is not a local name (DNS rebinding). To serve other machines,
put it behind a reverse proxy with TLS, or give \`serveHttp\` in \`src/main.ts\` a
\`host\` and \`allowedHosts\`, and protect it with the \`auth\` option.
`;
  return `# ${name}

\`\`\`sh
${startLine}   # ${start}
npm test${" ".repeat(startLine.length - "npm test".length)}   # ${test}
\`\`\`

An [MCP](https://modelcontextprotocol.io) server ${transport === "stdio" ? "on stdio" : "over Streamable HTTP"}, built
with mcpgen. Its code is written once against the newest protocol revision's
types; clients of every revision mcpgen knows are served by it, with the
\`initialize\` handshake or without it.

## What is here

- \`src/server.ts\`: \`createServer()\`, the server with one example of each
  feature: the tool \`add_note\` (the model calls it), the resource
  \`notes://all\` (the application reads it) and the prompt \`summarize_notes\`
  (the user picks it). Replace them with your own.
- \`src/main.ts\`: serves it ${transport === "stdio" ? "on stdio" : "over Streamable HTTP"}.
- \`src/server.test.ts\`: starts the built server and checks each feature
  through \`mcpgen/client\`, with Node's test runner. \`npm test\` runs every
  \`src/*.test.ts\`.

${connecting}`;
}

function server(name: string): string {
  return `// The server and its features. src/main.ts serves it; src/server.test.ts
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

const STDIO_MAIN = `// Serves the server on stdio: an MCP client (Claude Desktop, an IDE, the MCP
// Inspector) starts \`node dist/main.js\` and speaks MCP on its stdin and stdout.
// stdout is the protocol's: log with console.error, which goes to stderr.
import { serveStdio } from "mcpgen/stdio";
import { createServer } from "./server.js";

serveStdio(createServer());
`;

const HTTP_MAIN = `// Serves the server over Streamable HTTP at http://127.0.0.1:<PORT>/mcp (PORT
// from the environment, default 3000; 0 picks a free port). It listens on
// loopback only; see the README before serving other machines.
import { serveHttp } from "mcpgen/http";
import { createServer } from "./server.js";

const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(
    \`PORT must be a port number (0 to 65535), not \${process.env.PORT}\`,
  );
  process.exit(2);
}

const http = await serveHttp(createServer(), { host: "127.0.0.1", port });
console.log(\`MCP server listening on \${http.url}\`);

// Ctrl-C, or a service manager's SIGTERM: end the sessions, free the port.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    http.close().then(() => process.exit(0));
  });
}
`;

/** The test of the server: how it is reached depends on the transport; what it checks does not. */
function serverTest(name: string, transport: Transport): string {
  const stdio = `// Starts the built server (dist/main.js) the way an MCP client does and checks
// its tool, resource and prompt through mcpgen's client. \`npm test\` builds,
// then runs this with Node's test runner.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client, StdioClientTransport } from "mcpgen/client";

let client: Client;

before(async () => {
  // The client starts the server as a child process and speaks MCP on its
  // stdin and stdout.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL("./main.js", import.meta.url))],
  });
  client = await Client.connect(transport, {
    clientInfo: { name: "${name}-test", version: "0.1.0" },
  });
});

// Closing the client closes the server's stdin, which stops the server.
after(() => client?.close());
`;
  const http = `// Starts the built server (dist/main.js) on a free port and checks its tool,
// resource and prompt through mcpgen's client over Streamable HTTP. \`npm test\`
// builds, then runs this with Node's test runner.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client, StreamableHttpClientTransport } from "mcpgen/client";

let server: ChildProcess;
let client: Client;

before(async () => {
  // PORT=0: the system picks a free port, and the server prints its URL.
  server = spawn(
    process.execPath,
    [fileURLToPath(new URL("./main.js", import.meta.url))],
    {
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await printedUrl(server);
  client = await Client.connect(new StreamableHttpClientTransport(url), {
    clientInfo: { name: "${name}-test", version: "0.1.0" },
  });
});

after(async () => {
  await client?.close();
  server?.kill();
});

/** The URL the server prints once it listens. */
function printedUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const url = /(http:\\/\\/\\S+)\\n/.exec(output)?.[1];
      if (url) resolve(url);
    });
    child.once("exit", (code) =>
      reject(new Error(\`the server exited (code \${code}) before listening\`)),
    );
  });
}
`;
  return `${transport === "stdio" ? stdio : http}
test("lists the add_note tool", async () => {
  const tools = await client.listTools();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    ["add_note"],
  );
});

test("add_note saves a note that notes://all then lists", async () => {
  const result = await client.callTool("add_note", {
    title: "groceries",
    text: "milk, eggs",
  });
  assert.notEqual(result.isError, true);
  assert.deepEqual(result.content, [
    { type: "text", text: 'Saved "groceries" (1 note in all)' },
  ]);

  const read = await client.readResource("notes://all");
  const [contents] = read.contents;
  assert.ok(contents && "text" in contents, "notes://all has a text");
  assert.deepEqual(JSON.parse(contents.text), [
    { title: "groceries", text: "milk, eggs" },
  ]);
});

test("add_note without a text is a tool error", async () => {
  const result = await client.callTool("add_note", { title: "empty" });
  assert.equal(result.isError, true);
});

test("summarize_notes asks for a summary of the notes", async () => {
  await client.callTool("add_note", { title: "ideas", text: "a garden" });
  const prompt = await client.getPrompt("summarize_notes", {
    style: "one sentence",
  });
  const [message] = prompt.messages;
  assert.equal(message?.role, "user");
  assert.ok(message.content.type === "text", "the message is text");
  assert.match(message.content.text, /^Summarize these notes as one sentence:/);
  assert.match(message.content.text, /## ideas\\na garden/);
});
`;
}
