// The `yaml` package reads a skill's SKILL.md frontmatter, on the server
// (server.skills()) and on the client (SkillsClient). It is an optional peer
// dependency of mcpgen, like jose and redis: only code that handles skills
// loads it, and without it that code fails saying what to install.

export type ParseYaml = (text: string, options: { schema: "core" }) => unknown;

/** yaml's `parse`; `purpose` says what needed it, for the error when it is not installed. */
export async function loadYaml(purpose: string): Promise<ParseYaml> {
  try {
    return (await import("yaml")).parse as ParseYaml;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new Error(`${purpose} with the \`yaml\` package, which is not installed: npm install yaml`);
  }
}
