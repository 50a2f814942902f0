// simple-schema.ts judges tool schemas without ajv; ajv stays the referee.
// Differential: for every schema the module accepts, ajv compiles it, and on a
// seeded corpus of random JSON values both give the same verdict. Schemas
// beyond the subset (or that the meta-schemas refuse) must not be accepted.
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, test } from "vitest";
import { compileSchemaProblems, type ObjectSchema } from "../../runtime/protocol/json-schema.js";
import { simpleSchemaVerdict } from "../../runtime/protocol/simple-schema.js";

const options = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  logger: false,
  addUsedSchema: false,
} as const;
const referees = { "2020-12": new Ajv2020(options), "draft-07": new Ajv(options) };

const SIMPLE: Record<string, unknown>[] = [
  { type: "object" },
  { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  { type: "object", properties: { a: { type: "integer", minimum: 0, maximum: 10 }, b: { type: "number" } } },
  { type: "object", properties: { a: { type: "string", minLength: 2, maxLength: 3 } }, additionalProperties: false },
  { type: "object", properties: { a: { type: ["string", "null"] } }, additionalProperties: { type: "boolean" } },
  { type: "object", additionalProperties: { type: "integer" } },
  { type: "object", properties: { a: { enum: ["x", "y", 1, null, true] }, b: { const: "x" } }, required: ["a", "b"] },
  {
    type: "object",
    properties: {
      list: {
        type: "array",
        items: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        minItems: 1,
        maxItems: 2,
      },
    },
  },
  { type: "object", properties: { a: true, b: false } },
  {
    type: "object",
    properties: {
      a: {
        type: "object",
        properties: { b: { type: "object", properties: { c: { type: "number" } }, required: ["c"] } },
      },
    },
  },
  {
    type: "object",
    title: "t",
    description: "d",
    $comment: "c",
    examples: [{}],
    properties: { a: { type: "string", format: "email", default: "x", readOnly: true, deprecated: false } },
  },
  {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { a: { type: "array", items: { type: "number" } } },
    required: ["a"],
  },
  {
    type: "object",
    properties: { a: { minLength: 1, minimum: 1, minItems: 1, required: ["b"], properties: { b: { type: "null" } } } },
  },
];

const NOT_SIMPLE: Record<string, unknown>[] = [
  { type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "number" }] } } },
  { type: "object", properties: { a: { $ref: "#/$defs/x" } }, $defs: { x: { type: "string" } } },
  { type: "object", patternProperties: { "^x": { type: "string" } } },
  { type: "object", properties: { a: { type: "strng" } } },
  { type: "object", required: ["a", "a"] },
  { type: ["object", "object"] },
  { type: "object", properties: { constructor: { type: "string" } } },
  { type: "object", required: ["toString"] },
  { type: "object", properties: { a: { enum: [{ x: 1 }] } } },
  { type: "object", properties: { a: { minLength: -1 } } },
  { type: "object", title: 3 },
  {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { a: { items: [{ type: "string" }] } },
  },
  { type: "object", properties: { a: { pattern: "^x" } } },
  { type: "object", propertyNames: { maxLength: 3 } },
];

/** A seeded generator of JSON values shaped like tool arguments. */
function* values(count: number): Generator<unknown> {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const names = ["a", "b", "c", "text", "list", "x"];
  const value = (depth: number): unknown => {
    switch (pick(depth > 2 ? ["s", "n", "i", "b", "z"] : ["s", "n", "i", "b", "z", "o", "o", "o", "a"])) {
      case "s":
        return pick(["", "x", "y", "ab", "abc", "abcd", "😀😀", "é"]);
      case "n":
        return pick([0.5, -1.5, 3.25, 1e21, -0]);
      case "i":
        return pick([0, 1, 5, 10, 11, -3]);
      case "b":
        return random() < 0.5;
      case "z":
        return null;
      case "o": {
        const object: Record<string, unknown> = {};
        for (let i = Math.floor(random() * 4); i > 0; i--) object[pick(names)] = value(depth + 1);
        return object;
      }
      default:
        return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    }
  };
  for (let i = 0; i < count; i++) yield value(0);
}

const dialect = (schema: Record<string, unknown>) => (schema["$schema"] === undefined ? "2020-12" : "draft-07");

describe("simple-schema: the verdict without ajv", () => {
  test("every simple schema compiles in ajv, and on 3000 random values both give the same verdict", () => {
    let valid = 0;
    let invalid = 0;
    for (const schema of SIMPLE) {
      const verdict = simpleSchemaVerdict(schema);
      expect(verdict, JSON.stringify(schema)).toBeDefined();
      const referee = referees[dialect(schema)].compile(schema);
      for (const value of values(3000)) {
        const expected = referee(value);
        if (verdict!(value) !== expected)
          expect.fail(`${JSON.stringify(schema)} on ${JSON.stringify(value)}: ajv says ${expected}`);
        if (expected) valid++;
        else invalid++;
      }
    }
    // The corpus exercises both sides of every schema taken together.
    expect(valid).toBeGreaterThan(1000);
    expect(invalid).toBeGreaterThan(1000);
  });

  test("schemas beyond the subset, or that the meta-schemas refuse, are left to ajv", () => {
    for (const schema of NOT_SIMPLE) expect(simpleSchemaVerdict(schema), JSON.stringify(schema)).toBeUndefined();
  });

  test("an invalid value's report is ajv's (pointer, keyword, message)", async () => {
    const schema = SIMPLE[3] as ObjectSchema;
    const problems = await compileSchemaProblems(schema);
    expect(problems({ a: "ab" })).toBeUndefined();
    const referee = referees["2020-12"].compile(schema);
    referee({ a: "abcd", z: 1 });
    expect(problems({ a: "abcd", z: 1 })).toEqual(
      referee.errors!.map((error) => ({
        path: error.instancePath,
        keyword: error.keyword,
        message: error.keyword === "additionalProperties" ? `${error.message} (z)` : error.message,
      })),
    );
  });

  test("a schema ajv refuses is still refused when it first checks a value", async () => {
    const problems = compileSchemaProblems({ type: "object", properties: { a: { type: "strng" } } } as ObjectSchema);
    await expect(problems).rejects.toThrow(/schema is invalid/);
  });
});
