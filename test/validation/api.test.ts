// The generated validation API of real revisions: first errors with JSON
// pointers and keywords, classify() reasons, per-method params and results,
// whole messages, guards, and hostile input. Plus the runtime helpers.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { codePointLength, isBase64, pointer, roundTrips } from "../../runtime/validation.js";
import type { Classification, MessageVerdict } from "../../runtime/messages.js";
import type { ValidationResult } from "../../runtime/validation.js";
import { importGenerated, projectRoot } from "../helpers.js";
import { byteFormat } from "./oracle.js";

interface Revision {
  validate(type: string, value: unknown): ValidationResult;
  validateParams(method: string, params: unknown): ValidationResult;
  validateResult(method: string, result: unknown): ValidationResult;
  validateMessage(message: unknown, requestMethod?: string): MessageVerdict;
  classify(message: unknown): Classification;
  [name: string]: unknown;
}

const revisions: Record<string, Revision> = {};
beforeAll(async () => {
  for (const name of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]) {
    revisions[name] = await importGenerated<Revision>(name, "index");
  }
});
const r = (name: string) => revisions[name]!;
const error = (path: string, keyword: string, message: string) => ({
  valid: false,
  errors: [{ path, keyword, message }],
});

/** isBase64 (under Node: the native decoder) and its portable path (atob round trip, then the scan) both give `expected`. */
function bothAgree(text: string, label: string, expected: boolean): void {
  expect(isBase64(text), label).toBe(expected);
  expect(roundTrips(text), `${label} (round trip)`).toBe(expected);
}

describe("runtime helpers", () => {
  test.each([
    ["", true],
    ["YQ==", true],
    ["aGk=", true],
    ["aGVsbG8=", true],
    ["+/+/", true],
    ["abc", false],
    ["ab=c", false],
    ["a===", false],
    ["====", false],
    ["aGk", false],
    ["a b=", false],
    ["aGVs\nbG8=", false],
    ["aGVsbG8-", false],
    ["YR==", true], // not canonical (non-zero padding bits), still the "byte" format
    ["YQ ==", false],
    ["-_-_", false],
  ])("isBase64(%j) = %s", (value, expected) => {
    expect(isBase64(value)).toBe(expected);
  });

  test("isBase64 agrees with ajv-formats' byte format on 20,000 random strings", () => {
    const byte = byteFormat; // ajv-formats' own check, on single-line strings (see oracle.ts)
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    // Also characters above U+00FF whose low byte is a base64 character ("ń" is 0x144, "Ł" 0x141, "ū" 0x16b).
    const noise = ["=", " ", "\n", "-", "_", "é", "\u0000", "ń", "Ł", "ū", "\uff24", "\u00c4", "\u0100"];
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 20_000; i++) {
      let text = "";
      const length = random(13);
      for (let j = 0; j < length; j++)
        text += random(10) === 0 ? noise[random(noise.length)] : alphabet[random(alphabet.length)];
      if (random(3) === 0) text += "=".repeat(random(3));
      bothAgree(text, JSON.stringify(text), byte(text));
    }
  });

  test("isBase64 agrees with ajv-formats' byte format for every character at every place of a quantum, and on blobs decoded in pieces", () => {
    const byte = byteFormat;
    for (let code = 0; code < 0x180; code++) {
      const c = String.fromCharCode(code);
      for (const text of [
        `${c}QUJD`,
        `QU${c}DRA==`.slice(0, 8),
        `QUJD${c}Q==`.slice(0, 8),
        `QUJDRE${c}=`,
        `QUJDREV${c}`,
      ])
        bothAgree(text, JSON.stringify(text), byte(text));
    }
    // Past the 65,536 characters decoded at a time: a fault in any piece, padding inside, at the seams.
    const long = "QUJD".repeat(40_000); // 160,000 characters: three pieces
    expect(isBase64(long)).toBe(true);
    expect(isBase64(`${long.slice(0, -2)}==`)).toBe(true);
    for (const at of [0, 65_535, 65_536, 65_537, 131_071, 131_072, 159_999]) {
      for (const c of ["!", "=", "-", "ń", " "]) {
        const text = long.slice(0, at) + c + long.slice(at + 1);
        bothAgree(text, `${JSON.stringify(c)} at ${at}`, byte(text));
      }
    }
    expect(isBase64(`${long.slice(0, 65_534)}==${long.slice(65_536)}`)).toBe(false); // padding ends a piece, not the blob
  });

  test("a blob is decoded once per message: a bad one is still reported where it is, and the next message's blob is judged anew", async () => {
    const { validate, validateMessage } = await importGenerated<Revision>("2025-11-25", "tables");
    const good = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256)).toString("base64");
    const bad = `${good.slice(0, -4)}ab!=`;
    const image = (data: string) => ({ type: "image", data, mimeType: "image/png" });
    const message = (data: string) => ({ jsonrpc: "2.0", id: 1, result: { content: [image(data)] } });
    expect(validate("ImageContent", image(bad))).toEqual({
      valid: false,
      errors: [{ path: "/data", keyword: "format", message: 'must be base64 (format "byte")' }],
    });
    // The failing message is checked again for its report; its blob is decoded once.
    const decode = vi.spyOn(Buffer, "byteLength"); // decodesExactly's first step, once per blob
    try {
      expect(validateMessage(message(bad), "tools/call").result.valid).toBe(false);
      expect(decode).toHaveBeenCalledTimes(1);
    } finally {
      decode.mockRestore();
    }
    expect(validateMessage(message(good), "tools/call").result).toEqual({ valid: true });
    expect(validateMessage(message(bad), "tools/call").result.valid).toBe(false);
    expect(validate("ImageContent", image(good))).toEqual({ valid: true });
  });

  test("codePointLength counts a surrogate pair once", () => {
    expect(codePointLength("a😀b")).toBe(3);
    expect("a😀b".length).toBe(4);
  });

  test("pointer escapes ~ and / (RFC 6901)", () => {
    expect(pointer(["a/b", "c~d", 0])).toBe("/a~1b/c~0d/0");
    expect(pointer([])).toBe("");
  });
});

