// The Bun scaffold of `mcpgen init`: Bun runs the TypeScript as it is (no build
// step), serves the fetch handler with Bun.serve and tests with `bun test`.
import { clientChecks, commandBlock, type InitOptions, type ProjectCommands, type ProjectFile } from "./project.js";
import { serverSource } from "./server.js";

/** Bun's types for the editor (tsconfig.json), the release of the Bun mcpgen is tested on. */
export const BUN_DEV_DEPENDENCIES: Readonly<Record<string, string>> = {
  "@types/bun": "1.4.4",
};

export function commands(): ProjectCommands {
  return {
    install: "bun install",
    start: {
      run: "bun run start",
      what: "serve MCP at http://127.0.0.1:3000/mcp (PORT=8080 bun run start: another port)",
    },
    test: { run: "bun test", what: "check the tool, resource and prompt through an MCP client" },
    more: [],
  };
}

export function files(options: InitOptions): ProjectFile[] {
  return [
    { path: ".gitignore", content: "node_modules/\n" },
    { path: "README.md", content: readme(options) },
    { path: "package.json", content: packageJson(options) },
    { path: "src/main.ts", content: MAIN },
    { path: "src/server.test.ts", content: serverTest(options.name) },
    { path: "src/server.ts", content: serverSource(options.name) },
    { path: "tsconfig.json", content: TSCONFIG },
  ];
}

function packageJson({ name, mcpgenVersion }: InitOptions): string {
  const manifest = {
    name,
    version: "0.1.0",
    description: "An MCP server over Streamable HTTP on Bun, built with mcpgen",
    private: true,
    type: "module",
    scripts: { start: "bun src/main.ts", test: "bun test" },
    dependencies: { mcpgen: mcpgenVersion },
    devDependencies: BUN_DEV_DEPENDENCIES,
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

// For the editor and `tsc --noEmit`: Bun itself reads no tsconfig to run the code.
const TSCONFIG = `{
  "compilerOptions": {
    "target": "esnext",
    "module": "preserve",
    "moduleResolution": "bundler",
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true,
    "noEmit": true,
    "types": ["bun"],
    "strict": true,
    "skipLibCheck": true
  },
  "include": ["src"]
}
`;

const MAIN = `// Serves the server over Streamable HTTP with Bun.serve, at
// http://127.0.0.1:<PORT>/mcp (PORT from the environment, default 3000; 0 picks
// a free port). It listens on loopback only; see the README before serving
// other machines.
import { createFetchHandler } from "mcpgen/fetch";
import { createServer } from "./server.ts";

/** Serves a new server on 127.0.0.1:port; its URL, and how to stop it. */
export function serve(port: number) {
  const handler = createFetchHandler(createServer());
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    // Bun closes a connection after 10 s without traffic; 0 keeps a quiet SSE
    // stream (a 2025 client's) open.
    idleTimeout: 0,
    // Bun's second argument is its server: the handler takes the request alone.
    fetch: (request) => handler(request),
  });
  return {
    url: \`http://127.0.0.1:\${server.port}/mcp\`,
    /** Ends the sessions (their streams close), then the listener. */
    async stop() {
      handler.close();
      await server.stop(true);
    },
  };
}

if (import.meta.main) {
  const port = Number(process.env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(
      \`PORT must be a port number (0 to 65535), not \${process.env.PORT}\`,
    );
    process.exit(2);
  }
  const served = serve(port);
  console.log(\`MCP server listening on \${served.url}\`);
  // Ctrl-C, or a service manager's SIGTERM: end the sessions, free the port.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      served.stop().then(() => process.exit(0));
    });
  }
}
`;

function serverTest(name: string): string {
  return `// Serves the server on a free port, as \`bun run start\` does, and checks its
// tool, resource and prompt through mcpgen's client over Streamable HTTP.
// \`bun test\` runs every *.test.ts.
import { afterAll, beforeAll, test } from "bun:test";
import assert from "node:assert/strict";
import { Client, StreamableHttpClientTransport } from "mcpgen/client";
import { serve } from "./main.ts";

let served: ReturnType<typeof serve>;
let client: Client;

beforeAll(async () => {
  served = serve(0);
  client = await Client.connect(new StreamableHttpClientTransport(served.url), {
    clientInfo: { name: "${name}-test", version: "0.1.0" },
  });
});

afterAll(async () => {
  await client?.close();
  await served?.stop();
});

${clientChecks("test")}
`;
}

function readme(options: InitOptions): string {
  return `# ${options.name}

${commandBlock(commands())}
An [MCP](https://modelcontextprotocol.io) server over Streamable HTTP on
[Bun](https://bun.sh), built with mcpgen. Bun runs the TypeScript as it is: there
is no build step. Clients of every protocol revision mcpgen knows are served,
with the \`initialize\` handshake (2025 clients, whose sessions live in this
process) or without it (2026-07-28).

## What is here

- \`src/server.ts\`: \`createServer()\`, the server with one example of each
  feature: the tool \`add_note\` (the model calls it), the resource
  \`notes://all\` (the application reads it) and the prompt \`summarize_notes\`
  (the user picks it). Replace them with your own.
- \`src/main.ts\`: serves it with \`Bun.serve\` over mcpgen's fetch handler
  (\`createFetchHandler\` from \`mcpgen/fetch\`).
- \`src/server.test.ts\`: serves it on a free port and checks each feature
  through \`mcpgen/client\`, with \`bun test\`.
- \`tsconfig.json\`: for your editor, and for \`tsc\` once you add
  \`typescript\` (Bun's types come from \`@types/bun\`).

## Connecting a client

\`bun run start\` serves MCP at \`http://127.0.0.1:3000/mcp\` (\`PORT\` chooses
another port); point an MCP client at that URL. From a shell, \`mcpgen call\`
makes one request:

\`\`\`sh
bunx mcpgen-generator call --list tools http://127.0.0.1:3000/mcp
\`\`\`

The server listens on loopback only, and refuses a request whose \`Host\` or
\`Origin\` header is not a local name (DNS rebinding). To serve other machines,
put it behind a reverse proxy with TLS, or give \`createFetchHandler\` in
\`src/main.ts\` your host names (\`allowedHosts\`, \`allowedOrigins\`) and
protect it with the \`auth\` option.
`;
}
