// A full collection with no request in flight must not deoptimize the request
// path (runtime/hidden-classes.ts). Each path runs in a child of its own
// (test/fixtures/servers/hidden-classes.ts, compiled by `npm test` into dist/)
// with V8's optimization and deoptimization traces (single-threaded, so that
// what the warm-up makes V8 compile is compiled before the collection): after a warm-up, a forced
// full collection, then more calls. Without the instances kept, the maps of
// Inflight, RequestContext, the HTTP exchanges, InputRound and a stateless
// POST's Session died in that collection and took the compiled code of every
// path with them ("reason: weak objects").
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const fixture = fileURLToPath(new URL("../../dist/test/fixtures/servers/hidden-classes.js", import.meta.url));
const WARM_UP = 10_000;
const AFTER = 500;

/** The classes made per request (or per stateless POST) and dropped after. */
const PER_REQUEST_CLASSES = [
  "Inflight",
  "RequestContext",
  "InputRound",
  "Session",
  "IdMap",
  "PostExchange",
  "PerRequestExchange",
];

interface Traced {
  /** Functions optimized during the warm-up. */
  optimized: string[];
  /** Functions whose optimized code the collection or the calls after it invalidated for a dead object. */
  weakDeopts: string[];
}

function traced(path: string): Traced {
  if (!existsSync(fixture)) throw new Error(`${fixture} is missing: run npm test (it compiles the fixtures) first`);
  const out = execFileSync(
    process.execPath,
    ["--expose-gc", "--single-threaded", "--trace-opt", "--trace-deopt", fixture, path, String(WARM_UP), String(AFTER)],
    { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, timeout: 60_000 },
  );
  const gcAt = out.indexOf("=== GC\n");
  const endAt = out.indexOf("=== END\n");
  expect(gcAt, "the fixture ran its warm-up").toBeGreaterThan(-1);
  expect(endAt, "the fixture ran its calls after the collection").toBeGreaterThan(gcAt);
  const before = out.slice(0, gcAt);
  const after = out.slice(gcAt, endAt);
  // "[completed compiling 0x… <JSFunction admit (sfi = 0x…)> (target TURBOFAN) …" (Node 20; "optimizing" before)
  const optimized = [...before.matchAll(/completed (?:compiling|optimizing) 0x[0-9a-f]+ <JSFunction ([^ >]*)/g)].map(
    (m) => m[1]!,
  );
  // "[marking dependent code 0x… <Code TURBOFAN> (0x… <SharedFunctionInfo Inflight>) (opt id 13) for deoptimization, reason: weak objects]"
  const weakDeopts = [
    ...after.matchAll(/<SharedFunctionInfo ([^>]*)>\) \(opt id \d+\) for deoptimization, reason: weak objects/g),
  ].map((m) => m[1]!);
  return { optimized, weakDeopts };
}

describe("a full collection between requests keeps the request path's compiled code", () => {
  for (const path of ["stdio-legacy", "stdio-per-request"]) {
    test(`${path}: no compiled code invalidated`, { timeout: 90_000 }, () => {
      const { optimized, weakDeopts } = traced(path);
      // The session's request path (its admission checks: admission.ts) was compiled, so there was code to lose.
      expect(optimized).toContain("admit");
      expect(optimized).toContain("Inflight");
      expect(weakDeopts).toEqual([]);
    });
  }

  // Over HTTP node:http's own per-request objects (IncomingMessage,
  // ServerResponse) die as well, and with them code of node's and of the
  // transport's that touches them (the floor's too): only mcpgen's own
  // per-request classes are held to it.
  for (const path of ["http-sessions", "http-stateless", "http-per-request"]) {
    test(`${path}: no per-request class of mcpgen's loses its compiled constructor`, { timeout: 90_000 }, () => {
      const { optimized, weakDeopts } = traced(path);
      expect(optimized).toContain("Inflight");
      expect(weakDeopts.filter((name) => PER_REQUEST_CLASSES.includes(name) || name === "admit")).toEqual([]);
    });
  }
});