describe("validate: the first problem, with a JSON pointer and a keyword", () => {
  test.each([
    ["a valid result", { content: [{ type: "text", text: "hi" }] }, { valid: true }],
    ["a missing required property", {}, error("/content", "required", "is required")],
    [
      "a wrong type deep inside an array",
      {
        content: [
          { type: "text", text: "ok" },
          { type: "text", text: 5 },
        ],
      },
      error("/content/1/text", "type", "must be string"),
    ],
    [
      "an unknown discriminant of a tagged union",
      { content: [{ type: "video" }] },
      error("/content/0/type", "enum", 'must be one of "text", "image", "audio", "resource_link", "resource"'),
    ],
    [
      "a blob that is not base64",
      { content: [{ type: "image", data: "not base64!", mimeType: "image/png" }] },
      error("/content/0/data", "format", 'must be base64 (format "byte")'),
    ],
    [
      "a number below its @minimum",
      { content: [{ type: "text", text: "x", annotations: { priority: -0.5 } }] },
      error("/content/0/annotations/priority", "minimum", "must be >= 0"),
    ],
    [
      "unknown extra properties are accepted",
      { content: [], somethingNew: { deep: [1] }, _meta: { "x/y": 1 } },
      { valid: true },
    ],
    ["an array where an object belongs", [], error("", "type", "must be an object")],
  ])("CallToolResult (2025-06-18): %s", (_, value, expected) => {
    expect(r("2025-06-18").validate("CallToolResult", value)).toEqual(expected);
  });

  test("number is any number, as schema.ts says (schema.json says integer: modelcontextprotocol#2698)", () => {
    expect(r("2025-06-18").validate("Resource", { uri: "file:///a", name: "a", size: 1.5 })).toEqual({ valid: true });
  });

  test("@TJS-type number and literal constants", () => {
    const progress = {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "t", progress: 0.25 },
    };
    expect(r("2025-11-25").validate("ProgressNotification", progress)).toEqual({ valid: true });
    expect(r("2025-11-25").validate("ProgressNotification", { ...progress, jsonrpc: "1.0" })).toEqual(
      error("/jsonrpc", "const", 'must be "2.0"'),
    );
  });

  test("@nullable: Task.ttl is a number or null", () => {
    const task = {
      taskId: "t",
      status: "working",
      createdAt: "2025-01-01T00:00:00Z",
      lastUpdatedAt: "2025-01-01T00:00:00Z",
      ttl: null,
    };
    expect(r("2025-11-25").validate("Task", task)).toEqual({ valid: true });
    expect(r("2025-11-25").validate("Task", { ...task, ttl: "forever" })).toEqual(
      error("/ttl", "type", "must be number or null"),
    );
  });

  test("a union without a discriminant reports anyOf, or the one member that fits the JSON type", () => {
    // ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams; both are objects, so anyOf.
    expect(r("2025-11-25").validate("ElicitRequestParams", { message: 1 })).toEqual(
      error("", "anyOf", "must match one of: ElicitRequestFormParams, ElicitRequestURLParams"),
    );
    expect(r("2025-11-25").validate("ElicitRequestParams", "text")).toEqual(
      error("", "anyOf", "must match one of: ElicitRequestFormParams, ElicitRequestURLParams"),
    );
  });

  test("an unknown type name is a programming error", () => {
    expect(() => r("2025-06-18").validate("NoSuchType", {})).toThrow("NoSuchType is not a type of revision 2025-06-18");
    expect(() => r("2025-06-18").validate("toString", {})).toThrow("toString is not a type of revision 2025-06-18");
  });

  test("each type has a named validator; Result's is renamed where validateResult is taken", () => {
    const latest = r("2026-07-28");
    expect((latest["validateCallToolRequest"] as (v: unknown) => ValidationResult)({})).toEqual(
      error("/method", "required", "is required"),
    );
    expect(typeof latest["validateResult"]).toBe("function"); // the per-method one
    expect((latest["validateResultType"] as (v: unknown) => ValidationResult)("complete")).toEqual({ valid: true }); // type ResultType
    expect((latest["validateResultType2"] as (v: unknown) => ValidationResult)({ resultType: "complete" })).toEqual({
      valid: true,
    }); // type Result
  });
});

