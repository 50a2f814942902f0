// The weather server on Cloudflare Workers: its fetch handler is the Worker's
// `fetch`. Each request stands alone for 2026-07-28 clients; a 2025 session
// lives only in the isolate that opened it (docs/runtimes.md).
//
//   npx wrangler dev      (wrangler.toml: main = "src/worker.ts", compatibility_flags = ["nodejs_compat"])
import { createFetchHandler } from "mcpgen/fetch";
import { buildServer } from "./server.js";

export default {
  fetch: createFetchHandler(buildServer(), {
    // The names clients reach the Worker by: its workers.dev (or custom) domain, and loopback for `wrangler dev`.
    allowedHosts: ["weather.example.workers.dev", "localhost", "127.0.0.1"],
  }),
};
