// The Cloudflare Workers scaffold of `mcpgen init`: a Worker whose fetch is
// mcpgen's fetch handler, with wrangler to develop and deploy it, and a test
// that needs no wrangler: it bundles the Worker as a Workers bundler does and
// runs it under miniflare (workerd, the runtime `wrangler dev` runs) on loopback.
import {
  clientChecks,
  commandBlock,
  docsUrl,
  type InitOptions,
  type ProjectCommands,
  type ProjectFile,
} from "./project.js";
import { serverSource } from "./server.js";

/**
 * miniflare is the release mcpgen's own Workers tests run on (.ci/runtimes),
 * wrangler the release built on that miniflare, and rolldown mcpgen's own
 * bundler (test/cli/init-runtimes.test.ts fails when they drift).
 */
export const WORKERS_DEV_DEPENDENCIES: Readonly<Record<string, string>> = {
  miniflare: "4.20260730.0",
  rolldown: "1.2.19",
  wrangler: "4.116.0",
};

export function commands(): ProjectCommands {
  return {
    install: "npm install",
    start: { run: "npm run dev", what: "wrangler dev: serve MCP at http://localhost:8787/mcp" },
    test: { run: "npm test", what: "run the Worker under miniflare, check its tool, resource and prompt" },
    more: [{ run: "npm run deploy", what: "wrangler deploy: publish it (name its host in wrangler.toml first)" }],
  };
}

export function files(options: InitOptions): ProjectFile[] {
  return [
    { path: ".gitignore", content: "node_modules/\n.wrangler/\n" },
    { path: "README.md", content: readme(options) },
    { path: "package.json", content: packageJson(options) },
    { path: "src/index.test.ts", content: workerTest(options.name) },
    { path: "src/index.ts", content: INDEX },
    { path: "src/server.ts", content: serverSource(options.name, "src/index.ts", "src/index.test.ts") },
    { path: "wrangler.toml", content: wranglerToml(options.name) },
  ];
}

