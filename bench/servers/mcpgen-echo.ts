// The benchmark's echo tool on mcpgen over stdio.
import { serveStdio } from "mcpgen/stdio";
import { echoServer } from "./echo-mcpgen.js";

serveStdio(echoServer());
