// The conformance fixture (conformance-fixture.ts) served over Streamable HTTP
// by node:http on loopback, to clients of both eras (initialize sessions and
// 2026-07-28 per-request POSTs) at once, with its skills read from disk.
//
//   npm run conformance:server -- --port 3001      (then: conformance server --url http://127.0.0.1:3001/mcp)
import { serveHttp } from "mcpgen/http";
import { buildConformanceServer } from "./conformance-fixture.js";
import { conformanceSkillsRoot } from "./conformance-skills-root.js";

const portAt = process.argv.indexOf("--port");
const port = portAt === -1 ? 3001 : Number(process.argv[portAt + 1]);
const handle = await serveHttp(await buildConformanceServer({ skillsRoot: conformanceSkillsRoot() }), { port });
console.log(`conformance server: ${handle.url}`);
const stop = () => void handle.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
