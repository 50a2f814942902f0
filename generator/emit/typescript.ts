// Prints model nodes as TypeScript source. Output is unformatted (prettier runs
// afterwards) but always valid, with parentheses wherever precedence needs them.
import type { Doc, IndexSignature, Property, TypeNode } from "../model/types.js";

const identifier = /^[A-Za-z_$][\w$]*$/;

export interface PrintOptions {
  /** Print JSDoc of object members (default true). */
  docs?: boolean;
}

export function printType(type: TypeNode, options: PrintOptions = {}): string {
  const printType = (t: TypeNode) => printTypeWith(t, options);
  return printTypeWith(type, options, printType);
}

function printTypeWith(
  type: TypeNode,
  options: PrintOptions,
  printType = (t: TypeNode) => printTypeWith(t, options),
): string {
  switch (type.kind) {
    case "keyword":
      return type.keyword;
    case "literal":
      return type.constant ? `typeof ${type.constant}` : printLiteral(type.value);
    case "reference":
      return type.name;
    case "union":
      return type.members.map((m) => printType(m)).join(" | ");
    case "intersection":
      return type.members.map((m) => (m.kind === "union" ? `(${printType(m)})` : printType(m))).join(" & ");
    case "array": {
      const element = printType(type.element);
      return type.element.kind === "union" || type.element.kind === "intersection" ? `(${element})[]` : `${element}[]`;
    }
    case "tuple":
      return `[${type.elements.map((e) => printType(e)).join(", ")}]`;
    case "object":
      return printObjectBody(type.properties, type.indexSignature, options);
  }
}

export function printLiteral(value: string | number | boolean): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** `{ members }` of an interface or an object literal type. */
export function printObjectBody(
  properties: readonly Property[],
  indexSignature?: IndexSignature,
  options: PrintOptions = {},
): string {
  const doc = (d: Doc) => (options.docs === false ? "" : printDoc(d));
  const members = properties.map(
    (p) => `${doc(p.doc)}${printPropertyName(p.name)}${p.optional ? "?" : ""}: ${printType(p.type, options)};`,
  );
  if (indexSignature) {
    const { keyName, keyType, type } = indexSignature;
    members.push(`${doc(indexSignature.doc)}[${keyName}: ${keyType}]: ${printType(type, options)};`);
  }
  return members.length === 0 ? "{}" : `{\n${members.join("\n")}\n}`;
}

export function printPropertyName(name: string): string {
  return identifier.test(name) ? name : JSON.stringify(name);
}

/** A JSDoc block for a Doc, or "" when it is empty. */
export function printDoc(doc: Doc): string {
  const lines = doc.text === "" ? [] : doc.text.split("\n");
  if (lines.length > 0 && doc.tags.length > 0) lines.push("");
  for (const tag of doc.tags) {
    const [first = "", ...rest] = tag.text.split("\n");
    lines.push(first === "" ? `@${tag.name}` : `@${tag.name} ${first}`, ...rest);
  }
  if (lines.length === 0) return "";
  const safe = lines.map((line) => line.replace(/\*\//g, "*\\/"));
  if (safe.length === 1) return `/** ${safe[0]} */\n`;
  return `/**\n${safe.map((line) => (line === "" ? " *" : ` * ${line}`)).join("\n")}\n */\n`;
}
