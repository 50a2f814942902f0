// requestDigest: what ties a requestState to the request it came back with.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { requestDigest } from "../../runtime/server/input/request-state.js";

/** The digest's definition, written the obvious (recursive) way: JSON with keys sorted by code unit, undefined members left out. */
function reference(params: unknown): string {
  const text = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(text).join(",")}]`;
    if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).filter((k) => record[k] !== undefined);
      return `{${keys
        .sort()
        .map((k) => `${JSON.stringify(k)}:${text(record[k])}`)
        .join(",")}}`;
    }
    return JSON.stringify(value) ?? "null";
  };
  const rest = { ...(params as Record<string, unknown>) };
  delete rest["_meta"];
  delete rest["inputResponses"];
  delete rest["requestState"];
  return createHash("sha256").update(text(rest)).digest("base64url");
}

/** A deterministic pseudo-random JSON value (mulberry32). */
function randomValue(seed: number): unknown {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const make = (depth: number): unknown => {
    const pick = Math.floor(next() * (depth > 4 ? 4 : 7));
    if (pick === 0) return null;
    if (pick === 1) return next() < 0.5;
    if (pick === 2) return Math.floor(next() * 2000) - 1000 + (next() < 0.3 ? 0.25 : 0);
    if (pick === 3) return ["", "a", 'é\u2028"', "\\n", "z"][Math.floor(next() * 5)];
    if (pick <= 4) return Array.from({ length: Math.floor(next() * 4) }, () => make(depth + 1));
    const keys = ["b", "a", "é", "", "_meta", "requestState", "10", "2"];
    return Object.fromEntries(keys.filter(() => next() < 0.4).map((k) => [k, make(depth + 1)]));
  };
  return { name: "t", arguments: make(0), _meta: { x: 1 }, inputResponses: { a: 1 } };
}

describe("requestDigest", () => {
  test("is the SHA-256 of the params as JSON with sorted keys, without _meta, inputResponses and requestState", () => {
    for (let seed = 1; seed <= 500; seed++)
      expect(requestDigest(randomValue(seed)), `seed ${seed}`).toBe(reference(randomValue(seed)));
  });

  test("does not depend on the order of keys or on members whose value is undefined", () => {
    expect(requestDigest({ name: "t", arguments: { a: 1, b: [1, { d: 2, c: 3 }] } })).toBe(
      requestDigest({ arguments: { b: [1, { c: 3, d: 2, e: undefined }], a: 1 }, name: "t", requestState: "x" }),
    );
    expect(requestDigest({ name: "t", arguments: { a: 1 } })).not.toBe(
      requestDigest({ name: "t", arguments: { a: 2 } }),
    );
  });

  test("takes params nested as deep as JSON.parse does (20,000 levels) without exhausting the stack", () => {
    const depth = 20_000;
    const params = JSON.parse(`{"name":"t","arguments":{"x":${"[".repeat(depth)}${"]".repeat(depth)}}}`);
    const digest = requestDigest(params);
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const text = `{"arguments":{"x":${"[".repeat(depth)}${"]".repeat(depth)}},"name":"t"}`;
    expect(digest).toBe(createHash("sha256").update(text).digest("base64url"));
  });
});
