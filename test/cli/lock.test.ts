// The lock's extension entries: what parseLock accepts and how it names what is wrong (a JSON pointer into the lock).
import { describe, expect, test } from "vitest";
import { parseLock } from "../../generator/lock/lock.js";
import { lock } from "../helpers.js";

const file = { path: "x/schema.ts", url: "https://example.com/x/schema.ts", sha256: "0".repeat(64) };
const extension = {
  name: "x",
  identifier: "com.example/x",
  base: lock.revisions[0]!.name,
  repository: "https://example.com/x",
  commit: "1".repeat(40),
  schema: "x/schema.ts",
  files: [file],
};
const parse = (extensions: unknown) =>
  parseLock(JSON.stringify({ upstream: lock.upstream, revisions: lock.revisions, extensions }), "revisions.json");

describe("extension entries in the lock", () => {
  test("the project's lock pins tasks (an upstream schema.ts) and skills (the project's transcription)", () => {
    expect(lock.extensions!.map((e) => [e.name, e.base, e.schema ?? null, e.projectSchema ?? null])).toEqual([
      ["tasks", "draft", "schema/draft/schema.ts", null],
      ["skills", "2026-07-28", null, "extensions/skills/schema.ts"],
    ]);
  });

  test("an upstream schema or a project schema, exactly one", () => {
    expect(parse([extension]).extensions![0]!.schema).toBe("x/schema.ts");
    const { schema: _, ...projectOnly } = extension;
    expect(parse([{ ...projectOnly, projectSchema: "extensions/x.ts" }]).extensions![0]!.projectSchema).toBe(
      "extensions/x.ts",
    );
    expect(() => parse([{ ...extension, projectSchema: "extensions/x.ts" }])).toThrow(
      `revisions.json: /extensions/0: expected either "schema" (an upstream file) or "projectSchema" (the project's transcription)`,
    );
    expect(() => parse([projectOnly])).toThrow(/\/extensions\/0: expected either "schema"/);
    expect(() => parse([{ ...projectOnly, projectSchema: "../outside.ts" }])).toThrow(
      "revisions.json: /extensions/0/projectSchema: expected a relative path without '..' (from the lock's folder)",
    );
  });

  test("each field is checked, with a pointer to it", () => {
    expect(() => parse([{ ...extension, base: "1999-01-01" }])).toThrow(
      /^revisions\.json: \/extensions\/0\/base: expected a revision this lock pins \(2024-11-05, /,
    );
    expect(() => parse([{ ...extension, schema: "other.ts" }])).toThrow(
      "revisions.json: /extensions/0/schema: expected the path of one of its files (its schema.ts)",
    );
    expect(() => parse([extension, extension])).toThrow(
      "revisions.json: /extensions/1/name: extension x is listed twice",
    );
    expect(() => parse([{ ...extension, commit: "abc" }])).toThrow(
      "revisions.json: /extensions/0/commit: expected a 40-digit commit hash",
    );
    expect(() => parse({})).toThrow("revisions.json: /extensions: expected an array");
  });
});
