// The client's input to one request, across the rounds of a multi round-trip
// request (2026-07-28 basic/patterns/mrtr). A handler asks for input in one of
// two styles, and each works in both eras:
// - awaitable: `await context.elicit(...)`. On a handshake revision it is a
//   server-to-client request. On a per-request revision the first call without
//   an answer ends the round: the server answers InputRequiredResult with every
//   request asked so far, the handler's promise never settles (it is garbage
//   collected), and the client's retry runs the handler again from the start,
//   where the same calls in the same order now find their answers. Keys are
//   `<method>#<n>`, the n-th call of that method in the handler's run.
// - explicit: the handler reads `context.inputResponses` and `context.requestState`
//   and returns `context.inputRequired({...})` naming the requests by its own keys.
//   On a handshake revision the runtime sends those requests to the client and
//   runs the handler again with the answers.
// In the awaitable style, code before an awaited input runs again on every
// round: it must be safe to repeat (read, not write), as a retried request is.
import { isObject } from "../../validation.js";

/** One request for input: elicitation/create, sampling/createMessage or roots/list, in the handler revision's shapes. */
export interface InputRequestSpec {
  readonly method: string;
  readonly params?: unknown;
}

/** What a handler returns to ask for input in the explicit style (context.inputRequired). */
export class InputRequired {
  constructor(
    /** By key: the handler's names for the requests; the answers come back under the same keys. */
    readonly inputRequests: { readonly [key: string]: InputRequestSpec },
    /** JSON the handler wants back on the next round (context.requestState); never a secret, the client can read it. */
    readonly requestState?: unknown,
  ) {}
}

/** @internal The answers and state one run of a handler sees, and the input it asked for that is missing. */
export class InputRound {
  /** Calls so far by method; made on the first call (most requests ask for nothing). */
  private counters: Map<string, number> | undefined;
  /** Asked for in this run and not answered, in the order asked; made on the first (most runs ask for nothing). */
  private asked: { key: string; request: InputRequestSpec }[] | undefined;

  constructor(
    /** Answers by key, from earlier rounds and this request's inputResponses. */
    readonly answers: { readonly [key: string]: unknown },
    /** The handler's state from the previous round, if any. */
    readonly state: unknown,
    /** How many rounds came before this one. */
    readonly round: number,
    /** Whether the answer fits the method's result type (a wrong one is asked for again). */
    private readonly fits: (method: string, answer: unknown) => boolean,
  ) {}

  /** Asked for in this run and not answered, in the order asked. */
  get missing(): readonly { readonly key: string; readonly request: InputRequestSpec }[] {
    return this.asked ?? NOTHING_ASKED;
  }

  /** The answer to the next call of `method`, or undefined after recording it as missing. */
  answer(method: string, params: unknown): { readonly value: unknown } | undefined {
    this.counters ??= new Map();
    const n = (this.counters.get(method) ?? 0) + 1;
    this.counters.set(method, n);
    const key = `${method}#${n}`;
    if (Object.hasOwn(this.answers, key) && this.fits(method, this.answers[key])) return { value: this.answers[key] };
    (this.asked ??= []).push({ key, request: params === undefined ? { method } : { method, params } });
    return undefined;
  }
}

const NOTHING_ASKED: readonly never[] = Object.freeze([]);
const NO_ANSWERS: { readonly [key: string]: unknown } = Object.freeze({});

/** The inputResponses of a request, as a plain record (anything else is no answers). */
export function inputResponsesOf(params: unknown): { readonly [key: string]: unknown } {
  const responses = isObject(params) ? params["inputResponses"] : undefined;
  return isObject(responses) ? responses : NO_ANSWERS;
}
