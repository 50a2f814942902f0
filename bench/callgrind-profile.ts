// Where a process's instructions and cache misses go, from callgrind's output
// with its cache and branch simulation (`--cache-sim=yes --branch-sim=yes
// --dump-instr=yes`). Callgrind names native code (Node, V8's parser, runtime
// and builtins, libc) by symbol, but code V8 compiles at run time only by
// address: those costs are named here from the process's perf map (node
// --perf-basic-prof writes one line per code object: start, size, name), so
// that a generated check or a runtime function gets its own line. Pure: the
// caller reads the files.

/** Costs by event (callgrind's "events:" line: Ir, I1mr, D1mr, Bcm, ...), by function name. */
export interface CallgrindProfile {
  readonly events: readonly string[];
  readonly byFunction: ReadonlyMap<string, readonly number[]>;
}

interface CodeRange {
  readonly start: number;
  readonly size: number;
  readonly name: string;
}

/** A V8 perf map's code objects, sorted by start address. */
export function parsePerfMap(text: string): CodeRange[] {
  const ranges: CodeRange[] = [];
  for (const line of text.split("\n")) {
    const match = /^([0-9a-fA-F]+) ([0-9a-fA-F]+) (.*)$/.exec(line);
    if (match) ranges.push({ start: parseInt(match[1]!, 16), size: parseInt(match[2]!, 16), name: match[3]! });
  }
  return ranges.sort((a, b) => a.start - b.start);
}

function rangeAt(ranges: readonly CodeRange[], address: number): CodeRange | undefined {
  let low = 0;
  let high = ranges.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ranges[middle]!.start <= address) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  const range = ranges[found];
  return range && address < range.start + range.size ? range : undefined;
}

/** Code callgrind could not name (its "0x..." functions) and the perf map does not hold either. */
export const UNNAMED_JIT = "JIT code without a name";

/**
 * The self cost of every function in a callgrind output written with
 * --dump-instr=yes, unnamed code named from `perfMap` where it holds the
 * address. The cost line after a `calls=` line is the call's inclusive cost,
 * which belongs to the callee, and is skipped.
 */
export function parseCallgrind(text: string, perfMap: readonly CodeRange[]): CallgrindProfile {
  let events: string[] = [];
  let positions = 1;
  const names = new Map<string, string>();
  const byFunction = new Map<string, number[]>();
  let fn = "";
  let address = 0;
  let skipNext = false;
  const add = (name: string, costs: readonly number[]) => {
    let sum = byFunction.get(name);
    if (!sum) byFunction.set(name, (sum = new Array<number>(events.length).fill(0)));
    for (let i = 0; i < costs.length && i < sum.length; i++) sum[i]! += costs[i]!;
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("events:")) events = line.slice(7).trim().split(/\s+/);
    else if (line.startsWith("positions:")) positions = line.slice(10).trim().split(/\s+/).length;
    else if (line.startsWith("fn=")) fn = compressedName(line.slice(3), names);
    else if (line.startsWith("cfn=")) compressedName(line.slice(4), names);
    else if (line.startsWith("calls=")) skipNext = true;
    else if (/^(0x[0-9a-f]+|[+-]\d+|\*)(\s|$)/.test(line)) {
      const fields = line.trim().split(/\s+/);
      const position = fields[0]!;
      if (position.startsWith("0x")) address = parseInt(position, 16);
      else if (position !== "*") address += Number(position);
      if (skipNext) {
        skipNext = false;
        continue;
      }
      const costs = fields.slice(positions).map(Number);
      add(fn.startsWith("0x") ? (rangeAt(perfMap, address)?.name ?? UNNAMED_JIT) : fn, costs);
    }
  }
  if (events.length === 0) throw new Error("not a callgrind output: no events line");
  return { events, byFunction };
}

/** callgrind's name compression: "(id) name" defines an id, "(id)" uses it. */
function compressedName(spec: string, names: Map<string, string>): string {
  const match = /^\((\d+)\)(?: (.*))?$/.exec(spec);
  if (!match) return spec;
  if (match[2] !== undefined) names.set(match[1]!, match[2]);
  return names.get(match[1]!) ?? spec;
}

/** The areas a profile is summed into, in the order they print. */
export const AREAS = [
  "JSON.parse: V8's JSON parser",
  "V8 runtime (objects, strings, maps, GC)",
  "libc, Node and other native code",
  "V8 builtins (property-load stubs, calls, Map)",
  "mcpgen runtime",
  "generated checks, validators and shims",
  "Node's JavaScript (streams, buffers)",
  "the bench's own code (driver, handlers, loop)",
  "V8's optimizing compiler",
  "other JavaScript, stubs and unnamed code",
] as const;
export type Area = (typeof AREAS)[number];

/**
 * Which area a function's costs belong to, by its name (a native symbol or a
 * perf-map name). mcpgen's JavaScript is told apart by path: dist/ in the
 * checkout (tsc's output) or the installed package's bundle (dist/chunks/,
 * whose chunks are generated code but the runtime's own, named in
 * packages/bundle.mjs's chunkOf); a bench script by its folder or, run from an
 * installed project (bench/installed.ts), by that project's folder.
 */
