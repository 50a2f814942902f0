// The client benchmark's end-to-end server (bench/client.ts --server mcpgen):
// search-server.ts's McpServer on stdio, every message through mcpgen's server.
import { serveStdio } from "mcpgen/stdio";
import { searchServer } from "./search-server.js";

serveStdio(searchServer());
