// The ajv row: ajv compiled from each revision's schema.json: JSONRPCMessage,
// then the method's type.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { MethodTables, Row } from "./row.js";

type AjvCheck = ((value: unknown) => boolean) | undefined;

export function ajvRow(root: string, methodTables: MethodTables): Row {
  const ajvOf = new Map<
    string,
    { envelope: AjvCheck; type(name: string | null | undefined): AjvCheck; methods: MethodTables[string] }
  >();
  for (const revision of Object.keys(methodTables)) {
    const schemaJson = JSON.parse(readFileSync(join(root, "spec", revision, "schema.json"), "utf8"));
    const ajv = new Ajv2020({ strict: false, formats: { uri: true, "uri-template": true } });
    (addFormats as unknown as (a: Ajv2020, f: string[]) => void)(ajv, ["byte"]);
    ajv.addSchema(schemaJson, "mcp");
    const compiled = new Map<string, AjvCheck>();
    const type = (name: string | null | undefined): AjvCheck => {
      if (!name) return undefined;
      if (!compiled.has(name)) compiled.set(name, ajv.getSchema(`mcp#/$defs/${name}`) as AjvCheck);
      return compiled.get(name);
    };
    ajvOf.set(revision, { envelope: type("JSONRPCMessage"), type, methods: methodTables[revision]! });
  }
  return {
    name: "JSON.parse + ajv",
    receive(text, m) {
      const message = JSON.parse(text) as Record<string, unknown>;
      const ajv = ajvOf.get(m.revision)!;
      if (!ajv.envelope!(message)) return false;
      // The revision's method table from the same lookup as its checks (one lookup a message, as mcpgen's row).
      const methods = ajv.methods;
      if (typeof message["method"] === "string") return ajv.type(methods[message["method"]]?.type)?.(message) === true;
      if ("result" in message) {
        // The response type where there is one: its result may be a union (2026-07-28: X | InputRequiredResult).
        const entry = methods[m.requestMethod!];
        const response = ajv.type(entry?.resultResponse);
        return response ? response(message) : ajv.type(entry?.result)?.(message["result"]) === true;
      }
      return true;
    },
  };
}
