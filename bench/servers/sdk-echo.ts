// The benchmark's echo tool on the official TypeScript SDK over stdio.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { echoServer } from "./echo-sdk.js";

await echoServer().connect(new StdioServerTransport());
