// The validation benchmark's second corpus (bench/validate.ts): every upstream
// example of a revision (spec/<rev>/examples/<Type>/*.json, 129 each for
// 2026-07-28 and draft), each as the message it would arrive in:
// - a whole message (it has "jsonrpc") as it is;
// - a method's params in that method's request or notification;
// - a method's result in a result response to that method;
// - a JSON-RPC error object in an error response;
// - anything else (a content block, a tool, a resource, a capability set...)
//   in the first array or object slot of those messages where it makes a
//   valid message, e.g. a TextContent as the content of a tools/call result.
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

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function upstreamCorpus(root: string, revision: string, generated: RevisionModule): UpstreamCorpus {
  const dir = join(root, "spec", revision, "examples");
  const examples: { type: string; file: string; value: unknown }[] = [];
  for (const type of readdirSync(dir).sort(byCodeUnit))
    for (const file of readdirSync(join(dir, type)).sort(byCodeUnit))
      examples.push({ type, file, value: JSON.parse(readFileSync(join(dir, type, file), "utf8")) });

  const methods = Object.entries(generated.methods).sort(([a], [b]) => byCodeUnit(a, b));
  // A slot takes a value when the method's own params or result type accepts it: the response's type
  // can be wider (2026-07-28's CallToolResult | InputRequiredResult takes any object with a string
  // resultType), and a value placed under it would not be checked as what it is.
  const fits = (message: Record<string, unknown>, requestMethod?: string) => {
    const method = (message["method"] as string | undefined) ?? requestMethod;
    const entry = method ? generated.methods[method] : undefined;
    const type = "params" in message ? entry?.params : entry?.result;
    return (
      typeof type === "string" &&
      generated.validate(type, "params" in message ? message["params"] : message["result"]).valid &&
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
            resultType: "input_required",
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

  // The rest: into a slot of a message made above, where it makes a valid message.
  const leftOut: string[] = [];
  for (const example of rest) {
    const name = `${example.type}/${example.file}`;
    const placed = place(example.value, carriers, fits);
    if (placed) add(`${name} (in ${placed.where})`, placed.message, placed.requestMethod);
    else leftOut.push(name);
  }
  return { messages, leftOut };
}

/** Fields that take any object: a value placed there would not be checked as what it is. */
const OPEN_SLOTS = new Set(["_meta", "arguments", "experimental", "extensions", "structuredContent"]);

/** The first carrier whose params or result has a slot (an array's items, an object field) the value fits. */
function place(
  value: unknown,
  carriers: readonly { value: Record<string, unknown>; requestMethod?: string }[],
  fits: (message: Record<string, unknown>, requestMethod?: string) => boolean,
): { message: Record<string, unknown>; requestMethod?: string; where: string } | undefined {
  for (const carrier of carriers) {
    const part = "params" in carrier.value ? "params" : "result" in carrier.value ? "result" : undefined;
    const body = part ? carrier.value[part] : undefined;
    if (!part || typeof body !== "object" || body === null || Array.isArray(body)) continue;
    for (const [field, current] of Object.entries(body).sort(([a], [b]) => byCodeUnit(a, b))) {
      if (OPEN_SLOTS.has(field)) continue;
      const candidate = Array.isArray(current) ? [value] : typeof current === "object" ? value : undefined;
      if (candidate === undefined) continue;
      const message = { ...carrier.value, [part]: { ...body, [field]: candidate } };
      if (fits(message, carrier.requestMethod)) {
        const method = (carrier.value["method"] as string | undefined) ?? carrier.requestMethod ?? "";
        return {
          message,
          ...(carrier.requestMethod ? { requestMethod: carrier.requestMethod } : {}),
          where: `${method} ${part}.${field}`,
        };
      }
    }
  }
  return undefined;
}
