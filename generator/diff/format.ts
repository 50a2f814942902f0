// Renders a RevisionDiff: text for a terminal, markdown for a pull request,
// JSON for tools (format "mcpgen-diff/1", documented in the README). Pure.
import type { RevisionModel } from "../model/types.js";
import type { DiffArea, DiffEntry, RevisionDiff } from "./diff.js";

export type DiffFormat = "text" | "markdown" | "json";

/** Areas in the order they are printed: protocol-level first. */
export const areas: readonly DiffArea[] = ["envelope", "methods", "capabilities", "constants", "types", "fields"];
const changes = ["added", "removed", "renamed", "changed"] as const;

const titles: Record<DiffArea, string> = {
  envelope: "JSON-RPC envelope and lifecycle",
  methods: "Methods",
  capabilities: "Capabilities",
  constants: "Constants and error codes",
  types: "Types",
  fields: "Fields",
};

export interface DiffSummary {
  total: number;
  byArea: Record<DiffArea, Record<(typeof changes)[number], number>>;
}

export function summarize(diff: RevisionDiff): DiffSummary {
  const byArea = Object.fromEntries(
    areas.map((a) => [a, { added: 0, removed: 0, renamed: 0, changed: 0 }]),
  ) as DiffSummary["byArea"];
  for (const e of diff.entries) byArea[e.area][e.change]++;
  return { total: diff.entries.length, byArea };
}

