// The command-line options of a benchmark script, declared once: `--help`
// prints them, and an option the script does not know (or a missing or
// malformed value) stops it before it starts anything, with exit code 2.

export interface OptionSpec {
  /** The flag, e.g. "--rounds". */
  readonly name: string;
  /** What follows it: nothing (a switch), a positive integer, or a word. */
  readonly takes?: "count" | "text";
  /** What it does, for --help. */
  readonly help: string;
  /** The value's name in --help (default "n" for a count, "word" for text). */
  readonly label?: string;
}

export interface Options {
  /** Whether the flag was given. */
  has(name: string): boolean;
  /** The value of a "count" option, or `fallback` when it was not given. */
  number(name: string, fallback: number): number;
  /** The value of a "text" option, or undefined when it was not given. */
  text(name: string): string | undefined;
}

/** Parses `argv` against `specs`: the options, or what is wrong with the first bad argument. */
export function parseOptions(
  specs: readonly OptionSpec[],
  argv: readonly string[],
): { ok: true; options: Options } | { ok: false; error: string } {
  const given = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const spec = specs.find((s) => s.name === arg);
    if (!spec) return { ok: false, error: `unknown option ${JSON.stringify(arg)}` };
    if (given.has(arg)) return { ok: false, error: `${arg} is given twice` };
    if (!spec.takes) {
      given.set(arg, true);
      continue;
    }
    const value = argv[++i];
    if (value === undefined || value.startsWith("--")) return { ok: false, error: `${arg} needs a value` };
    if (spec.takes === "count" && !(Number.isInteger(Number(value)) && Number(value) > 0))
      return { ok: false, error: `${arg} ${JSON.stringify(value)}: must be a positive integer` };
    given.set(arg, value);
  }
  /** The spec of `name`, which the script must have declared as taking one of `kinds`. */
  const specOf = (name: string, kinds: readonly (OptionSpec["takes"] | "any")[]) => {
    const spec = specs.find((s) => s.name === name);
    if (!spec || !(kinds.includes("any") || kinds.includes(spec.takes)))
      throw new TypeError(`${name} is not declared as such an option of this script`);
    return spec;
  };
  return {
    ok: true,
    options: {
      has: (name) => {
        specOf(name, ["any"]);
        return given.has(name);
      },
      number: (name, fallback) => {
        specOf(name, ["count"]);
        const value = given.get(name);
        return value === undefined ? fallback : Number(value);
      },
      text: (name) => {
        specOf(name, ["text"]);
        const value = given.get(name);
        return value === undefined ? undefined : String(value);
      },
    },
  };
}

/** The help text: the script's purpose and each option. */
export function usage(script: string, about: string, specs: readonly OptionSpec[]): string {
  const width = Math.max(...specs.map((s) => optionLabel(s).length), "--help".length);
  const lines = [`usage: node dist/bench/${script} [options]`, "", about, "", "options:"];
  for (const spec of [...specs, { name: "--help", help: "print this and exit" }])
    lines.push(`  ${optionLabel(spec).padEnd(width)}  ${spec.help}`);
  return lines.join("\n");
}

function optionLabel(spec: OptionSpec): string {
  return spec.takes ? `${spec.name} <${spec.label ?? (spec.takes === "text" ? "word" : "n")}>` : spec.name;
}

/**
 * The options of the running script: --help prints the usage and exits 0;
 * anything it does not know prints what and the usage, and exits 2.
 */
export function benchOptions(script: string, about: string, specs: readonly OptionSpec[]): Options {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(usage(script, about, specs));
    process.exit(0);
  }
  const parsed = parseOptions(specs, argv);
  if (!parsed.ok) {
    console.error(`bench/${script}: ${parsed.error}\n\n${usage(script, about, specs)}`);
    process.exit(2);
  }
  return parsed.options;
}

/** Options several scripts share. */
export const sharedOptions = {
  quick: { name: "--quick", help: "tiny counts: checks that every row starts and answers (figures mean nothing)" },
  rounds: (fallback: number): OptionSpec => ({
    name: "--rounds",
    takes: "count",
    help: `measured rounds (default ${fallback}; 1 with --quick)`,
  }),
  only: (alwaysRun: string): OptionSpec => ({
    name: "--only",
    takes: "text",
    label: "words",
    help: `rows whose name contains one of these comma-separated words (${alwaysRun} always run)`,
  }),
} satisfies Record<string, OptionSpec | ((arg: never) => OptionSpec)>;

/** --only's words, or undefined when it was not given. */
export function onlyWords(options: Options): string[] | undefined {
  return options.text("--only")?.split(",");
}