export function areaOf(name: string): Area {
  if (/^JS:/.test(name)) {
    if (/\/generated\/|\/chunks\/(?!(runtime|server|http|client|auth|redis|rolldown-runtime)-)/.test(name))
      return "generated checks, validators and shims";
    if (/\/dist\/(runtime|chunks)\//.test(name)) return "mcpgen runtime";
    if (/\/bench\/|\/mcpgen-bench-installed-[^/]+\/[^/]+\.js/.test(name))
      return "the bench's own code (driver, handlers, loop)";
    if (/ node:/.test(name)) return "Node's JavaScript (streams, buffers)";
    return "other JavaScript, stubs and unnamed code";
  }
  if (/JsonParse|JsonParser/.test(name)) return "JSON.parse: V8's JSON parser";
  if (/^v8::internal::(compiler|maglev|turboshaft)::/.test(name)) return "V8's optimizing compiler";
  if (name.startsWith("Builtins_")) return "V8 builtins (property-load stubs, calls, Map)";
  if (name.startsWith("v8::")) return "V8 runtime (objects, strings, maps, GC)";
  if (name === UNNAMED_JIT || /^[A-Z][A-Za-z]*:/.test(name)) return "other JavaScript, stubs and unnamed code";
  return "libc, Node and other native code";
}

/**
 * Per unit of work: the costs of `full` beyond `base` (the same program run
 * longer), by function, divided by `units`. A JIT function's name carries its
 * source position (":line:col"), which is dropped so that the two runs' names
 * match.
 */
export function difference(base: CallgrindProfile, full: CallgrindProfile, units: number): CallgrindProfile {
  const sums = (profile: CallgrindProfile) => {
    const byName = new Map<string, number[]>();
    for (const [name, costs] of profile.byFunction) {
      const key = name.replace(/:\d+:\d+$/, "");
      const sum = byName.get(key) ?? new Array<number>(full.events.length).fill(0);
      const column = full.events.map((event) => profile.events.indexOf(event));
      column.forEach((from, i) => (sum[i]! += from === -1 ? 0 : (costs[from] ?? 0)));
      byName.set(key, sum);
    }
    return byName;
  };
  const before = sums(base);
  const after = sums(full);
  const byFunction = new Map<string, number[]>();
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(name);
    const b = after.get(name);
    byFunction.set(
      name,
      full.events.map((_, i) => ((b?.[i] ?? 0) - (a?.[i] ?? 0)) / units),
    );
  }
  return { events: full.events, byFunction };
}

/** A profile's costs of the named events, summed by area (and "total"). */
export function byArea(profile: CallgrindProfile, events: readonly string[]): Map<Area | "total", number[]> {
  const columns = events.map((event) => {
    const index = profile.events.indexOf(event);
    if (index === -1) throw new Error(`the profile has no ${event} event (run with --cache-sim=yes --branch-sim=yes)`);
    return index;
  });
  const sums = new Map<Area | "total", number[]>([...AREAS, "total" as const].map((a) => [a, events.map(() => 0)]));
  for (const [name, costs] of profile.byFunction) {
    for (const key of [areaOf(name), "total"] as const) {
      const sum = sums.get(key)!;
      columns.forEach((column, i) => (sum[i]! += costs[column]!));
    }
  }
  return sums;
}

const figure = (value: number) => (Math.abs(value) < 0.05 ? "0" : value.toFixed(Math.abs(value) >= 100 ? 0 : 1));

/**
 * A table's rows, an area a row (and the total): the instructions and L1
 * instruction-cache misses per unit of each profile side by side.
 */
export function areaRows(floor: CallgrindProfile, ours: CallgrindProfile): string[][] {
  const a = byArea(floor, ["Ir", "I1mr"]);
  const b = byArea(ours, ["Ir", "I1mr"]);
  return [...AREAS, "total" as const].map((area) => [
    area,
    figure(a.get(area)![0]!),
    figure(b.get(area)![0]!),
    figure(a.get(area)![1]!),
    figure(b.get(area)![1]!),
  ]);
}

/** Two profiles' totals of an event, as printed. */
export function totals(event: string, ...profiles: CallgrindProfile[]): string[] {
  return profiles.map((profile) => figure(byArea(profile, [event]).get("total")![0]!));
}

/**
 * The JavaScript and V8 builtins (what the program's own code runs, not the
 * native code under it) with the most L1 instruction-cache misses: name with
 * its path from dist/ on, instructions, misses.
 */
export function topFunctions(profile: CallgrindProfile, count: number): string[][] {
  const ir = profile.events.indexOf("Ir");
  const i1 = profile.events.indexOf("I1mr");
  return [...profile.byFunction]
    .filter(([name]) => name.startsWith("JS:") || name.startsWith("Builtins_"))
    .sort(([, a], [, b]) => b[i1]! - a[i1]!)
    .slice(0, count)
    .map(([name, costs]) => [name.replace(/ file:\/\/\S*?\/dist\//, " "), figure(costs[ir]!), figure(costs[i1]!)]);
}
