// runtime/server/request/reply.ts: the JSON text of responses.
import { describe, expect, test } from "vitest";
import { errorJson, idJson, resultJson } from "../../runtime/server/request/reply.js";

describe("reply text", () => {
  test("a result and an error response, with number and string ids", () => {
    for (const id of [0, 7, 2 ** 40, -3, 'a"b', ""]) {
      expect(JSON.parse(resultJson(id, '{"content":[]}'))).toEqual({ jsonrpc: "2.0", id, result: { content: [] } });
      expect(JSON.parse(errorJson(id, -32600, "no"))).toEqual({
        jsonrpc: "2.0",
        id,
        error: { code: -32600, message: "no" },
      });
    }
    expect(idJson(12)).toBe("12");
    expect(idJson("12")).toBe('"12"');
  });
});
