import type { TypeNode } from "./types.js";

/**
 * The schema names a type expression refers to, each once, in order of
 * appearance: declarations, and constants used as `typeof CONST`.
 */
export function referencedNames(type: TypeNode, into: string[] = []): string[] {
  switch (type.kind) {
    case "reference":
      if (!into.includes(type.name)) into.push(type.name);
      break;
    case "literal":
      if (type.constant !== undefined && !into.includes(type.constant)) into.push(type.constant);
      break;
    case "union":
    case "intersection":
      type.members.forEach((m) => referencedNames(m, into));
      break;
    case "array":
      referencedNames(type.element, into);
      break;
    case "tuple":
      type.elements.forEach((e) => referencedNames(e, into));
      break;
    case "object":
      type.properties.forEach((p) => referencedNames(p.type, into));
      if (type.indexSignature) referencedNames(type.indexSignature.type, into);
      break;
  }
  return into;
}
