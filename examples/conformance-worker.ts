// The conformance fixture (conformance-fixture.ts) as a Cloudflare Worker: its
// fetch handler is the module's `fetch`. Skills are not served: a Worker has
// no folder to read them from. What lives in memory here (2025 sessions,
// tasks, subscriptions) lives as long as this isolate: see docs/runtimes.md.
import { createFetchHandler } from "mcpgen/fetch";
import { buildConformanceServer } from "./conformance-fixture.js";

export default { fetch: createFetchHandler(await buildConformanceServer()) };
