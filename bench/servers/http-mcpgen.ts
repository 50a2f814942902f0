// The benchmark's echo tool on mcpgen over Streamable HTTP (--stateless: no sessions).
import { serveHttp } from "mcpgen/http";
import { echoServer } from "./echo-mcpgen.js";

const handle = await serveHttp(echoServer(), { sessions: !process.argv.includes("--stateless") });
console.log(handle.url);
