// The generated revisions and what loading one gives: its tables and, when it
// is not the handler revision, the shims that convert to and from it. Loaded
// once per process, on first need; server and client both speak through it.
// All of it is read from generated/.
import {
  extensions as generatedExtensions,
  loadExtensionTables,
  loadMessageTables,
  loadShimShapes,
  loadShimStep,
  revisions,
  type RevisionName,
} from "../../generated/index.js";
import type { RevisionInfo } from "../table-types.js";
import type { MessageTables } from "../messages.js";
import {
  convertMessage,
  convertParams,
  convertResult,
  type ConvertOptions,
  type Converted,
  type ShimTables,
} from "../shims.js";
import { shimRules } from "../shim-rules.js";
import type { ExtensionTables } from "../extensions.js";
import { handlerRevision, handlerTables } from "./handler-revision.js";

/** Conversions between the revisions one wire needs (the generated shims of the steps between them). */
export interface Shims {
  convertParams(method: string, params: unknown, options: Omit<ConvertOptions, "method">): Converted;
  convertResult(method: string, result: unknown, options: Omit<ConvertOptions, "method">): Converted;
  convert(message: unknown, options: ConvertOptions): Converted;
}

/** Every generated revision, oldest first. */
export const generatedRevisions: readonly RevisionInfo[] = revisions;

/** What a request needs of its revision. */
export interface LoadedRevision {
  readonly info: RevisionInfo;
  readonly tables: MessageTables;
  /** The shims, when the wire revision differs from the handler revision; null on the fast path. */
  readonly shims: Shims | null;
}

/** The handler revision as a wire: no loading, no conversion. */
export const loadedHandlerRevision: LoadedRevision = {
  info: revisions.find((r) => r.name === handlerRevision.name)!,
  tables: handlerTables,
  shims: null,
};

const loaded = new Map<string, LoadedRevision>();
const loading = new Map<string, Promise<LoadedRevision>>();
const tablesLoaded = new Map<string, MessageTables>();
const tablesLoading = new Map<string, Promise<MessageTables>>();

/** A revision's wire when it is loaded already (synchronously), else undefined. */
export function loadedRevision(info: RevisionInfo): LoadedRevision | undefined {
  return info.name === handlerRevision.name ? loadedHandlerRevision : loaded.get(info.name);
}

/**
 * What answering initialize needs before the shims: a revision's tables. Its
 * `shims` is absent (not null: a LoadedRevision's null means "no conversion needed"), so
 * it cannot serve a request, only the handshake at the newest handshake revision,
 * whose InitializeResult is built in its own shapes.
 */
export interface TablesOnly {
  readonly info: RevisionInfo;
  readonly tables: MessageTables;
  readonly shims?: undefined;
}

/** A revision's tables when they are loaded already, else undefined. */
export function loadedTables(info: RevisionInfo): TablesOnly | undefined {
  const wire = loadedRevision(info);
  if (wire) return { info, tables: wire.tables };
  const tables = tablesLoaded.get(info.name);
  return tables ? { info, tables } : undefined;
}

/** Loads a revision's tables (not its shims) once per process. */
export function loadTables(info: RevisionInfo): Promise<TablesOnly> {
  const ready = loadedTables(info);
  if (ready) return Promise.resolve(ready);
  let tables = tablesLoading.get(info.name);
  if (!tables) {
    tables = loadMessageTables[info.name as keyof typeof loadMessageTables]().then((t) => {
      tablesLoaded.set(info.name, t);
      return t;
    });
    tablesLoading.set(info.name, tables);
  }
  return tables.then((t) => ({ info, tables: t }));
}

/**
 * The shims between the handler revision and `name`: only the revisions on
 * the way and the steps between them are loaded (a 2025-11-25 client loads
 * 2025-11-25 and 2026-07-28, not every revision's shapes).
 */
async function loadPathShims(name: string): Promise<Shims> {
  const names: readonly RevisionName[] = revisions.map((r) => r.name);
  const [a, b] = [names.indexOf(name as RevisionName), names.indexOf(handlerRevision.name)].sort((x, y) => x - y) as [
    number,
    number,
  ];
  const on = names.slice(a, b + 1);
  const [shapes, steps] = await Promise.all([
    Promise.all(on.map((n) => loadShimShapes[n]())),
    Promise.all(on.slice(1).map((n, i) => loadShimStep[`${on[i]}--${n}`]!())),
  ]);
  const tables: ShimTables = { revisions: shapes, steps, rules: shimRules };
  return {
    convertParams: (method, params, options) => convertParams(tables, method, params, options),
    convertResult: (method, result, options) => convertResult(tables, method, result, options),
    convert: (message, options) => convertMessage(tables, message, options),
  };
}

/** Loads a revision's tables and the shims when needed, once per process. */
export function loadRevision(info: RevisionInfo): Promise<LoadedRevision> {
  const ready = loadedRevision(info);
  if (ready) return Promise.resolve(ready);
  let wire = loading.get(info.name);
  if (!wire) {
    wire = Promise.all([loadTables(info), loadPathShims(info.name)]).then(([{ tables }, shims]) => {
      const done = { info, tables, shims };
      loaded.set(info.name, done);
      return done;
    });
    loading.set(info.name, wire);
  }
  return wire;
}

/** The loaders of generated extensions' tables (by folder name, e.g. "tasks"); a TypeError names any not generated. */
export function extensionLoaders(names: readonly string[]): (() => Promise<ExtensionTables>)[] {
  const unknown = names.filter((name) => !Object.hasOwn(loadExtensionTables, name));
  if (unknown.length > 0)
    throw new TypeError(
      `no generated extension ${unknown.map((n) => JSON.stringify(n)).join(", ")} (generated: ${generatedExtensions.map((e) => e.name).join(", ") || "none"})`,
    );
  return names.map((name) => loadExtensionTables[name]!);
}
