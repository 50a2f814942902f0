// generated/ext/<name>/: an extension's types, checks, tables, validators and guards,
// and its facts (identifier, base revision). Base types it uses are imported
// from generated/<base>/ (types and checks), never emitted again, so a value
// of a base type is the same type and passes the same check in both folders.
import { indexDeclarations, propertyOf } from "../model/resolve.js";
import type { ExtensionModel, MethodModel, RevisionModel } from "../model/types.js";
import { CheckEmitter, checkName } from "./checks-file.js";
import { typeExportNames } from "./export-names.js";
import { emitMethods } from "./methods-file.js";
import { codegen, GeneratedFile, type FileLayout, type OutputFile } from "./printer.js";
import { emitTypes } from "./types-file.js";
import { methodCheckTables } from "./tables-file.js";
import { printValidators } from "./validators-file.js";
import { printGuards } from "./guards-file.js";
import { checkReservedNames, outputsOf } from "./run.js";

/** Names an extension's index.ts exports besides its schema's types, is<Type> and validate<Type>. */
export const extensionFileExports = [
  "TypeName",
  "augments",
  "checks",
  "extension",
  "extensionTables",
  "validate",
] as const;

/** The files of one extension's folder, before prettier. */
export function extensionFiles(model: ExtensionModel, base: RevisionModel): GeneratedFile[] {
  checkReservedNames(model.source.file, [...model.constants, ...model.declarations], extensionFileExports, "extension");
  const header = {
    source: `MCP extension ${model.identifier} on schema revision ${model.base}`,
    details: [
      `schema.ts sha256 ${model.source.sha256}${model.source.commit ? `, upstream commit ${model.source.commit}` : ""}`,
    ],
  };
  const at = (name: string, layout?: FileLayout) => new GeneratedFile(`ext/${model.extension}/${name}`, header, layout);
  const baseFolder = `../../${model.base}`;

  const types = at("types.ts", "prettier");
  for (const imported of model.imports) types.importType(`${baseFolder}/types.js`, imported.name);
  emitTypes(types, model);

  const own = new Set(model.declarations.map((d) => d.name));
  const methods = at("methods.ts");
  emitMethods(
    methods,
    { revision: model.base, methods: model.methods },
    {
      title: `extension ${model.identifier}`,
      typesModule: (name) => (own.has(name) ? "./types.js" : `${baseFolder}/types.js`),
    },
  );
  methods.print(`
    /** Requests of ${model.base} that may answer one of the extension's result types instead, once it is negotiated. */
    export const augments = ${JSON.stringify(model.augments, null, 2)} as const;

    /** Requests whose Mcp-Name header (Streamable HTTP) carries a params field, by method: the field. */
    export const nameHeaders = ${JSON.stringify(model.nameHeaders, null, 2)} as const;

    /** Params members whose entries the receiver checks itself (entries it does not expect are ignored), by method. */
    export const selfChecked = ${JSON.stringify(model.selfChecked, null, 2)} as const;
  `);

  const checks = at("checks.ts");
  const emitter = new CheckEmitter({ declarations: [...base.declarations, ...model.declarations] }, checks, {
    own,
    baseChecks: `${baseFolder}/checks.js`,
  });
  emitter.emitDeclarations();

  const names = typeExportNames(model);

  // tables.ts: what the runtime reads, apart from the per-type functions (tables-file.ts says why).
  const tables = at("tables.ts");
  const C = tables.importNamespace("./checks.js", "C", { typeOnly: false });
  const result = tables.importType(codegen, "ValidationResult");
  const runCheck = tables.importValue(codegen, "runCheck");
  tables.print(`
    /** The check of every type the extension declares, by name. */
    export const checks = {
      ${model.declarations.map((d) => `${JSON.stringify(d.name)}: ${C}.${checkName(d.name)},`).join("\n")}
    } as const satisfies { readonly [type: string]: ${tables.importType(codegen, "Check")} };

    /** The name of every type the extension declares. */
    export type TypeName = keyof typeof checks;

    /** Validates a value against one of the extension's types, reporting the first problem with a JSON pointer. */
    export function validate(type: TypeName, value: unknown): ${result} {
      return ${runCheck}(checks[type], value);
    }
  `);
  // The tables the runtime merges into a revision's when the extension is negotiated (runtime/extensions.ts).
  const declarations = indexDeclarations([...base.declarations, ...model.declarations]);
  // A check of a base type lives in the base revision's checks module, not in the extension's.
  const checkRef = (fn: string): string =>
    fn.startsWith("c") && !own.has(fn.slice(1)) && declarations.has(fn.slice(1))
      ? tables.importValue(`${baseFolder}/checks.js`, fn)
      : `${C}.${fn}`;
  const paramsCheck = (method: MethodModel): string => {
    const property = propertyOf({ kind: "reference", name: method.type }, "params", declarations);
    return property ? checkRef(emitter.functionForProperty(property, method.type)) : "null";
  };
  const resultCheck = (method: MethodModel): string =>
    checkRef(emitter.functionFor(method.result!.type, `${method.type}$result`));
  tables.print(
    `
    /** The extension's tables, as the runtime merges them into a revision's (withExtensions). */
    export const extensionTables = {
      name: ${JSON.stringify(model.extension)},
      identifier: ${JSON.stringify(model.identifier)},
      base: ${JSON.stringify(model.base)},
      methods: ${tables.importValue("./methods.js", "methods")},
      checks,
      ${methodCheckTables(model.methods, paramsCheck, resultCheck)}
      augments: ${tables.importValue("./methods.js", "augments")},
      nameHeaders: ${tables.importValue("./methods.js", "nameHeaders")},
      selfChecked: ${tables.importValue("./methods.js", "selfChecked")},
    } as const satisfies ${tables.importType(codegen, "ExtensionTables")};
  `,
  );
  const validators = at("validators.ts");
  printValidators(validators, model.declarations, names);

  emitter.flush(); // last: the tables may have asked for more check functions

  const guards = at("guards.ts");
  printGuards(guards, model.declarations, names);

  const facts = at("extension.ts");
  facts.print(`
    /** The extension: its capability key, its folder name and the revision whose types it builds on. */
    export const extension = ${JSON.stringify(
      { name: model.extension, identifier: model.identifier, base: model.base },
      null,
      2,
    )} as const;
  `);

  const index = at("index.ts", "prettier");
  index.print(`
    export * from "./types.js";
    export * from "./methods.js";
    export * from "./tables.js";
    export * from "./validators.js";
    export * from "./guards.js";
    export * from "./extension.js";
  `);
  return [types, methods, checks, tables, validators, guards, facts, index];
}

/** The output files of one extension's folder. */
export async function extensionOutput(model: ExtensionModel, base: RevisionModel): Promise<OutputFile[]> {
  return outputsOf(extensionFiles(model, base));
}
