// What generated checks (generated/<rev>/checks.ts) call. A check is a
// function (value, failure) => boolean, straight-line code generated from
// schema.ts. Guards pass failure = null and only want the answer; validators
// pass a Failure, which records the first problem: the innermost check sets
// keyword and message, and every caller on the way out adds its path segment.
// Nothing is allocated on the valid path.
//
// Decisions, documented once here:
// - Unknown extra properties are accepted everywhere. Interfaces are open in
//   TypeScript, schema.json never sets additionalProperties: false, and MCP
//   relies on it (_meta, extensions, newer peers). Index signatures
//   ([key: string]: T) check the extra properties' values against T.
// - Interfaces, object literal types and the `object` keyword mean JSON
//   objects: not arrays, not null.
// - `number` is any JSON number. schema.ts wins over schema.json, which types
//   many of these fields as integer (modelcontextprotocol#2698); only
//   `@TJS-type integer` makes a field an integer.
// - Of the @format annotations, only "byte" is asserted: a blob that is not
//   base64 cannot be decoded. "uri", "uri-template" and the rest are
//   annotations, as format is by default in JSON Schema 2020-12 (§7.2.1).
//   `@format int` (the tasks extension's) means an integer, as `@TJS-type integer` does.
// - The first problem found is reported, with a JSON pointer to the value.

// Web-platform globals (Node >= 16, browsers, workers, Deno, Bun), not in the
// ES2022 lib: declared here so that the runtime type-checks without DOM or Node types.
declare function atob(data: string): string;
declare function btoa(data: string): string;

export interface ValidationError {
  /** JSON pointer (RFC 6901) to the offending value, "" for the value itself. */
  readonly path: string;
  readonly message: string;
  /** The JSON Schema keyword the value breaks: type, required, const, enum, anyOf, minimum, format, ... */
  readonly keyword: string;
}

export type ValidationResult =
  { readonly valid: true } | { readonly valid: false; readonly errors: readonly ValidationError[] };

/** Where a validator's checks record the first problem. */
export class Failure {
  /** Path segments, innermost first (they are added while unwinding). */
  readonly segments: (string | number)[] = [];
  keyword = "";
  message = "";
}

/** A generated check: true when `value` conforms. */
export type Check = (value: unknown, failure: Failure | null) => boolean;

const VALID: ValidationResult = Object.freeze({ valid: true });

/**
 * One Failure serves every run: checks are synchronous and call no user code,
 * so runs never overlap, and the valid path allocates nothing.
 */
const shared = new Failure();

const NO_PREFIX: readonly (string | number)[] = Object.freeze([]);

/** Runs a check and reports its first problem. */
export function run(check: Check, value: unknown, prefix: readonly (string | number)[] = NO_PREFIX): ValidationResult {
  // Only a failed run leaves segments; setting length is a runtime call even when it is 0 already.
  if (shared.segments.length !== 0) shared.segments.length = 0;
  try {
    if (check(value, shared)) return VALID;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // A value nested deeply enough to exhaust the stack: refuse it rather than crash.
    return invalid([{ path: pointer(prefix), keyword: "depth", message: "is nested too deeply to check" }]);
  }
  // Segments were added innermost first.
  let path = pointer(prefix);
  for (let i = shared.segments.length - 1; i >= 0; i--) path += "/" + escapeSegment(shared.segments[i]!);
  return invalid([{ path, keyword: shared.keyword, message: shared.message }]);
}

