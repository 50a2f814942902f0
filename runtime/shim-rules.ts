// The semantic rules the shim overlay (generator/overlay/shims.ts) refers to by
// name: what a conversion does where the diff alone cannot decide. Each says
// what it does to the value and reports the change.
import { DROP, ShimError, type Shape, type ShimRule } from "./shims.js";
import { isObject } from "./validation.js";

/**
 * A content block the target revision lacks (audio before 2025-03-26, a
 * resource link before 2025-06-18) becomes a text block that says what it was,
 * so that the reader learns something was there.
 */
const contentAsText: ShimRule = (value, context) => {
  if (!isObject(value)) return DROP;
  const text = describeContent(value);
  context.change("mapped", `${String(value["type"])} content is a text block in ${context.to.revision}: ${text}`);
  return { type: "text", text };
};

function describeContent(block: Record<string, unknown>): string {
  switch (block["type"]) {
    case "audio": {
      const data = typeof block["data"] === "string" ? block["data"] : "";
      return `[audio content omitted: ${String(block["mimeType"] ?? "unknown type")}, ${Math.floor((data.length * 3) / 4)} bytes]`;
    }
    case "resource_link": {
      const description = typeof block["description"] === "string" ? ` (${block["description"]})` : "";
      return `[resource link: ${String(block["name"] ?? "")} <${String(block["uri"] ?? "")}>${description}]`;
    }
    default:
      return `[${String(block["type"] ?? "unknown")} content omitted]`;
  }
}

/**
 * Structured tool output a target cannot carry (no structuredContent before
 * 2025-06-18; only objects before 2026-07-28) moves into a text block with its
 * JSON, as tools SHOULD return it for backwards compatibility
 * (2025-06-18 server/tools#structured-content), unless a text block with that
 * JSON is already there. Applies to CallToolResult and ToolResultContent.
 */
const structuredContentAsText: ShimRule = (value, context) => {
  if (!isObject(value) || value["structuredContent"] === undefined || !context.type) return value;
  const structured = value["structuredContent"];
  const field = structuredContentField(context.to.types[context.type]);
  const takesAny = field?.type.kind === "keyword" && (field.type.keyword === "unknown" || field.type.keyword === "any");
  if (field && (takesAny || isObject(structured))) return value;
  const json = JSON.stringify(structured);
  const content = Array.isArray(value["content"]) ? value["content"] : [];
  const present = content.some((block) => isObject(block) && block["type"] === "text" && block["text"] === json);
  const { structuredContent: _moved, ...rest } = value;
  const where = field ? "not an object there" : "no structuredContent there";
  if (present) {
    context.change(
      "dropped",
      `structuredContent is dropped in ${context.to.revision} (${where}); a text block already has its JSON`,
      "/structuredContent",
    );
    return rest;
  }
  // Both ends of the move: the field that went, and the block that came.
  context.change(
    "mapped",
    `structuredContent is moved into a text block (/content/${content.length}) in ${context.to.revision} (${where})`,
    "/structuredContent",
  );
  context.change("mapped", `a text block with the JSON of structuredContent`, `/content/${content.length}`);
  return { ...rest, content: [...content, { type: "text", text: json }] };
};

/**
 * A sampling message whose content is an array of blocks (2025-11-25) becomes
 * its one block for a target where content is a single block; with several
 * blocks there is no faithful single one, and the conversion is refused.
 */
const singleContentBlock: ShimRule = (value, context) => {
  if (Array.isArray(value) && value.length === 1) {
    context.change("mapped", `a one-block content array is its block in ${context.to.revision}`);
    return value[0];
  }
  throw new ShimError(
    `content with ${Array.isArray(value) ? value.length : "no"} blocks has no single-block form`,
    context.from.revision,
    context.to.revision,
    context.path,
  );
};

const structuredContentField = (target: Shape | undefined) =>
  target?.kind === "object" ? target.properties.find((p) => p.name === "structuredContent") : undefined;

export const shimRules: { readonly [name: string]: ShimRule } = {
  contentAsText,
  singleContentBlock,
  structuredContentAsText,
};

/**
 * For a rule, whether it leaves every value the target type's generated check
 * accepts as it is, given the target type's shape. The generator asks this of
 * each hook of a step's shortcut (generator/shims/shortcuts.ts) and leaves out
 * those that would; a rule without an entry is always run.
 */
export const leavesFittingValues: { readonly [name: string]: (target: Shape | undefined) => boolean } = {
  // A value that passes a check declaring structuredContent has it in a form the target takes (an object where
  // the field is one, any value where it is unknown): the rule returns it as it is.
  structuredContentAsText: (target) => structuredContentField(target) !== undefined,
};