function packageJson({ name, mcpgenVersion }: InitOptions): string {
  const manifest = {
    name,
    version: "0.1.0",
    description: "An MCP server on Cloudflare Workers, built with mcpgen",
    private: true,
    type: "module",
    // miniflare's floor; 22.18 runs the TypeScript test as it is.
    engines: { node: ">=22.18" },
    scripts: {
      dev: "wrangler dev",
      deploy: "wrangler deploy",
      test: "node --test src/*.test.ts",
    },
    dependencies: { mcpgen: mcpgenVersion },
    devDependencies: WORKERS_DEV_DEPENDENCIES,
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

// The test reads compatibility_date and compatibility_flags from here: keep them one line each.
function wranglerToml(name: string): string {
  return `# The Worker: \`wrangler dev\` serves it locally, \`wrangler deploy\` publishes it.
name = "${name}"
main = "src/index.ts"
compatibility_date = "2026-07-01"
# mcpgen takes node:crypto (session and task ids) from the runtime.
compatibility_flags = ["nodejs_compat"]

# The host names requests may address (the Host header: DNS rebinding). Unset,
# only loopback names pass: \`wrangler dev\`, not a deployed Worker. Before
# deploying, name your Worker's host (and localhost, to keep \`wrangler dev\`):
# [vars]
# ALLOWED_HOSTS = "localhost,${name}.<your-subdomain>.workers.dev"
`;
}

const INDEX = `// The Worker: every request goes to mcpgen's fetch handler, which serves MCP
// over Streamable HTTP at /mcp. The server itself is src/server.ts.
import { createFetchHandler, type FetchHandler } from "mcpgen/fetch";
import { createServer } from "./server.ts";

interface Env {
  /** The host names requests may address, comma-separated (wrangler.toml [vars]). */
  ALLOWED_HOSTS?: string;
}

// One server per isolate, made at its first request: env comes only with a
// request, and a module's top level may start no timer. What the server keeps
// in memory (notes, 2025 sessions) lives as long as this isolate: see the README.
let handler: FetchHandler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    handler ??= createFetchHandler(
      createServer(),
      env.ALLOWED_HOSTS
        ? { allowedHosts: env.ALLOWED_HOSTS.split(",").map((host) => host.trim()) }
        : {},
    );
    return handler(request);
  },
};
`;

function workerTest(name: string): string {
  return `// Bundles the Worker (src/index.ts) as a Workers bundler does, runs it under
// miniflare (workerd, the runtime \`wrangler dev\` runs) on a free loopback
// port with wrangler.toml's compatibility settings, and checks its tool,
// resource and prompt through mcpgen's client over Streamable HTTP.
// \`npm test\` runs it with Node's test runner.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client, StreamableHttpClientTransport } from "mcpgen/client";
import { Miniflare } from "miniflare";
import { rolldown } from "rolldown";

/** A one-line setting of wrangler.toml (a string or an array of strings, which read as JSON). */
function wranglerSetting(key: string): unknown {
  const toml = readFileSync(
    fileURLToPath(new URL("../wrangler.toml", import.meta.url)),
    "utf8",
  );
  const line = new RegExp(\`^\${key}\\\\s*=\\\\s*(.+)$\`, "m").exec(toml);
  if (!line) throw new Error(\`wrangler.toml has no \${key}\`);
  return JSON.parse(line[1]);
}

/** src/index.ts and what it imports, as one ES module (as wrangler bundles it). */
async function bundle(): Promise<string> {
  const build = await rolldown({
    input: fileURLToPath(new URL("./index.ts", import.meta.url)),
    platform: "browser",
    // nodejs_compat provides these.
    external: (id) => id.startsWith("node:"),
    logLevel: "silent",
  });
  // One file, as Workers bundlers make: the revisions loaded on demand inlined.
  const { output } = await build.generate({ format: "esm", codeSplitting: false });
  await build.close();
  return output[0].code;
}

let worker: Miniflare;
let client: Client;

before(async () => {
  worker = new Miniflare({
    // The bundle given as a module list, as wrangler gives it: miniflare then
    // leaves its dynamic imports of optional packages (mcpgen's \`yaml\`,
    // for skills) to fail only if they run.
    modules: [{ type: "ESModule", path: "index.js", contents: await bundle() }],
    compatibilityDate: wranglerSetting("compatibility_date") as string,
    compatibilityFlags: wranglerSetting("compatibility_flags") as string[],
    host: "127.0.0.1",
    port: 0,
  });
  const url = new URL("/mcp", await worker.ready);
  client = await Client.connect(new StreamableHttpClientTransport(url.href), {
    clientInfo: { name: "${name}-test", version: "0.1.0" },
  });
});

after(async () => {
  await client?.close();
  await worker?.dispose();
});

${clientChecks("test")}
`;
}

function readme(options: InitOptions): string {
  return `# ${options.name}

${commandBlock(commands())}
An [MCP](https://modelcontextprotocol.io) server on
[Cloudflare Workers](https://developers.cloudflare.com/workers/), built with
mcpgen: \`src/index.ts\` exports \`{ fetch }\`, mcpgen's fetch handler serving
MCP over Streamable HTTP at \`/mcp\`.

## What is here

- \`src/server.ts\`: \`createServer()\`, the server with one example of each
  feature: the tool \`add_note\` (the model calls it), the resource
  \`notes://all\` (the application reads it) and the prompt \`summarize_notes\`
  (the user picks it). Replace them with your own.
- \`src/index.ts\`: the Worker, \`createFetchHandler\` from \`mcpgen/fetch\`
  over that server.
- \`src/index.test.ts\`: bundles the Worker, runs it under miniflare (workerd,
  what \`wrangler dev\` runs) on a free loopback port, and checks each feature
  through \`mcpgen/client\`, with Node's test runner (Node 22.18 or later).
- \`wrangler.toml\`: the Worker's name, entry, compatibility date and the
  \`nodejs_compat\` flag, and \`ALLOWED_HOSTS\` to fill in before deploying.
  \`npx wrangler types\` writes the Workers types for your editor.

## Where state lives on Workers

A Worker runs in isolates that Cloudflare starts, spreads over its machines
and evicts when it likes; each has its own memory. So:

- 2026-07-28 clients send the protocol version and capabilities with every
  request, and need nothing kept between requests: any isolate answers them.
- A 2025 client's session (from its \`initialize\`) is kept in the memory of
  the isolate that answered the \`initialize\`. A later request that reaches
  another isolate, or comes after the isolate was evicted, gets 404 (session
  not found), and the client has to initialize again; an SSE stream lasts as
  long as its request. Fine for trying things out; for 2025 clients in
  production, keep each session in a Durable Object, or serve them per request.
- The example's notes are in the isolate's memory too: keep real data in KV,
  D1 or a Durable Object.

mcpgen's documentation says more about each runtime, sessions on Workers
among them: [docs/runtimes.md](${docsUrl("runtimes.md")}).

## Deploying

\`wrangler dev\` serves the Worker at \`http://localhost:8787/mcp\`; the fetch
handler accepts only loopback host names until \`ALLOWED_HOSTS\` in
\`wrangler.toml\` names others (DNS rebinding). Name your Worker's host there,
then \`npm run deploy\`, and protect it with the \`auth\` option of
\`createFetchHandler\` before anyone else can reach it.
`;
}
