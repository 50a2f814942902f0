// The Deno scaffold of `mcpgen init`: Deno runs the TypeScript as it is,
// serves the fetch handler with Deno.serve and tests with `deno test`. mcpgen
// comes from npm through package.json into node_modules (deno.json:
// nodeModulesDir "manual"), so `deno install` and `npm install` both fill it.
import { clientChecks, commandBlock, type InitOptions, type ProjectCommands, type ProjectFile } from "./project.js";
import { DEV_DEPENDENCIES } from "./node.js";
import { serverSource } from "./server.js";

/** Loopback only: the server listens there and the test's client connects there. */
const NET = "--allow-net=127.0.0.1";

export function commands(): ProjectCommands {
  return {
    install: "deno install",
    start: {
      run: "deno task start",
      what: "serve MCP at http://127.0.0.1:3000/mcp (PORT=8080 deno task start: another port)",
    },
    test: { run: "deno task test", what: "check the tool, resource and prompt through an MCP client" },
    more: [],
  };
}

export function files(options: InitOptions): ProjectFile[] {
  return [
    { path: ".gitignore", content: "node_modules/\n" },
    { path: "README.md", content: readme(options) },
    { path: "deno.json", content: denoJson() },
    { path: "package.json", content: packageJson(options) },
    { path: "src/main.ts", content: MAIN },
    { path: "src/server.test.ts", content: serverTest(options.name) },
    { path: "src/server.ts", content: serverSource(options.name) },
  ];
}

function denoJson(): string {
  const config = {
    nodeModulesDir: "manual",
    tasks: {
      start: `deno run ${NET} --allow-env=PORT src/main.ts`,
      test: `deno test ${NET}`,
    },
  };
  return JSON.stringify(config, null, 2) + "\n";
}

function packageJson({ name, mcpgenVersion }: InitOptions): string {
  const manifest = {
    name,
    version: "0.1.0",
    description: "An MCP server over Streamable HTTP on Deno, built with mcpgen",
    private: true,
    type: "module",
    dependencies: { mcpgen: mcpgenVersion },
    // What Deno's type check of mcpgen's declarations reads (they refer to Node's types):
    // from node_modules, as nodeModulesDir "manual" has Deno take every package.
    devDependencies: { "@types/node": DEV_DEPENDENCIES["@types/node"] },
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

const MAIN = `// Serves the server over Streamable HTTP with Deno.serve, at
// http://127.0.0.1:<PORT>/mcp (PORT from the environment, default 3000; 0 picks
// a free port). It listens on loopback only; see the README before serving
// other machines.
import { createFetchHandler } from "mcpgen/fetch";
import { createServer } from "./server.ts";

/** Serves a new server on 127.0.0.1:port; its URL, and how to stop it. */
export function serve(port: number) {
  const handler = createFetchHandler(createServer());
  // The handler takes Deno's ServeHandlerInfo too: its \`completed\` tells a
  // client that went away from a delivered response.
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, handler);
  return {
    url: \`http://127.0.0.1:\${server.addr.port}/mcp\`,
    /** Ends the sessions (their streams close), then the listener. */
    async stop() {
      handler.close();
      await server.shutdown();
    },
  };
}

if (import.meta.main) {
  const port = Number(Deno.env.get("PORT") || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(
      \`PORT must be a port number (0 to 65535), not \${Deno.env.get("PORT")}\`,
    );
    Deno.exit(2);
  }
  const served = serve(port);
  console.log(\`MCP server listening on \${served.url}\`);
  // Ctrl-C, or a service manager's SIGTERM: end the sessions, free the port.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      served.stop().then(() => Deno.exit(0));
    });
  }
}
`;

function serverTest(name: string): string {
  return `// Serves the server on a free port, as \`deno task start\` does, and checks
// its tool, resource and prompt through mcpgen's client over Streamable HTTP,
// each a step of one test. \`deno task test\` runs every *.test.ts with no
// permission but loopback networking.
import assert from "node:assert/strict";
import { Client, StreamableHttpClientTransport } from "mcpgen/client";
import { serve } from "./main.ts";

Deno.test("the server, through an MCP client", async (t) => {
  const served = serve(0);
  const client = await Client.connect(
    new StreamableHttpClientTransport(served.url),
    { clientInfo: { name: "${name}-test", version: "0.1.0" } },
  ).catch(async (error) => {
    await served.stop();
    throw error;
  });
  try {
${clientChecks("await t.step", "    ")}
  } finally {
    await client.close();
    await served.stop();
  }
});
`;
}

function readme(options: InitOptions): string {
  return `# ${options.name}

${commandBlock(commands())}
An [MCP](https://modelcontextprotocol.io) server over Streamable HTTP on
[Deno](https://deno.com), built with mcpgen. Deno runs the TypeScript as it is:
there is no build step. Clients of every protocol revision mcpgen knows are
served, with the \`initialize\` handshake (2025 clients, whose sessions live in
this process) or without it (2026-07-28).

## What is here

- \`src/server.ts\`: \`createServer()\`, the server with one example of each
  feature: the tool \`add_note\` (the model calls it), the resource
  \`notes://all\` (the application reads it) and the prompt \`summarize_notes\`
  (the user picks it). Replace them with your own.
- \`src/main.ts\`: serves it with \`Deno.serve\` over mcpgen's fetch handler
  (\`createFetchHandler\` from \`mcpgen/fetch\`).
- \`src/server.test.ts\`: serves it on a free port and checks each feature
  through \`mcpgen/client\`, with \`deno test\`.
- \`deno.json\`: the tasks, with the only permissions they need: the network on
  \`127.0.0.1\`, and for \`start\` the variable \`PORT\`. Its
  \`"nodeModulesDir": "manual"\` has Deno take \`mcpgen\` from \`node_modules\`,
  which \`deno install\` fills from \`package.json\`.

## Connecting a client

\`deno task start\` serves MCP at \`http://127.0.0.1:3000/mcp\` (\`PORT\` chooses
another port); point an MCP client at that URL. From a shell with Node,
\`mcpgen call\` makes one request:

\`\`\`sh
npx mcpgen-generator call --list tools http://127.0.0.1:3000/mcp
\`\`\`

The server listens on loopback only, and refuses a request whose \`Host\` or
\`Origin\` header is not a local name (DNS rebinding). To serve other machines,
put it behind a reverse proxy with TLS, or give \`createFetchHandler\` in
\`src/main.ts\` your host names (\`allowedHosts\`, \`allowedOrigins\`), widen
\`--allow-net\`, and protect it with the \`auth\` option.
`;
}
