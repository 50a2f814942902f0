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
/**
 * Sessions, for the turnover path: each is four POSTs (initialize, initialized, a call, DELETE).
 * Node 22's V8 optimizes `admit` only after ~2,000 of them (Node 20's well before): 4,000, so that
 * on either there is compiled code to lose.
 */
const TURNOVER_WARM_UP = 4_000;
/** Long enough for a function that died in the collection to be hot again and compiled (it took ~800 sessions). */
const TURNOVER_AFTER = 3_000;

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
  /**
   * mcpgen's functions ("name file") compiled again after the collection although nothing
   * invalidated their code since they were last compiled: code that died with the objects that held it.
   */
  recompiled: string[];
}

/**
 * "[completed compiling 0x… <JSFunction admit <file:///…/http.js> (sfi = 0x…)> (target TURBOFAN) …"
 * (--trace-file-names; anonymous: no name). The target: TURBOFAN (Node 20, 22), MAGLEV or
 * TURBOFAN_JS (Node 24, which tiers up through Maglev).
 */
const COMPILED =
  /completed (?:compiling|optimizing) 0x[0-9a-f]+ <JSFunction ([^<(]*?) ?<([^>]*)> \(sfi = (0x[0-9a-f]+)\)>? ?(?:\(target ([A-Z_]+)\))?/g;
/** A compilation's tier: Maglev's code is replaced by TurboFan's as a function stays hot (a tier-up, not a loss). */
const tier = (target: string | undefined) => (target === "MAGLEV" ? 1 : 2);

function traced(path: string, warmUp = WARM_UP, calls = AFTER): Traced {
  if (!existsSync(fixture)) throw new Error(`${fixture} is missing: run npm test (it compiles the fixtures) first`);
  const out = execFileSync(
    process.execPath,
    [
      "--expose-gc",
      "--single-threaded",
      "--trace-opt",
      "--trace-deopt",
      "--trace-file-names",
      fixture,
      path,
      String(warmUp),
      String(calls),
    ],
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
  // "[marking dependent code 0x… <Code TURBOFAN> (0x… <SharedFunctionInfo Inflight>) (opt id 13) for deoptimization,
  // reason: weak objects]" (Node 24: "reason: embedded weak objects cleared")
  const weakDeopts = [
    ...after.matchAll(
      /<SharedFunctionInfo ([^>]*)>\) \(opt id \d+\) for deoptimization, reason: (?:embedded )?weak objects/g,
    ),
  ].map((m) => m[1]!);
  // Each compilation of mcpgen's after the collection, against the same function's compilation
  // before it (by SharedFunctionInfo: closures of one site share theirs; V8 prints addresses with and
  // without leading zeros): recompiled when nothing invalidated the code in between. Between, not only
  // after the marker: a collection V8 began on its own may have finished just before it.
  const compiled = [...out.slice(0, endAt).matchAll(COMPILED)].map((m) => ({
    at: m.index!,
    name: `${m[1] || "(anonymous)"} ${m[2]}`,
    sfi: BigInt(m[3]!),
    tier: tier(m[4]),
  }));
  const invalidations = [
    ...out.matchAll(/\((0x[0-9a-f]+) <SharedFunctionInfo[^>]*>\) \(opt id \d+\) for deoptimization/g),
    ...out.matchAll(/deoptimizing 0x[0-9a-f]+ <JSFunction [^(]*\(sfi = (0x[0-9a-f]+)\)/g),
  ].map((m) => ({ at: m.index!, sfi: BigInt(m[1]!) }));
  const ours = (name: string) => name.includes("/dist/runtime/") || name.includes("/dist/generated/");
  const recompiled = compiled
    .filter((c) => c.at > gcAt && ours(c.name))
    .filter((c) => {
      const earlier = compiled.filter((e) => e.sfi === c.sfi && e.at < c.at && e.tier >= c.tier).at(-1);
      return earlier !== undefined && !invalidations.some((i) => i.sfi === c.sfi && i.at > earlier.at && i.at < c.at);
    })
    .map((c) => c.name);
  return { optimized, weakDeopts, recompiled };
}

describe("a full collection between requests keeps the request path's compiled code", () => {
  for (const path of ["stdio-legacy", "stdio-per-request"]) {
    // Retried: on Node 24, with the suite's other files running beside it, the warm-up once ended
    // before V8 had compiled admit (1 run of 3 in CI; 12 of 12 alone did), failing the precondition.
    // A weak deopt fails every try.
    test(`${path}: no compiled code invalidated`, { timeout: 90_000, retry: 2 }, () => {
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

// A closure made per request or per session (a listener, a callback) gets the
// optimized code its site's feedback holds, and that hold is weak: with no such
// closure alive at a full collection the code dies, and the next closures run
// unoptimized until V8 compiles them again. Under session turnover the
// initialize path's closures were compiled again every few seconds (seen in a
// soak: ~280 sessions a second, TurboFan every ~3 s). Methods, bound where a
// function is passed, keep theirs: the class holds them.
describe("a full collection between requests leaves no function of mcpgen's to compile again", () => {
  const paths: [string, number, number][] = [
    ["stdio-legacy", WARM_UP, AFTER],
    ["stdio-per-request", WARM_UP, AFTER],
    ["http-sessions", WARM_UP, 3_000],
    ["http-stateless", WARM_UP, 3_000],
    ["http-per-request", WARM_UP, 3_000],
    ["http-session-turnover", TURNOVER_WARM_UP, TURNOVER_AFTER],
    ["http-sse", WARM_UP, 3_000],
  ];
  for (const [path, warmUp, after] of paths) {
    // Retried: with two test runs sharing the machine, the HTTP paths' entry functions (post,
    // readMessage, pathOf: no closures among them) were seen compiled again without a traced
    // invalidation, once in a few runs, and not again alone. Code that dies with its closures
    // fails every try (checked on the code before 22f7cd3 and on the shim walk's callbacks).
    test(`${path}: nothing compiled again that was not invalidated`, { timeout: 90_000, retry: 2 }, () => {
      const { optimized, recompiled } = traced(path, warmUp, after);
      expect(optimized).toContain("admit");
      expect(recompiled).toEqual([]);
    });
  }
});
