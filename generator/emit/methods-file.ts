// generated/<rev>/methods.ts: the routing table as data, and the type-level
// maps built on it (RequestMap, ParamsOf<M>, ResultOf<M>, ...).
import { referencedNames } from "../model/references.js";
import type { MethodModel, RevisionModel, TypeNode } from "../model/types.js";
import { codegen, type GeneratedFile } from "./printer.js";
import { printType } from "./typescript.js";

const types = "./types.js";

/** Names methods.ts exports; a schema declaring one of them cannot be generated (E_NAME_COLLISION). */
export const methodsFileExports = [
  "ClientNotificationMethod",
  "ClientRequestMethod",
  "Method",
  "NotificationMap",
  "NotificationMethod",
  "ParamsOf",
  "RequestMap",
  "RequestMethod",
  "ResultOf",
  "ServerNotificationMethod",
  "ServerRequestMethod",
  "methods",
] as const;

export function emitMethods(
  file: GeneratedFile,
  model: Pick<RevisionModel, "revision" | "methods">,
  options: {
    /** What the table belongs to, for its doc comment. */
    title?: string;
    /** The module a schema type is imported from (an extension's come from its own types or its base's). */
    typesModule?: (name: string) => string;
  } = {},
): void {
  const title = options.title ?? `revision ${model.revision}`;
  const typesModule = options.typesModule ?? (() => types);
  const requests = model.methods.filter((m) => m.kind === "request");
  const notifications = model.methods.filter((m) => m.kind === "notification");

  // A literal, not JSON.parse: its literal types are what `(typeof methods)[M]` tells a user's code. A row a method.
  const rows = model.methods.map((m) => `${JSON.stringify(m.name)}: ${JSON.stringify(entryOf(m))},`);
  file.print(`
    /**
     * The method routing table of ${title}: one entry per
     * request and notification, keyed by method name.
     */
    export const methods = {
      ${rows.join("\n")}
    } as const satisfies ${file.importType(codegen, "MethodTable")};
  `);

  // Type-level maps: TypeScript types for what the table names as strings.
  const typeOf = (type: TypeNode): string => {
    for (const name of referencedNames(type)) file.importType(typesModule(name), name);
    return printType(type);
  };
  const ref = (name: string) => file.importType(typesModule(name), name);
  file.print(`
    /** For each request: the whole message, its params and the result a response carries. */
    export interface RequestMap {
      ${requests
        .map(
          (m) =>
            `${JSON.stringify(m.name)}: { request: ${ref(m.type)}; params: ${paramsOf(m, ref)}; result: ${m.result ? typeOf(m.result.type) : "unknown"} };`,
        )
        .join("\n")}
    }

    /** For each notification: the whole message and its params. */
    export interface NotificationMap {
      ${notifications
        .map((m) => `${JSON.stringify(m.name)}: { notification: ${ref(m.type)}; params: ${paramsOf(m, ref)} };`)
        .join("\n")}
    }

    export type RequestMethod = keyof RequestMap;
    export type NotificationMethod = keyof NotificationMap;
    export type Method = RequestMethod | NotificationMethod;

    /** The params of a request or notification. */
    export type ParamsOf<M extends Method> = M extends RequestMethod
      ? RequestMap[M]["params"]
      : M extends NotificationMethod ? NotificationMap[M]["params"] : never;

    /** What a successful response to request M carries in \`result\`. */
    export type ResultOf<M extends RequestMethod> = RequestMap[M]["result"];

    /** Requests a client sends (to a server). */
    export type ClientRequestMethod = ${methodUnion(requests, "client")};
    /** Requests a server sends (to a client), including those carried by InputRequiredResult. */
    export type ServerRequestMethod = ${methodUnion(requests, "server")};
    /** Notifications a client sends. */
    export type ClientNotificationMethod = ${methodUnion(notifications, "client")};
    /** Notifications a server sends. */
    export type ServerNotificationMethod = ${methodUnion(notifications, "server")};
  `);
}

/** A method's entry in the table (runtime/index.ts: MethodEntry), its members in the order they are printed. */
function entryOf(method: MethodModel) {
  return {
    kind: method.kind,
    direction: method.direction,
    type: method.type,
    params: method.params?.name ?? null,
    paramsRequired: method.params?.required ?? false,
    result: method.result?.name ?? null,
    resultResponse: method.result?.response ?? null,
    capability: method.capability ? { holder: method.capability.holder, path: method.capability.path } : null,
    inputRequest: method.inputRequest,
  };
}

function paramsOf(method: MethodModel, ref: (name: string) => string): string {
  return method.params ? `${ref(method.type)}["params"]` : "undefined";
}

function methodUnion(methods: readonly MethodModel[], sender: "client" | "server"): string {
  const own = sender === "client" ? "client-to-server" : "server-to-client";
  const names = methods.filter((m) => m.direction === own || m.direction === "both").map((m) => JSON.stringify(m.name));
  return names.length > 0 ? names.join(" | ") : "never";
}
