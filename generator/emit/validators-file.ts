// generated/<rev>/validators.ts: validate(type, value), one validateX per
// schema type, validateParams / validateResult per method, validateMessage,
// and the tables they read (messageTables), all calling into mcpgen/runtime.
import { propertyOf, indexDeclarations } from "../model/resolve.js";
import type { MethodModel, RevisionModel } from "../model/types.js";
import { checkName, type CheckEmitter } from "./checks-file.js";
import type { TypeExportNames } from "./export-names.js";
import { layoutLines } from "./line-layout.js";
import type { GeneratedFile } from "./printer.js";

const runtime = "mcpgen/runtime";

/** Names validators.ts exports besides validate<Type>. */
export const validatorsFileExports = [
  "TypeName",
  "messageTables",
  "validate",
  "validateMessage",
  "validateParams",
  "validateResult",
] as const;

export function emitValidators(
  file: GeneratedFile,
  model: RevisionModel,
  checks: CheckEmitter,
  names: ReadonlyMap<string, TypeExportNames>,
): void {
  const C = file.importNamespace("./checks.js", "C", { typeOnly: false });
  const index = indexDeclarations(model.declarations);
  const check = (name: string) => `${C}.${name}`;
  const result = file.importType(runtime, "ValidationResult");

  // The params check of a method: its message type's `params` property, as the message's own check reads it.
  const paramsCheck = (method: MethodModel): string => {
    const property = propertyOf({ kind: "reference", name: method.type }, "params", index);
    return property ? check(checks.functionForProperty(property, method.type)) : "null";
  };
  const resultCheck = (method: MethodModel): string => {
    const response = method.result!.response;
    const property = response && propertyOf({ kind: "reference", name: response }, "result", index);
    return check(
      property
        ? checks.functionForProperty(property, response)
        : checks.functionFor(method.result!.type, `${method.type}$result`),
    );
  };

  file.print(
    `
    /** The tables validateMessage and the runtime read: checks by type, params and results by method. */
    export const messageTables = {
      envelope: ${file.importValue("./guards.js", "envelope")},
      methods: ${file.importValue("./methods.js", "methods")},
      checks: {
        ${model.declarations.map((d) => `${JSON.stringify(d.name)}: ${check(checkName(d.name))},`).join("\n")}
      },
      ${methodCheckTables(model.methods, paramsCheck, resultCheck)}
    } as const satisfies ${file.importType(runtime, "MessageTables")};

    /** The name of every schema type of revision ${model.revision}. */
    export type TypeName = keyof typeof messageTables.checks;

    /** Validates a value against a schema type, reporting the first problem with a JSON pointer. */
    export function validate(type: TypeName, value: unknown): ${result} {
      return ${file.importValue(runtime, "validateType")}(messageTables, type, value);
    }

    /** Validates the params of a request or notification (undefined: the message carries none). */
    export function validateParams(method: string, params: unknown): ${result} {
      return ${file.importValue(runtime, "validateMethodParams")}(messageTables, method, params);
    }

    /** Validates the result of a request. */
    export function validateResult(method: string, result: unknown): ${result} {
      return ${file.importValue(runtime, "validateMethodResult")}(messageTables, method, result);
    }

    /**
     * Classifies a JSON-RPC message and validates it against its method's type.
     * For a result response, pass the method of the request it answers.
     */
    export function validateMessage(message: unknown, requestMethod?: string): ${file.importType(runtime, "MessageVerdict")} {
      return ${file.importValue(runtime, "checkMessage")}(message, messageTables, requestMethod);
    }
  `,
    layoutLines,
  );

  printValidators(file, model.declarations, names);
}

/** `validate<Type>(value)` for each declaration: runs its check through the runtime's `run`. */
export function printValidators(
  file: GeneratedFile,
  declarations: readonly { name: string }[],
  names: ReadonlyMap<string, TypeExportNames>,
): void {
  const C = file.importNamespace("./checks.js", "C", { typeOnly: false });
  const run = file.importValue(runtime, "run");
  const result = file.importType(runtime, "ValidationResult");
  for (const { name } of declarations)
    file.print(
      `
        /** Validates a value against ${name}. */
        export function ${names.get(name)!.validator}(value: unknown): ${result} {
          return ${run}(${C}.${checkName(name)}, value);
        }
      `,
      layoutLines,
    );
}

/** The `params` and `results` members of a tables object: each method's params check, each request's result check. */
export function methodCheckTables(
  methods: readonly MethodModel[],
  paramsCheck: (method: MethodModel) => string,
  resultCheck: (method: MethodModel) => string,
): string {
  const entries = (list: readonly MethodModel[], check: (method: MethodModel) => string) =>
    list.map((m) => `${JSON.stringify(m.name)}: ${check(m)},`).join("\n");
  return `params: {\n${entries(methods, paramsCheck)}\n},\nresults: {\n${entries(
    methods.filter((m) => m.result),
    resultCheck,
  )}\n},`;
}
