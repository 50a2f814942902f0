// The validation benchmark's second corpus (bench/validate.ts): every upstream
// example of a revision (spec/<rev>/examples/<Type>/*.json, 129 each for
// 2026-07-28 and draft), each as the message it would arrive in:
// - a whole message (it has "jsonrpc") as it is;
// - a method's params in that method's request or notification;
// - a method's result in a result response to that method;
// - a JSON-RPC error object in an error response;
// - anything else (a content block, a tool, a resource, a capability set...)
//   in the first array or object slot of those messages where it makes a
//   valid message and is checked as what it is, e.g. a TextContent as the
//   content of a tools/call result. "Checked as what it is": a copy its own
//   type refuses (one field given another JSON type) makes that message
//   invalid; an open object (completion/complete's context takes any object)
//   would check a Tool placed there as nothing but an object.
// An example no slot takes is left out and named, so that a change upstream is
// seen rather than silently narrowing the corpus.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchMessage } from "./corpus.js";

interface MethodEntry {
  kind: "request" | "notification";
  /** Travels only inside an InputRequiredResult (2026-07-28 mrtr), its result inside the retry's inputResponses. */
  inputRequest?: boolean;
  params?: string | null;
  result?: string | null;
  resultResponse?: string | null;
}

export interface RevisionModule {
  methods: Record<string, MethodEntry>;
  validateMessage(message: unknown, requestMethod?: string): { result: { valid: boolean } };
  validate(type: string, value: unknown): { valid: boolean };
}

export interface UpstreamCorpus {
  messages: BenchMessage[];
  /** Examples no message takes: "Type/file.json". */
  leftOut: string[];
}

/** InputRequiredResult's resultType (2026-07-28 basic/patterns/mrtr). */
const INPUT_REQUIRED = "input_required";

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function upstreamCorpus(root: string, revision: string, generated: RevisionModule): UpstreamCorpus {
  const dir = join(root, "spec", revision, "examples");
  const examples: { type: string; file: string; value: unknown }[] = [];
  for (const type of readdirSync(dir).sort(byCodeUnit))
    for (const file of readdirSync(join(dir, type)).sort(byCodeUnit))
      examples.push({ type, file, value: JSON.parse(readFileSync(join(dir, type, file), "utf8")) });

  const methods = Object.entries(generated.methods).sort(([a], [b]) => byCodeUnit(a, b));
  // A slot takes a value when the method's own params or result type accepts it (or, for the
  // InputRequiredResult made below, that type): the response's type can be wider (2026-07-28's
  // CallToolResult | InputRequiredResult takes any object with a string resultType), and a value
  // placed under it would not be checked as what it is.
  const fits = (message: Record<string, unknown>, requestMethod?: string) => {
    const method = (message["method"] as string | undefined) ?? requestMethod;
    const entry = method ? generated.methods[method] : undefined;
    const body = "params" in message ? message["params"] : message["result"];
    const inputRequired = (body as { resultType?: unknown } | undefined)?.resultType === INPUT_REQUIRED;
    const type = inputRequired ? "InputRequiredResult" : "params" in message ? entry?.params : entry?.result;
    return (
      typeof type === "string" &&
      generated.validate(type, body).valid &&
      generated.validateMessage(message, requestMethod).result.valid
    );
  };
  const messages: BenchMessage[] = [];
  const carriers: { value: Record<string, unknown>; requestMethod?: string }[] = [];
  const rest: typeof examples = [];
  const inputs: typeof examples = [];
  let id = 1;
  const add = (name: string, value: Record<string, unknown>, requestMethod?: string) => {
    messages.push({
      name: `${revision} ${name}`,
      revision,
      text: JSON.stringify(value),
      valid: true,
      ...(requestMethod ? { requestMethod } : {}),
    });
    carriers.push({ value, ...(requestMethod ? { requestMethod } : {}) });
  };

  for (const example of examples) {
    const name = `${example.type}/${example.file}`;
    const value = example.value as Record<string, unknown>;
    if (typeof value === "object" && value !== null && "jsonrpc" in value) {
      const answers = methods.find(([, m]) => m.resultResponse === example.type)?.[0];
      if ("result" in value && !answers) {
        rest.push(example);
        continue;
      }
      add(name, value, "result" in value || "error" in value ? answers : undefined);
      continue;
    }
    if (typeof value["code"] === "number" && typeof value["message"] === "string") {
      add(`${name} (in an error response)`, { jsonrpc: "2.0", id: id++, error: value });
      continue;
    }
    const asParams = methods.find(([, m]) => m.params === example.type);
    const asResult = methods.find(([, m]) => m.result === example.type);
    if (asParams?.[1].inputRequest || asResult?.[1].inputRequest) {
      inputs.push(example);
      continue;
    }
    if (asParams) {
      const [method, entry] = asParams;
      add(name, { jsonrpc: "2.0", ...(entry.kind === "request" ? { id: id++ } : {}), method, params: value });
      continue;
    }
    if (asResult) {
      add(name, { jsonrpc: "2.0", id: id++, result: value }, asResult[0]);
      continue;
    }
    rest.push(example);
  }

  // An input request's params, in an InputRequiredResult answering tools/call; its result, in the
  // inputResponses of the tools/call retried (basic/patterns/mrtr), built on the upstream tools/call.
  const call = carriers.find((c) => c.value["method"] === "tools/call")?.value;
  for (const example of inputs) {
    const name = `${example.type}/${example.file}`;
    const asParams = methods.find(([, m]) => m.params === example.type);
    if (asParams)
      add(
        `${name} (in an InputRequiredResult)`,
        {
          jsonrpc: "2.0",
          id: id++,
          result: {
            resultType: INPUT_REQUIRED,
            inputRequests: { input_1: { method: asParams[0], params: example.value } },
          },
        },
        "tools/call",
      );
    else if (call)
      add(`${name} (in tools/call inputResponses)`, {
        ...call,
        id: id++,
        params: { ...(call["params"] as object), inputResponses: { input_1: example.value } },
      });
    else rest.push(example);
  }

  // The rest: into a slot of a message made above (or of one placed before it: an enum schema goes
  // into the elicitation request placed earlier), where it makes a valid message. A slot that refuses
  // every refused copy checks the value as what it is; a union (an enum schema among
  // PrimitiveSchemaDefinition's) can take a copy as another of its members, so failing that anywhere,
  // the slot that refuses the most copies.
  let pending = rest.map((example) => ({ example, refused: refusedCopies(example.type, example.value, generated) }));
  const placeOne = (strict: boolean): boolean => {
    for (const item of pending) {
      const placed = place(item.example.value, item.refused, carriers, fits);
      if (!placed || (strict && placed.refuses < item.refused.length)) continue;
      add(`${item.example.type}/${item.example.file} (in ${placed.where})`, placed.message, placed.requestMethod);
      pending = pending.filter((other) => other !== item);
      return true;
    }
    return false;
  };
  while (placeOne(true) || placeOne(false));
  const leftOut = pending.map(({ example }) => `${example.type}/${example.file}`);
  return { messages, leftOut };
}