describe("hostile input", () => {
  // In a Node process of its own, on the compiled package code: vitest's module runner reaches every
  // import through a getter, and a stack exhausted inside one of those surfaces as a TypeError.
  test("nesting deep enough to exhaust the stack is refused, not a crash", () => {
    const script = `
      const r = await import(${JSON.stringify(pathToFileURL(join(projectRoot, "dist/generated/2026-07-28/index.js")).href)});
      let deep = "leaf";
      for (let i = 0; i < 200_000; i++) deep = [deep];
      console.log(JSON.stringify([r.validate("JSONValue", deep), r.isJSONValue(deep)]));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([error("", "depth", "is nested too deeply to check"), false]);
    // A shallow one is fine.
    expect(r("2026-07-28").validate("JSONValue", [[[["leaf", null, 1.5]]]])).toEqual({ valid: true });
  });

  test('"__proto__" keys from JSON.parse are checked as the own properties they are', () => {
    const content = JSON.parse('{"__proto__": 5, "ok": "yes"}');
    const result = { action: "accept", content };
    // ElicitResult.content: { [key: string]: string | number | boolean | string[] }: 5 is fine...
    expect(r("2025-11-25").validate("ElicitResult", result)).toEqual({ valid: true });
    // ...an object is not, even under __proto__.
    const bad = JSON.parse('{"action": "accept", "content": {"__proto__": {"x": 1}}}');
    expect(r("2025-11-25").validate("ElicitResult", bad)).toEqual(
      error("/content/__proto__", "anyOf", "must match one of: string, number, boolean, string[]"),
    );
  });
});

describe("classify: the JSON-RPC envelope", () => {
  test.each<[string, unknown, Classification]>([
    ["a request", { jsonrpc: "2.0", id: 1, method: "ping" }, { kind: "request", method: "ping", id: 1 }],
    [
      "a notification",
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { kind: "notification", method: "notifications/initialized" },
    ],
    ["a result response", { jsonrpc: "2.0", id: "a", result: {} }, { kind: "result", id: "a" }],
    ["an error response", { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "no" } }, { kind: "error", id: 2 }],
    ["not an object", "hello", { kind: "invalid", reason: "a JSON-RPC message must be an object", path: "" }],
    [
      "missing jsonrpc",
      { id: 1, method: "ping" },
      { kind: "invalid", reason: "missing jsonrpc", path: "/jsonrpc", id: 1 },
    ],
    [
      "a wrong jsonrpc",
      { jsonrpc: "1.0", id: 1, method: "ping" },
      { kind: "invalid", reason: 'jsonrpc must be "2.0"', path: "/jsonrpc", id: 1 },
    ],
    [
      "a null id",
      { jsonrpc: "2.0", id: null, method: "ping" },
      { kind: "invalid", reason: "id must not be null", path: "/id" },
    ],
    [
      "an object id",
      { jsonrpc: "2.0", id: {}, method: "ping" },
      { kind: "invalid", reason: "id must be a string or a number", path: "/id" },
    ],
    [
      "a numeric method",
      { jsonrpc: "2.0", id: 1, method: 7 },
      { kind: "invalid", reason: "method must be a string", path: "/method", id: 1 },
    ],
    [
      "array params",
      { jsonrpc: "2.0", id: 1, method: "ping", params: [] },
      { kind: "invalid", reason: "params must be an object", path: "/params", id: 1 },
    ],
    [
      "both result and error",
      { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "m" } },
      { kind: "invalid", reason: "a response must not carry both result and error", path: "/error", id: 1 },
    ],
    [
      "a result without id",
      { jsonrpc: "2.0", result: {} },
      { kind: "invalid", reason: "a result response must carry the request's id", path: "/id" },
    ],
    [
      "a non-object result",
      { jsonrpc: "2.0", id: 1, result: 5 },
      { kind: "invalid", reason: "result must be an object", path: "/result", id: 1 },
    ],
    [
      "a malformed error",
      { jsonrpc: "2.0", id: 1, error: { message: "m" } },
      {
        kind: "invalid",
        reason: "error must be an object with a numeric code and a string message",
        path: "/error",
        id: 1,
      },
    ],
    [
      "an error without id before 2025-11-25",
      { jsonrpc: "2.0", error: { code: -32700, message: "parse error" } },
      { kind: "invalid", reason: "an error response must carry an id in revision 2025-06-18", path: "/id" },
    ],
    [
      "an empty object",
      { jsonrpc: "2.0" },
      { kind: "invalid", reason: "a message needs a method (request, notification), a result or an error", path: "" },
    ],
    [
      "a batch where batches are not allowed",
      [{ jsonrpc: "2.0", method: "ping", id: 1 }],
      { kind: "invalid", reason: "a JSON-RPC batch (array) is not allowed in revision 2025-06-18", path: "" },
    ],
  ])("2025-06-18: %s", (_, message, expected) => {
    expect(r("2025-06-18").classify(message)).toEqual(expected);
  });

  test("2025-11-25 allows an error response without id", () => {
    expect(r("2025-11-25").classify({ jsonrpc: "2.0", error: { code: -32700, message: "parse error" } })).toEqual({
      kind: "error",
      id: undefined,
    });
  });

  test("2025-03-26 allows batches, classifying each member", () => {
    expect(
      r("2025-03-26").classify([
        { jsonrpc: "2.0", method: "ping", id: 1 },
        { jsonrpc: "2.0", id: null, method: "x" },
      ]),
    ).toEqual({
      kind: "batch",
      messages: [
        { kind: "request", method: "ping", id: 1 },
        { kind: "invalid", reason: "id must not be null", path: "/1/id" },
      ],
    });
    expect(r("2025-03-26").classify([])).toEqual({
      kind: "invalid",
      reason: "an empty batch is not a valid JSON-RPC message",
      path: "",
    });
  });
});

describe("per method: params, results, whole messages", () => {
  test("validateParams", () => {
    const v = r("2025-06-18");
    expect(v.validateParams("tools/call", { name: "echo", arguments: { x: 1 } })).toEqual({ valid: true });
    expect(v.validateParams("tools/call", { arguments: {} })).toEqual(error("/name", "required", "is required"));
    expect(v.validateParams("tools/call", undefined)).toEqual(error("", "required", "params is required"));
    expect(v.validateParams("tools/list", undefined)).toEqual({ valid: true });
    expect(v.validateParams("notifications/progress", { progressToken: 1, progress: "half" })).toEqual(
      error("/progress", "type", "must be number"),
    );
    expect(v.validateParams("no/such", {})).toEqual(
      error("", "method", "no/such is not a method of revision 2025-06-18"),
    );
  });

  test("validateResult follows the method's result, including InputRequiredResult in 2026-07-28", () => {
    expect(
      r("2025-06-18").validateResult("tools/list", { tools: [{ name: "t", inputSchema: { type: "object" } }] }),
    ).toEqual({ valid: true });
    expect(r("2025-06-18").validateResult("tools/list", { tools: [{ name: "t" }] })).toEqual(
      error("/tools/0/inputSchema", "required", "is required"),
    );
    expect(r("2026-07-28").validateResult("tools/call", { resultType: "input_required", requestState: "abc" })).toEqual(
      { valid: true },
    );
    expect(r("2025-06-18").validateResult("ping", {})).toEqual({ valid: true });
    expect(r("2025-06-18").validateResult("notifications/progress", {})).toEqual(
      error("", "method", "notifications/progress is not a request of revision 2025-06-18"),
    );
  });

  test("validateMessage: a request is checked against its method's message type", () => {
    const v = r("2025-06-18");
    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo" } };
    expect(v.validateMessage(call)).toEqual({
      classification: { kind: "request", method: "tools/call", id: 3 },
      method: "tools/call",
      type: "CallToolRequest",
      result: { valid: true },
    });
    expect(v.validateMessage({ ...call, params: { name: 1 } }).result).toEqual(
      error("/params/name", "type", "must be string"),
    );
    expect(v.validateMessage({ ...call, method: "tools/frobnicate" }).result).toEqual(
      error("/method", "method", "tools/frobnicate is not a method of revision 2025-06-18"),
    );
    expect(v.validateMessage({ jsonrpc: "2.0", method: "tools/call" }).result).toEqual(
      error("/id", "method", "tools/call is a request in revision 2025-06-18"),
    );
  });

  test("validateMessage: a response is checked against the result of the request it answers", () => {
    const v = r("2025-06-18");
    const response = { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: 5 }] } };
    expect(v.validateMessage(response).result).toEqual({ valid: true }); // without the method, only the envelope
    expect(v.validateMessage(response, "tools/call")).toEqual({
      classification: { kind: "result", id: 3 },
      method: "tools/call",
      type: "CallToolResult",
      result: error("/result/content/0/text", "type", "must be string"),
    });
  });

  test("validateMessage: 2026-07-28 refuses sampling sent as a message of its own", () => {
    const sampling = {
      jsonrpc: "2.0",
      id: 1,
      method: "sampling/createMessage",
      params: { messages: [], maxTokens: 10 },
    };
    expect(r("2026-07-28").validateMessage(sampling).result).toEqual(
      error(
        "/method",
        "method",
        "sampling/createMessage travels only inside InputRequiredResult in revision 2026-07-28",
      ),
    );
  });

  test("validateMessage: an envelope problem is reported as such", () => {
    expect(r("2025-06-18").validateMessage({ jsonrpc: "2.0", id: null, method: "ping" }).result).toEqual(
      error("/id", "jsonrpc", "id must not be null"),
    );
  });

  test("validateMessage: a 2025-03-26 batch reports its members' errors under their index", () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: {} },
    ];
    expect(r("2025-03-26").validateMessage(batch).result).toEqual(error("/1/params/name", "required", "is required"));
  });
});

describe("guards", () => {
  test("narrow to the schema type", () => {
    const isCallToolRequest = r("2025-06-18")["isCallToolRequest"] as (v: unknown) => boolean;
    expect(isCallToolRequest({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } })).toBe(true);
    expect(isCallToolRequest({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBe(false);
    expect(isCallToolRequest(null)).toBe(false);
  });
});