/** The one-line summary that heads the text form. */
export function summaryLine(diff: RevisionDiff): string {
  const s = summarize(diff);
  if (s.total === 0) return `${diff.from} → ${diff.to}: no differences`;
  const perArea = areas
    .map((a) => [a, Object.values(s.byArea[a]).reduce((x, y) => x + y, 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([a, n]) => `${a} ${n}`);
  const perChange = changes
    .map((c) => [c, areas.reduce((n, a) => n + s.byArea[a][c], 0)] as const)
    .filter(([, n]) => n > 0);
  return `${diff.from} → ${diff.to}: ${s.total} differences (${perArea.join(", ")}; ${perChange.map(([c, n]) => `${n} ${c}`).join(", ")})`;
}

const shorten = (text: string, max = 110) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * One entry in words, e.g. "tools/call result: CallToolResult → CallToolResult | InputRequiredResult",
 * "Tool.name: constraint @maxLength 128 added", "CompleteResult.completion.values constraint: @maxItems 100 → @maxItems 50".
 */
function describe(e: DiffEntry, code: (s: string) => string): string {
  const value = (v: string | undefined) => code(shorten(v ?? ""));
  if (e.change === "renamed") return `${code(e.subject)} → ${code(e.to!)} (a guess: ${e.note})`;
  if (e.aspect === "member") {
    return `${code(e.subject)}: member ${e.change === "added" ? value(e.to) : value(e.from)} ${e.change}`;
  }
  if (e.aspect === "constraint" && e.change !== "changed") {
    return `${code(e.subject)}: constraint ${e.change === "added" ? value(e.to) : value(e.from)} ${e.change}`;
  }
  if (e.change === "changed")
    return `${code(e.subject)} ${e.aspect}: ${value(e.from)} → ${value(e.to)}${e.note ? ` (${e.note})` : ""}`;
  const shown = e.change === "added" ? e.to : e.from;
  const qualifier = e.aspect ? ` (${e.aspect})` : "";
  const what =
    e.area === "fields" || e.area === "capabilities"
      ? `${qualifier}: ${value(shown)}`
      : e.area === "types" || e.area === "methods"
        ? ` (${shown})`
        : `: ${value(shown)}`;
  return `${code(e.subject)}${what}`;
}

export function formatText(diff: RevisionDiff, options: { color: boolean }): string {
  const paint = (code: string) => (text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const marks: Record<DiffEntry["change"], string> = {
    added: paint("32")("+"),
    removed: paint("31")("-"),
    renamed: paint("36")("≈"),
    changed: paint("33")("~"),
  };
  const lines = [summaryLine(diff)];
  for (const area of areas) {
    const entries = diff.entries.filter((e) => e.area === area);
    if (entries.length === 0) continue;
    lines.push("", paint("1")(titles[area]));
    for (const e of entries) lines.push(`  ${marks[e.change]} ${describe(e, (s) => s)}`);
  }
  return `${lines.join("\n")}\n`;
}

export function formatMarkdown(diff: RevisionDiff): string {
  const s = summarize(diff);
  const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;
  const lines = [`## MCP schema changes: ${diff.from} → ${diff.to}`, ""];
  if (s.total === 0) return `${lines.join("\n")}No differences.\n`;
  lines.push("| area | added | removed | renamed | changed |", "|---|---:|---:|---:|---:|");
  for (const area of areas) {
    const c = s.byArea[area];
    if (c.added + c.removed + c.renamed + c.changed > 0)
      lines.push(`| ${titles[area]} | ${c.added} | ${c.removed} | ${c.renamed} | ${c.changed} |`);
  }
  lines.push(`| **total** | | | | **${s.total}** |`);
  for (const area of areas) {
    const entries = diff.entries.filter((e) => e.area === area);
    if (entries.length === 0) continue;
    lines.push("", `### ${titles[area]}`, "");
    for (const change of changes) {
      for (const e of entries.filter((x) => x.change === change)) {
        lines.push(`- **${change[0]!.toUpperCase()}${change.slice(1)}** ${describe(e, code)}`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The stable JSON form: format "mcpgen-diff/1". */
export function formatJson(diff: RevisionDiff, from: RevisionModel, to: RevisionModel): string {
  const side = (m: RevisionModel) => ({
    revision: m.revision,
    protocolVersion: m.facts.protocolVersion,
    schemaSha256: m.source.sha256,
  });
  const entries = diff.entries.map((e) => ({
    id: e.id,
    area: e.area,
    change: e.change,
    subject: e.subject,
    ...(e.aspect !== undefined ? { aspect: e.aspect } : {}),
    ...(e.from !== undefined ? { from: e.from } : {}),
    ...(e.to !== undefined ? { to: e.to } : {}),
    ...(e.guess ? { guess: true } : {}),
    ...(e.note !== undefined ? { note: e.note } : {}),
  }));
  return `${JSON.stringify({ format: "mcpgen-diff/1", from: side(from), to: side(to), summary: summarize(diff), entries }, null, 2)}\n`;
}

/** `mcpgen diff --all`: the number of differences for every ordered pair. */
export function formatMatrix(
  revisions: readonly string[],
  count: (from: string, to: string) => number,
  format: DiffFormat,
): string {
  if (format === "json") {
    const matrix = Object.fromEntries(
      revisions.map((a) => [a, Object.fromEntries(revisions.map((b) => [b, count(a, b)]))]),
    );
    return `${JSON.stringify({ format: "mcpgen-diff-matrix/1", revisions, differences: matrix }, null, 2)}\n`;
  }
  if (format === "markdown") {
    const head = `| from \\ to | ${revisions.join(" | ")} |`;
    const rule = `|---|${revisions.map(() => "---:").join("|")}|`;
    const rows = revisions.map((a) => `| ${a} | ${revisions.map((b) => String(count(a, b))).join(" | ")} |`);
    return `${[head, rule, ...rows].join("\n")}\n`;
  }
  const width = Math.max(...revisions.map((r) => r.length)) + 2;
  const head = "from \\ to".padEnd(width) + revisions.map((r) => r.padStart(width)).join("");
  const rows = revisions.map(
    (a) => a.padEnd(width) + revisions.map((b) => String(count(a, b)).padStart(width)).join(""),
  );
  return `${["differences between revisions (rows: from, columns: to)", head, ...rows].join("\n")}\n`;
}
