#!/usr/bin/env node
// Runs the compiled CLI (dist/). In a checkout, `npm run build:generator` builds it.
import { existsSync } from "node:fs";

const entry = new URL("../dist/generator/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("mcpgen: dist/ is missing; run `npm run build:generator` in the mcpgen checkout first\n");
  process.exit(2);
}
const { main, processIo } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2), processIo());