/** Runs a check for a guard: only the answer, false for values too deep to check. */
export function test(check: Check, value: unknown): boolean {
  try {
    return check(value, null);
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

export function invalid(errors: readonly ValidationError[]): ValidationResult {
  return { valid: false, errors };
}

/** Records a problem with the value being checked. */
export function fail(failure: Failure | null, keyword: string, message: string): false {
  if (failure !== null) {
    failure.keyword = keyword;
    failure.message = message;
  }
  return false;
}

/** Records a problem with the value at `segment` inside the value being checked. */
export function failAt(failure: Failure | null, segment: string | number, keyword: string, message: string): false {
  if (failure !== null) {
    failure.keyword = keyword;
    failure.message = message;
    failure.segments.push(segment);
  }
  return false;
}

/** A required property is absent. */
export function missing(failure: Failure | null, property: string): false {
  return failAt(failure, property, "required", "is required");
}

/** A nested check failed at `segment`: add it to the path on the way out. */
export function at(failure: Failure | null, segment: string | number): false {
  if (failure !== null) failure.segments.push(segment);
  return false;
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An own property; for names Object.prototype also has (constructor, toString, __proto__, ...). */
export function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? Object.getOwnPropertyDescriptor(object, key)!.value : undefined;
}

/** String length in code points, as JSON Schema counts it. */
export function codePointLength(value: string): number {
  let length = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/**
 * Base64 with padding, RFC 4648 §4 (format "byte"). No regular expression
 * runs over a possibly large blob. Under Node, the native decoder settles it
 * (decodesExactly); elsewhere a native round trip (atob/btoa): if re-encoding
 * the decoded bytes gives the input back, the input is exactly alphabet
 * characters with correct padding, and anything else (non-zero padding bits,
 * whitespace, base64url, junk) is settled by the character scan.
 */
export function isBase64(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  // A message that fails is checked again for its report (and a result response once more as a
  // generic one): the last verdict is kept, for one message (forgetBase64), so that a blob is decoded
  // once per message, not once per run.
  if (value === lastBase64) return lastBase64Verdict;
  const verdict = nodeBuffer !== undefined ? decodesExactly(value, nodeBuffer) : roundTrips(value);
  lastBase64 = value;
  lastBase64Verdict = verdict;
  return verdict;
}

/** isBase64 without Node: the atob/btoa round trip, then the character scan. */
export function roundTrips(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  try {
    return btoa(atob(value)) === value || isBase64Scan(value);
  } catch {
    return false; // atob accepts a superset of strict base64; what it refuses is not base64
  }
}

/** What isBase64 uses of Node's Buffer (the validators also run where there is none). */
export interface NodeBuffer {
  allocUnsafe(size: number): { write(text: string, offset: number, encoding: "base64"): number };
  byteLength(text: string, encoding: "utf8"): number;
}
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
/** Characters decoded at a time: a multiple of 4, so that every piece is whole quanta. */
const BASE64_PIECE = 65_536;
let base64Scratch: ReturnType<NodeBuffer["allocUnsafe"]> | undefined;

/**
 * Node's base64 decoder skips (or stops at) every character outside its
 * alphabet, so a text of alphabet characters decodes to exactly 3 bytes per 4
 * characters, less one per padding "=", and any other text to fewer. Its
 * alphabet also takes base64url's "-" and "_", and it reads a character above
 * U+00FF by its low byte ("ń" as "D"): those are refused first. Decoded into
 * one scratch buffer, a piece at a time; padding only ends the last piece.
 * Faster than the atob round trip about 2.5x on valid blobs and 1.5x on
 * invalid ones (no exception is thrown).
 */
export function decodesExactly(value: string, buffer: NodeBuffer): boolean {
  if (buffer.byteLength(value, "utf8") !== value.length) return false; // not ASCII
  if (value.indexOf("-") !== -1 || value.indexOf("_") !== -1) return false;
  base64Scratch ??= buffer.allocUnsafe((BASE64_PIECE / 4) * 3);
  for (let start = 0; start < value.length; start += BASE64_PIECE) {
    const end = Math.min(start + BASE64_PIECE, value.length);
    const piece = start === 0 && end === value.length ? value : value.slice(start, end);
    let bytes = (piece.length / 4) * 3;
    if (end === value.length && piece.charCodeAt(piece.length - 1) === 61 /* = */)
      bytes -= piece.charCodeAt(piece.length - 2) === 61 ? 2 : 1;
    if (base64Scratch.write(piece, 0, "base64") !== bytes) return false;
  }
  return true;
}
let lastBase64: string | undefined;
let lastBase64Verdict = false;

/** Ends isBase64's memory of the last blob: called as each message's check begins. */
export function forgetBase64(): void {
  lastBase64 = undefined;
}

/** The exact rule, one character at a time. */
export function isBase64Scan(value: string): boolean {
  const length = value.length;
  if (length % 4 !== 0) return false;
  let end = length;
  if (end > 0 && value.charCodeAt(end - 1) === 61 /* = */) {
    end--;
    if (value.charCodeAt(end - 1) === 61) end--;
  }
  for (let i = 0; i < end; i++) {
    const code = value.charCodeAt(i);
    const ok =
      (code >= 65 && code <= 90) || // A-Z
      (code >= 97 && code <= 122) || // a-z
      (code >= 48 && code <= 57) || // 0-9
      code === 43 || // +
      code === 47; // /
    if (!ok) return false;
  }
  return true;
}

/** A JSON pointer from path segments (outermost first). */
export function pointer(segments: readonly (string | number)[]): string {
  let out = "";
  for (const segment of segments) out += "/" + escapeSegment(segment);
  return out;
}

/** One reference token of a JSON pointer: ~ as ~0, / as ~1 (RFC 6901 §3). */
function escapeSegment(segment: string | number): string {
  if (typeof segment === "number") return String(segment);
  if (segment.indexOf("~") === -1 && segment.indexOf("/") === -1) return segment;
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
