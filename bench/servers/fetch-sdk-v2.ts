// The benchmark's tools on the official SDK v2's createMcpHandler, a server per
// request, served by the runtime (fetch-serve.ts); on Node behind SDK v2's own
// bridge, toNodeHandler (as http-sdk-v2.ts).
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { echoServer } from "./echo-sdk-v2.js";
import { serveFetch } from "./fetch-serve.js";

const handler = createMcpHandler(() => echoServer(), { onerror: (error) => console.error(error.message) });
await serveFetch(
  (request) => handler.fetch(request),
  async () => {
    const listener = toNodeHandler(handler);
    return (request, response) => void listener(request, response);
  },
);
