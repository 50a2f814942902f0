// generated/<rev>/tables.ts: what the runtime reads of a revision (its
// envelope facts, and the checks by type, params and results by method in
// messageTables) and the message-level entry points over them: classify,
// validate(type, value), validateParams / validateResult per method and
// validateMessage. Kept apart from the per-type guards and validators
// (guards.ts, validators.ts: ~300 one-line functions a revision) so that a
// server or client loads only this file and checks.ts: packages/bundle.mjs
// leaves the per-type functions in the revision's entry, which only a user's
// own import loads.
import { propertyOf, indexDeclarations } from "../model/resolve.js";
import type { MethodModel, RevisionModel } from "../model/types.js";
import { checkName, type CheckEmitter } from "./checks-file.js";
import { codegen, type GeneratedFile } from "./printer.js";

/** Names tables.ts exports. */
export const tablesFileExports = [
  "TypeName",
  "classify",
  "envelope",
  "messageTables",
  "validate",
  "validateMessage",
  "validateParams",
  "validateResult",
] as const;

export function emitTables(file: GeneratedFile, model: RevisionModel, checks: CheckEmitter): void {
  const C = file.importNamespace("./checks.js", "C", { typeOnly: false });
  const index = indexDeclarations(model.declarations);
  const check = (name: string) => `${C}.${name}`;
  const result = file.importType(codegen, "ValidationResult");
  const envelope = {
    revision: model.revision,
    jsonrpcVersion: model.facts.jsonrpcVersion,
    batching: model.facts.batching,
    ...model.facts.envelope,
  };

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
    /** The JSON-RPC envelope of revision ${model.revision}: which schema types the four message shapes are. */
    export const envelope = ${JSON.stringify(envelope, null, 2)} as const satisfies ${file.importType(codegen, "Envelope")};

    /**
     * Says whether a parsed JSON-RPC message is a request, a notification, a
     * result or error response (or, where the revision allows, a batch), or why
     * it is none of them.
     */
    export function classify(message: unknown): ${file.importType(codegen, "Classification")} {
      return ${file.importValue(codegen, "classifyMessage")}(message, envelope);
    }

    /** The tables validateMessage and the runtime read: checks by type, params and results by method. */
    export const messageTables = {
      envelope,
      methods: ${file.importValue("./methods.js", "methods")},
      checks: {
        ${model.declarations.map((d) => `${JSON.stringify(d.name)}: ${check(checkName(d.name))},`).join("\n")}
      },
      ${methodCheckTables(model.methods, paramsCheck, resultCheck)}
    } as const satisfies ${file.importType(codegen, "MessageTables")};

    /** The name of every schema type of revision ${model.revision}. */
    export type TypeName = keyof typeof messageTables.checks;

    /** Validates a value against a schema type, reporting the first problem with a JSON pointer. */
    export function validate(type: TypeName, value: unknown): ${result} {
      return ${file.importValue(codegen, "validateType")}(messageTables, type, value);
    }

    /** Validates the params of a request or notification (undefined: the message carries none). */
    export function validateParams(method: string, params: unknown): ${result} {
      return ${file.importValue(codegen, "validateMethodParams")}(messageTables, method, params);
    }

    /** Validates the result of a request. */
    export function validateResult(method: string, result: unknown): ${result} {
      return ${file.importValue(codegen, "validateMethodResult")}(messageTables, method, result);
    }

    /**
     * Classifies a JSON-RPC message and validates it against its method's type.
     * For a result response, pass the method of the request it answers.
     */
    export function validateMessage(message: unknown, requestMethod?: string): ${file.importType(codegen, "MessageVerdict")} {
      return ${file.importValue(codegen, "checkMessage")}(message, messageTables, requestMethod);
    }
  `,
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
