// generated/<rev>/types.ts: every constant and declaration of the schema, with
// its JSDoc, in code-unit order of name.
import type { Constant, Declaration, Heritage, RevisionModel } from "../model/types.js";
import type { GeneratedFile } from "./printer.js";
import { printDoc, printLiteral, printObjectBody, printType } from "./typescript.js";

export function emitTypes(file: GeneratedFile, model: Pick<RevisionModel, "constants" | "declarations">): void {
  for (const constant of model.constants) file.print(printConstant(constant));
  for (const declaration of model.declarations) file.print(printDeclaration(declaration));
}

function printConstant(constant: Constant): string {
  return `${printDoc(constant.doc)}${exportKeyword(constant)}const ${constant.name} = ${printLiteral(constant.value)};`;
}

function printDeclaration(declaration: Declaration): string {
  const head = `${printDoc(declaration.doc)}${exportKeyword(declaration)}`;
  if (declaration.kind === "alias") return `${head}type ${declaration.name} = ${printType(declaration.type)};`;
  const parents = declaration.extends.map(printHeritage);
  const extendsClause = parents.length > 0 ? ` extends ${parents.join(", ")}` : "";
  return `${head}interface ${declaration.name}${extendsClause} ${printObjectBody(declaration.properties, declaration.indexSignature)}`;
}

function printHeritage(heritage: Heritage): string {
  if (heritage.omit.length === 0) return heritage.name;
  return `Omit<${heritage.name}, ${heritage.omit.map((key) => JSON.stringify(key)).join(" | ")}>`;
}

function exportKeyword(node: { exported: boolean }): string {
  return node.exported ? "export " : "";
}
