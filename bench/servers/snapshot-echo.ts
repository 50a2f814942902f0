// The benchmark's tools on mcpgen over stdio, started from a V8 startup
// snapshot: `mcpgen snapshot` builds the blob of this script, and the server
// starts with `node --snapshot-blob` (bench/snapshot.ts).
import { serveStdioFromSnapshot } from "mcpgen/snapshot";
import { echoServer } from "./echo-mcpgen.js";

serveStdioFromSnapshot(echoServer());