/** Values of every JSON type, to give a field one its type does not take. */
const OTHER_TYPES: readonly unknown[] = [12345, "text", true, null, {}, []];

/**
 * Copies of the value that its own type refuses: one field left out, or given a value of another
 * JSON type. A slot that takes one of them (an object of any strings takes a resource without its
 * uri) would check the value as something else.
 */
function refusedCopies(type: string, value: unknown, generated: RevisionModule): unknown[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const copies: unknown[] = [];
  for (const field of Object.keys(value).sort(byCodeUnit)) {
    const { [field]: _, ...without } = value as Record<string, unknown>;
    for (const copy of [without, ...OTHER_TYPES.map((other) => ({ ...value, [field]: other }))])
      if (!generated.validate(type, copy).valid) copies.push(copy);
  }
  return copies;
}

type Path = readonly (string | number)[];

/** Every object field holding an object or an array, at any depth, depth first, fields in code-unit order. */
function* slotsOf(value: unknown, path: Path): Generator<{ path: Path; isArray: boolean }> {
  if (Array.isArray(value)) {
    if (value.length > 0) yield* slotsOf(value[0], [...path, 0]);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [field, current] of Object.entries(value).sort(([a], [b]) => byCodeUnit(a, b))) {
    if (typeof current !== "object" || current === null) continue;
    yield { path: [...path, field], isArray: Array.isArray(current) };
    yield* slotsOf(current, [...path, field]);
  }
}

/** A copy of `root` with `value` at `path` (the objects and arrays along it copied, the rest shared). */
function withAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((item, i) => (i === head ? withAt(item, rest, value) : item));
  const object = root as Record<string, unknown>;
  return { ...object, [head!]: withAt(object[head as string], rest, value) };
}

/**
 * The slot (an object field, or an array's items, at any depth of a carrier's params or result, or
 * that whole) the value fits that refuses the most of its refused copies (the first of those, and
 * with no copies, the first it fits); undefined when it fits none, or none refuses a copy.
 */
function place(
  value: unknown,
  refused: readonly unknown[],
  carriers: readonly { value: Record<string, unknown>; requestMethod?: string }[],
  fits: (message: Record<string, unknown>, requestMethod?: string) => boolean,
): { message: Record<string, unknown>; requestMethod?: string; where: string; refuses: number } | undefined {
  let best: ReturnType<typeof place>;
  for (const carrier of carriers) {
    const part = "params" in carrier.value ? "params" : "result" in carrier.value ? "result" : undefined;
    if (!part) continue;
    for (const slot of [{ path: [part], isArray: false }, ...slotsOf(carrier.value[part], [part])]) {
      const inSlot = (v: unknown) =>
        withAt(carrier.value, slot.path, slot.isArray ? [v] : v) as Record<string, unknown>;
      const message = inSlot(value);
      if (!fits(message, carrier.requestMethod)) continue;
      const refuses = refused.filter((copy) => !fits(inSlot(copy), carrier.requestMethod)).length;
      if ((refused.length > 0 && refuses === 0) || (best && refuses <= best.refuses)) continue;
      const method = (carrier.value["method"] as string | undefined) ?? carrier.requestMethod ?? "";
      best = {
        message,
        ...(carrier.requestMethod ? { requestMethod: carrier.requestMethod } : {}),
        where: `${method} ${slot.path.join(".")}`,
        refuses,
      };
      if (refuses === refused.length) return best;
    }
  }
  return best;
}
