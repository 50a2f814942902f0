// The benchmark's tools on the official SDK v2 over node:http: createMcpHandler
// (@modelcontextprotocol/server) behind toNodeHandler (@modelcontextprotocol/node),
// as its documentation sets it up. One endpoint serves both eras: per-request
// (2026-07-28) traffic, and legacy traffic in its default stateless mode. Either
// way the factory builds a server per HTTP request.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { echoServer } from "./echo-sdk-v2.js";

const handler = createMcpHandler(() => echoServer(), { onerror: (error) => console.error(error.message) });
const http = createServer(toNodeHandler(handler));
http.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`));
