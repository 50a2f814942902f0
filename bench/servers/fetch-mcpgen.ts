// The benchmark's echo tool on mcpgen's fetch handler (createFetchHandler),
// served by the runtime (fetch-serve.ts); on Node behind --bridge.
import { createFetchHandler } from "mcpgen/fetch";
import { echoServer } from "./echo-mcpgen.js";
import { bridge } from "./bridges.js";
import { bridgeName, serveFetch } from "./fetch-serve.js";

const handler = createFetchHandler(echoServer());
await serveFetch(handler, () => bridge(bridgeName(), handler));
