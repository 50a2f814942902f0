// The independent oracle: ajv compiled from the upstream schema.json of the
// same revision (draft-07 or 2020-12, as the file declares). Formats as mcpgen
// treats them (runtime/validation.ts): "byte" asserted, with ajv-formats'
// own implementation; "uri" and "uri-template" are annotations.
//
// ajv-formats 3.0.1 compiles its byte pattern with the m flag, so ^...$ match
// per line and "junk\nYQ==" passes; the oracle refuses line terminators before
// asking it, which makes it the single-line pattern it means to be.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { projectRoot } from "../helpers.js";

const ajvFormatsByte = (fullFormats as unknown as Record<string, (text: string) => boolean>)["byte"]!;

/** ajv-formats' byte format, for single-line strings only (see above). */
export const byteFormat = (text: string): boolean => !/[\n\r\u2028\u2029]/.test(text) && ajvFormatsByte(text);

export interface OracleVerdict {
  valid: boolean;
  errors: ErrorObject[];
}

export class SchemaJsonOracle {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();
  readonly definitionsKey: "definitions" | "$defs";
  readonly schema: { definitions?: Record<string, unknown>; $defs?: Record<string, unknown>; $schema: string };

  /**
   * `file`: another schema.json than the revision's (an extension's, an upstream state's), relative to the
   * project or absolute; or the schema itself.
   */
  constructor(
    readonly revision: string,
    file: string | object = join("spec", revision, "schema.json"),
  ) {
    this.schema = typeof file === "string" ? JSON.parse(readFileSync(resolve(projectRoot, file), "utf8")) : file;
    const draft2020 = this.schema.$schema.includes("2020-12");
    this.definitionsKey = draft2020 ? "$defs" : "definitions";
    const options = {
      strict: false,
      allErrors: false,
      verbose: true,
      formats: { uri: true, "uri-template": true },
    } as const;
    this.ajv = draft2020 ? new Ajv2020(options) : new Ajv(options);
    this.ajv.addFormat("byte", byteFormat);
    this.ajv.addSchema(this.schema, "mcp");
  }

  get typeNames(): string[] {
    return Object.keys(this.schema[this.definitionsKey] ?? {});
  }

  validate(type: string, value: unknown): OracleVerdict {
    let validator = this.validators.get(type);
    if (!validator) {
      validator = this.ajv.getSchema(`mcp#/${this.definitionsKey}/${type}`);
      if (!validator) throw new Error(`schema.json of ${this.revision} has no ${type}`);
      this.validators.set(type, validator);
    }
    const valid = validator(value) as boolean;
    return { valid, errors: valid ? [] : [...(validator.errors ?? [])] };
  }

  /** Validates a value against one node of schema.json (its $refs resolve within the file). */
  validateNode(node: unknown, value: unknown): boolean {
    const id = `mcp-node-${this.nodeIds.size}`;
    let validator = this.nodeValidators.get(node);
    if (!validator) {
      const wrapper = {
        $id: id,
        ...(this.definitionsKey === "$defs" ? { $defs: this.schema.$defs } : { definitions: this.schema.definitions }),
        ...(node as object),
      };
      validator = this.ajv.compile(wrapper);
      this.nodeIds.set(node, id);
      this.nodeValidators.set(node, validator);
    }
    return validator(value) as boolean;
  }

  private readonly nodeIds = new Map<unknown, string>();
  private readonly nodeValidators = new Map<unknown, ValidateFunction>();

  /** The schema.json node at a JSON pointer into the file, e.g. "#/definitions/Resource/properties/size". */
  nodeAt(schemaPath: string): unknown {
    return schemaPath
      .replace(/^#\//, "")
      .split("/")
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment], this.schema);
  }
}

/** Every node of the oracle's schema.json by its JSON pointer ("#/..."), to place ajv's errors (ajv keeps the nodes it was given). */
export function schemaPlaces(oracle: SchemaJsonOracle): Map<unknown, string> {
  const places = new Map<unknown, string>();
  const walk = (node: unknown, path: string) => {
    if (typeof node !== "object" || node === null) return;
    places.set(node, path);
    for (const [key, child] of Object.entries(node))
      walk(child, `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  };
  walk(oracle.schema, "#");
  return places;
}
