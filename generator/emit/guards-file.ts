// generated/<rev>/guards.ts: a type guard per schema type (isX), and classify()
// for the JSON-RPC envelope with the revision's envelope facts as data.
import type { RevisionModel } from "../model/types.js";
import { checkName } from "./checks-file.js";
import type { TypeExportNames } from "./export-names.js";
import { layoutLines } from "./line-layout.js";
import type { GeneratedFile } from "./printer.js";

const runtime = "mcpgen/runtime";

/** Names guards.ts exports besides is<Type>. */
export const guardsFileExports = ["classify", "envelope"] as const;

export function emitGuards(
  file: GeneratedFile,
  model: RevisionModel,
  names: ReadonlyMap<string, TypeExportNames>,
): void {
  const envelope = {
    revision: model.revision,
    jsonrpcVersion: model.facts.jsonrpcVersion,
    batching: model.facts.batching,
    ...model.facts.envelope,
  };
  file.print(
    `
    /** The JSON-RPC envelope of revision ${model.revision}: which schema types the four message shapes are. */
    export const envelope = ${JSON.stringify(envelope, null, 2)} as const satisfies ${file.importType(runtime, "Envelope")};

    /**
     * Says whether a parsed JSON-RPC message is a request, a notification, a
     * result or error response (or, where the revision allows, a batch), or why
     * it is none of them.
     */
    export function classify(message: unknown): ${file.importType(runtime, "Classification")} {
      return ${file.importValue(runtime, "classifyMessage")}(message, envelope);
    }
  `,
    layoutLines,
  );
  printGuards(file, model.declarations, names);
}

/** `is<Type>(value)` for each declaration: its type guard, running its check through the runtime's `test`. */
export function printGuards(
  file: GeneratedFile,
  declarations: readonly { name: string }[],
  names: ReadonlyMap<string, TypeExportNames>,
): void {
  const C = file.importNamespace("./checks.js", "C", { typeOnly: false });
  const T = file.importNamespace("./types.js", "T", { typeOnly: true });
  const test = file.importValue(runtime, "test");
  for (const { name } of declarations)
    file.print(
      `
        export function ${names.get(name)!.guard}(value: unknown): value is ${T}.${name} {
          return ${test}(${C}.${checkName(name)}, value);
        }
      `,
      layoutLines,
    );
}
