// generated/<rev>/validators.ts (and generated/ext/<name>/validators.ts): one
// validate<Type> per schema type, each running its check through
// `runCheck`. The message-level validators and the tables they read are
// tables.ts's.
import { checkName } from "./checks-file.js";
import type { TypeExportNames } from "./export-names.js";
import { codegen, type GeneratedFile } from "./printer.js";

/** `validate<Type>(value)` for each declaration: runs its check through `runCheck`. */
export function printValidators(
  file: GeneratedFile,
  declarations: readonly { name: string }[],
  names: ReadonlyMap<string, TypeExportNames>,
): void {
  const C = file.importNamespace("./checks.js", "C", { typeOnly: false });
  const runCheck = file.importValue(codegen, "runCheck");
  const result = file.importType(codegen, "ValidationResult");
  for (const { name } of declarations)
    file.print(
      `
        /** Validates a value against ${name}. */
        export function ${names.get(name)!.validator}(value: unknown): ${result} {
          return ${runCheck}(${C}.${checkName(name)}, value);
        }
      `,
    );
}
