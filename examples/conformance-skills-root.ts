// Where the conformance fixture's skills are (examples/conformance-skills/),
// for the launchers that have a file system: beside this file when run from
// source, two folders up when run from dist/examples/.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The folder of skills the io.modelcontextprotocol/skills scenarios read. */
export function conformanceSkillsRoot(): string {
  const found = ["./conformance-skills/", "../../examples/conformance-skills/"]
    .map((path) => fileURLToPath(new URL(path, import.meta.url)))
    .find((path) => existsSync(path));
  if (!found) throw new Error("conformance fixture: examples/conformance-skills/ not found");
  return found;
}
