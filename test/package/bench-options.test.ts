// The benchmark scripts' options (bench/options.ts): what is declared is read,
// anything else stops the script before it starts a server, with exit code 2.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseOptions, usage, type OptionSpec } from "../../bench/options.js";
import { projectRoot } from "../helpers.js";

const SPECS: OptionSpec[] = [
  { name: "--rounds", takes: "count", help: "rounds" },
  { name: "--minutes", takes: "number", help: "minutes" },
  { name: "--only", takes: "text", help: "rows", label: "words" },
  { name: "--quick", help: "short" },
];

describe("parseOptions", () => {
  test("reads switches, counts, numbers and words; fallbacks where not given", () => {
    const parsed = parseOptions(SPECS, ["--quick", "--rounds", "7", "--minutes", "0.5", "--only", "mcpgen,SDK"]);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.options.has("--quick")).toBe(true);
    expect(parsed.options.number("--rounds", 3)).toBe(7);
    expect(parsed.options.number("--minutes", 10)).toBe(0.5);
    expect(parsed.options.text("--only")).toBe("mcpgen,SDK");
    const none = parseOptions(SPECS, []);
    expect(
      none.ok && [none.options.has("--quick"), none.options.number("--rounds", 3), none.options.text("--only")],
    ).toEqual([false, 3, undefined]);
  });

  test.each([
    [["--help-me"], 'unknown option "--help-me"'],
    [["quick"], 'unknown option "quick"'],
    [["--rounds"], "--rounds needs a value"],
    [["--rounds", "--quick"], "--rounds needs a value"],
    [["--rounds", "x"], '--rounds "x": must be a positive integer'],
    [["--rounds", "2.5"], '--rounds "2.5": must be a positive integer'],
    [["--rounds", "0"], '--rounds "0": must be a positive integer'],
    [["--minutes", "-1"], '--minutes "-1": must be a positive number'],
    [["--quick", "--quick"], "--quick is given twice"],
  ])("refuses %j: %s", (argv, error) => {
    expect(parseOptions(SPECS, argv)).toEqual({ ok: false, error });
  });

  test("reading an option the script did not declare, or as another kind, is a programming error", () => {
    const parsed = parseOptions(SPECS, []);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(() => parsed.options.has("--nope")).toThrow(TypeError);
    expect(() => parsed.options.number("--only", 1)).toThrow(TypeError);
    expect(() => parsed.options.text("--rounds")).toThrow(TypeError);
  });

  test("usage names every option with its value and --help", () => {
    const text = usage("x.js", "What x measures.", SPECS);
    for (const line of ["--rounds <n>", "--minutes <n>", "--only <words>", "--quick", "--help"])
      expect(text).toContain(line);
  });
});

describe("the scripts", () => {
  const run = (script: string, args: string[]) =>
    spawnSync(process.execPath, [join(projectRoot, "dist", "bench", script), ...args], {
      cwd: projectRoot,
      encoding: "utf8",
      timeout: 60_000,
    });

  test.each([
    "http.js",
    "stdio.js",
    "stdio-warmup.js",
    "client.js",
    "cluster.js",
    "memory.js",
    "validate.js",
    "generate.js",
  ])("%s stops at an unknown option with exit code 2 and its usage, and --help prints the usage", (script) => {
    const bad = run(script, ["--rounds-typo", "3"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`bench/${script}: unknown option "--rounds-typo"`);
    expect(bad.stderr).toContain(`usage: node dist/bench/${script}`);
    expect(bad.stdout).toBe(""); // nothing measured, nothing started
    const help = run(script, ["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--help");
  });

  test.each(["stdio.js", "stdio-warmup.js"])(
    "%s stops at a --placement it does not know with exit code 2, before starting anything",
    (script) => {
      const bad = run(script, ["--placement", "splat"]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain(`bench/${script}: --placement "splat": split, same, free`);
      expect(bad.stdout).toBe("");
      expect(run(script, ["--help"]).stdout).toContain("--placement <split|same|free>");
    },
  );
});
