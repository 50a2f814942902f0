// The Node scaffold of `mcpgen init`: built with tsc, served on stdio or with
// serveHttp (node:http), tested with Node's own test runner.
import { clientChecks, commandBlock, type InitOptions, type ProjectCommands, type Transport } from "./project.js";
import { serverSource } from "./server.js";

/**
 * The project's dev dependencies, at the versions mcpgen's own build and tests
 * use (the installed generator cannot read the repository's package.json, so
 * they are written here; test/cli/init.test.ts fails when they drift).
 */
export const DEV_DEPENDENCIES: Readonly<Record<string, string>> = {
  "@types/node": "20.19.43",
  typescript: "6.0.3",
};

export function commands(transport: Transport): ProjectCommands {
  return {
    install: "npm install",
    beforeStart: "npm run build",
    start: {
      run: "npm start",
      what:
        transport === "stdio"
          ? "serve MCP on stdio (an MCP client starts it itself: node dist/main.js)"
          : "serve MCP at http://127.0.0.1:3000/mcp (PORT=8080 npm start: another port)",
    },
    test: { run: "npm test", what: "build, then check the tool, resource and prompt through an MCP client" },
    more: [],
  };
}

export function files(options: InitOptions) {
  const { name, transport } = options;
  return [
    { path: ".gitignore", content: "node_modules/\ndist/\n" },
    { path: "README.md", content: readme(options) },
    { path: "package.json", content: packageJson(options) },
    { path: "src/main.ts", content: transport === "stdio" ? STDIO_MAIN : HTTP_MAIN },
    { path: "src/server.test.ts", content: serverTest(name, transport) },
    { path: "src/server.ts", content: serverSource(name) },
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

${commandBlock(commands(transport))}
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
${clientChecks("test")}
`;
}
