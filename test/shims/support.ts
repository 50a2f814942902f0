// Shared by the shim tests: the generated shims and validators, corpus samples
// as whole messages, and the check that converts every one of them.
import { expect } from "vitest";
import type { MessageVerdict } from "../../runtime/messages.js";
import type { ConvertOptions, Converted, ShimChange } from "../../runtime/shims.js";
import { ShimError } from "../../runtime/shims.js";
import { buildModel } from "../../generator/generate.js";
import type { RevisionModel } from "../../generator/model/types.js";
import { importGenerated, pinnedRevisions, pinnedSource } from "../helpers.js";
import { methodSeeds, mutations, schemaLiterals } from "../support/corpus.js";

export interface Shims {
  convert(message: unknown, options: ConvertOptions): Converted;
  convertParams(method: string, params: unknown, options: Omit<ConvertOptions, "method">): Converted;
  convertResult(method: string, result: unknown, options: Omit<ConvertOptions, "method">): Converted;
}
export type ValidateMessage = (message: unknown, requestMethod?: string) => MessageVerdict;

export interface Loaded {
  shims: Shims;
  validators: Map<string, ValidateMessage>;
  models: Map<string, RevisionModel>;
}

export async function load(): Promise<Loaded> {
  const validators = new Map<string, ValidateMessage>();
  const models = new Map<string, RevisionModel>();
  for (const revision of pinnedRevisions) {
    validators.set(
      revision,
      (await importGenerated<{ validateMessage: ValidateMessage }>(revision, "tables")).validateMessage,
    );
    models.set(revision, buildModel(pinnedSource(revision)));
  }
  return { shims: await importGenerated<Shims>("shims", "index"), validators, models };
}

export interface Sample {
  message: unknown;
  /** For a response: the request's method. */
  method?: string;
  label: string;
}

/** A value of a schema type as a whole message of its revision, when the type is a message or a result. */
export function asMessage(model: RevisionModel, type: string, value: unknown, label: string): Sample | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  for (const m of model.methods) {
    if (m.inputRequest) continue;
    if (type === m.type) {
      const envelope = m.kind === "request" ? { jsonrpc: "2.0", id: 1 } : { jsonrpc: "2.0" };
      return { message: { ...envelope, ...(value as object) }, label };
    }
    if (m.result && (type === m.result.name || type === m.result.response)) {
      const result = type === m.result.response ? (value as { result: unknown }).result : value;
      return { message: { jsonrpc: "2.0", id: 1, result }, method: m.name, label };
    }
  }
  return undefined;
}

/**
 * Where one seed takes this many valid replacements at one place, that place takes any value of
 * its type (a free string or number), and the shims copy it as it is: the rest add time, not
 * cases. A literal-typed place (a discriminator, an enum) takes fewer, and keeps every one.
 */
const REPLACEMENTS_PER_PLACE = 16;

/** Valid messages of a revision: the seeds of every method and every mutation of them that stays valid. */
export function corpus(loaded: Loaded, revision: string): Sample[] {
  const model = loaded.models.get(revision)!;
  const validate = loaded.validators.get(revision)!;
  const literals = schemaLiterals(model);
  const out: Sample[] = [];
  for (const seed of methodSeeds(model)) {
    const replacements = new Map<string, number>();
    for (const candidate of [seed, ...mutations(seed, literals)]) {
      const place = /^replace (\S*) with /.exec(candidate.label)?.[1];
      if (place !== undefined && (replacements.get(place) ?? 0) >= REPLACEMENTS_PER_PLACE) continue;
      const sample = asMessage(model, candidate.type, candidate.value, `${candidate.type}: ${candidate.label}`);
      if (sample && validate(sample.message, sample.method).result.valid) {
        out.push(sample);
        if (place !== undefined) replacements.set(place, (replacements.get(place) ?? 0) + 1);
      }
    }
  }
  return out;
}

/**
 * Converts every valid corpus message of `from` to every other revision:
 * each must validate there or be refused with a ShimError, and a round trip
 * must keep every value neither conversion reported touching.
 */
export function checkCorpus(loaded: Loaded, from: string): void {
  const samples = corpus(loaded, from);
  expect(samples.length).toBeGreaterThan(1000);
  const problems: string[] = [];
  let converted = 0;
  let refused = 0;
  let roundTrips = 0;
  for (const to of pinnedRevisions.filter((r) => r !== from)) {
    const validate = loaded.validators.get(to)!;
    for (const sample of samples) {
      const options = { from, to, ...(sample.method ? { method: sample.method } : {}) };
      let result: Converted;
      try {
        result = loaded.shims.convert(sample.message, options);
      } catch (error) {
        if (!(error instanceof ShimError)) problems.push(`${from}→${to} ${sample.label}: ${(error as Error).stack}`);
        else refused++;
        continue;
      }
      converted++;
      const verdict = validate(result.message, sample.method);
      if (!verdict.result.valid) {
        problems.push(`${from}→${to} ${sample.label}: invalid in ${to}: ${JSON.stringify(verdict.result)}`);
        continue;
      }
      let back: Converted;
      try {
        back = loaded.shims.convert(result.message, { ...options, from: to, to: from });
      } catch (error) {
        if (error instanceof ShimError) continue;
        throw error;
      }
      roundTrips++;
      const lost = firstLoss(sample.message, back.message, [...result.changes, ...back.changes]);
      if (lost) problems.push(`${from}→${to}→${from} ${sample.label}: ${lost}`);
    }
  }
  expect(problems.slice(0, 6)).toEqual([]);
  // Most messages have a form in most revisions; refusals are the exception.
  expect(converted).toBeGreaterThan(refused);
  expect(roundTrips).toBeGreaterThan(0);
}

/** The first value of `before` that `after` lost, outside the paths a change names; undefined when none. */
function firstLoss(before: unknown, after: unknown, changes: readonly ShimChange[], path = ""): string | undefined {
  if (changes.some((c) => path === c.path || path.startsWith(`${c.path}/`))) return undefined;
  const deeper = changes.some((c) => c.path.startsWith(`${path}/`));
  if (typeof before !== "object" || before === null || (!deeper && JSON.stringify(before) === JSON.stringify(after))) {
    return JSON.stringify(before) === JSON.stringify(after)
      ? undefined
      : `${path || "/"} was ${JSON.stringify(before)}, is ${JSON.stringify(after)}`;
  }
  if (typeof after !== "object" || after === null)
    return `${path || "/"} was ${JSON.stringify(before)}, is ${JSON.stringify(after)}`;
  for (const [key, value] of Object.entries(before)) {
    const next = `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const lost = firstLoss(value, (after as Record<string, unknown>)[key], changes, next);
    if (lost) return lost;
  }
  return undefined;
}
