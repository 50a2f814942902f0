// generated/<rev>/guards.ts (and generated/ext/<name>/guards.ts): a type
// guard per schema type (is<Type>), each running its check through
// `passesCheck`. classify() is tables.ts's.
import { checkName } from "./checks-file.js";
import type { TypeExportNames } from "./export-names.js";
import { codegen, type GeneratedFile } from "./printer.js";

/** `is<Type>(value)` for each declaration: its type guard, running its check through `passesCheck`. */
export function printGuards(
  file: GeneratedFile,
  declarations: readonly { name: string }[],
  names: ReadonlyMap<string, TypeExportNames>,
): void {
  const C = file.importNamespace("./checks.js", "C", { typeOnly: false });
  const T = file.importNamespace("./types.js", "T", { typeOnly: true });
  const passesCheck = file.importValue(codegen, "passesCheck");
  for (const { name } of declarations)
    file.print(
      `
        export function ${names.get(name)!.guard}(value: unknown): value is ${T}.${name} {
          return ${passesCheck}(${C}.${checkName(name)}, value);
        }
      `,
    );
}
