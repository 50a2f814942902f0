#!/usr/bin/env node
// Runs the compiled CLI (dist/). In a checkout, `npm run build:generator` builds it.
import { existsSync } from "node:fs";
import module from "node:module";

// Node >= 22.1 keeps compiled code between runs (a CLI tool is the use its documentation names):
// the generator loads typescript and ts-morph, ~10 MB of JavaScript, on every generate and diff.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off; on older Node the function does not exist.
module.enableCompileCache?.();

const entry = new URL("../dist/generator/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("mcpgen: dist/ is missing; run `npm run build:generator` in the mcpgen checkout first\n");
  process.exit(2);
}
const { main, processIo } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2), processIo());
