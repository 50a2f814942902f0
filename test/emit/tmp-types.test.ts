import { format } from "prettier";
import { it } from "vitest";
import { prettierOptions } from "../../generator/emit/format.js";
import { revisionFiles } from "../../generator/emit/run.js";
import { buildModel } from "../../generator/generate.js";
import { pinnedRevisions, pinnedSource } from "../helpers.js";

function reindent(source: string): string {
  const out: string[] = [];
  let depth = 0;
  for (const raw of source.split("\n")) {
    let line = raw.trim();
    if (line.startsWith("*")) line = " " + line;
    if (line.startsWith("}")) depth--;
    out.push(line === "" ? "" : "  ".repeat(depth) + line);
    if (line.endsWith("{")) depth++;
  }
  return out.join("\n");
}

it("types", async () => {
  const seen = new Set<string>();
  let total = 0, ok = 0, volume = 0, okVolume = 0, shown = 0;
  for (const revision of pinnedRevisions) {
    for (const file of revisionFiles(buildModel(pinnedSource(revision)))) {
      for (const part of file.parts()) {
        if (part.formatted || seen.has(part.text)) continue;
        seen.add(part.text);
        const expected = (await format(part.text, { ...prettierOptions, parser: "typescript" })).trim();
        const key = file.path.replace(/^[^/]*\//, "");
        total++; volume += part.text.length;
        const mine = reindent(part.text);
        const long = mine.split("\n").some((l) => l.length > 100);
        if (mine === expected) { ok++; okVolume += part.text.length; }
        else if (!long && key === "types.ts" && shown++ < 8) console.log(key, "\n--- expected\n" + expected + "\n--- mine\n" + mine);
        (globalThis as any)[key] ??= [0, 0, 0, 0];
        const s = (globalThis as any)[key]; s[0]++; s[1] += part.text.length; if (mine === expected) { s[2]++; s[3] += part.text.length; }
      }
    }
  }
  for (const k of ["types.ts", "validators.ts", "methods.ts", "guards.ts", "index.ts", "revision.ts"]) console.log(k, (globalThis as any)[k]);
  console.log({ total, ok, volume, okVolume });
}, 300000);
