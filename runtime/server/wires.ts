// The wires one server serves: each revision's generated tables, with the
// extensions the server offers merged in on the revisions that can negotiate
// them (RevisionInfo.extensions: capabilities have an `extensions` map,
// basic/index#extensions). A revision without the map never sees an
// extension's methods: for its clients they do not exist (-32601).
import type { RevisionInfo } from "../revision-facts.js";
import type { MessageTables } from "../messages.js";
import { withExtensions, type ExtensionTables } from "../extensions.js";
import {
  extensionLoaders,
  loadedTables,
  loadedWire,
  loadTables,
  loadWire,
  type TablesOnly,
  type Wire,
} from "../protocol/revisions.js";

/** Where a session gets the wire of a revision. */
export interface WireSource {
  /** The wire when everything it needs is loaded, else undefined (then `load`). */
  loaded(info: RevisionInfo): Wire | undefined;
  load(info: RevisionInfo): Promise<Wire>;
  /**
   * What answering initialize at `info` needs, when loaded: the wire, or only
   * its tables when `tablesSuffice` (the answer needs no conversion); else
   * undefined (then `loadForHandshake`).
   */
  loadedForHandshake(info: RevisionInfo, tablesSuffice: boolean): Wire | TablesOnly | undefined;
  loadForHandshake(info: RevisionInfo, tablesSuffice: boolean): Promise<Wire | TablesOnly>;
}

/** An extension a server serves: its generated tables, once loaded. */
export interface ServedExtension {
  readonly tables: ExtensionTables;
  /** What the server declares under `capabilities.extensions[identifier]` besides `{}` (e.g. skills' directoryRead). */
  settings: Record<string, unknown>;
}

export class ServerWires implements WireSource {
  readonly extensions: ServedExtension[] = [];
  private loading = 0;
  private pending: Promise<unknown> = Promise.resolve();
  private readonly merged = new Map<string, Wire>();
  private readonly mergedTables = new Map<MessageTables, MessageTables>();

  /**
   * Starts loading a generated extension's tables (by its folder name, e.g.
   * "tasks"). Until they are loaded, sessions wait for them before serving a
   * request on a revision that negotiates extensions.
   */
  add(name: string, settings: Record<string, unknown> = {}): Promise<ServedExtension> {
    const load = extensionLoaders([name])[0]!;
    const existing = this.extensions.find((e) => e.tables.name === name);
    if (existing) {
      Object.assign(existing.settings, settings);
      return Promise.resolve(existing);
    }
    this.loading++;
    const loaded = load().then(
      (tables) => {
        this.loading--;
        const served = this.extensions.find((e) => e.tables.name === name) ?? { tables, settings };
        if (!this.extensions.includes(served)) this.extensions.push(served);
        else Object.assign(served.settings, settings);
        this.merged.clear();
        this.mergedTables.clear();
        return served;
      },
      (error: unknown) => {
        this.loading--;
        throw error;
      },
    );
    this.pending = Promise.all([this.pending, loaded.catch(() => undefined)]);
    return loaded;
  }

  /** The served extension with this identifier (e.g. "io.modelcontextprotocol/tasks"), if any. */
  byIdentifier(identifier: string): ServedExtension | undefined {
    return this.extensions.find((e) => e.tables.identifier === identifier);
  }

  loaded(info: RevisionInfo): Wire | undefined {
    const base = loadedWire(info);
    if (!base || !info.extensions) return base;
    if (this.loading > 0) return undefined;
    if (this.extensions.length === 0) return base;
    let wire = this.merged.get(info.name);
    if (!wire) {
      wire = { info, tables: this.withServed(base.tables), shims: base.shims };
      this.merged.set(info.name, wire);
    }
    return wire;
  }

  async load(info: RevisionInfo): Promise<Wire> {
    for (;;) {
      const pending = this.pending;
      await Promise.all([pending, loadWire(info)]);
      const wire = this.loaded(info);
      if (wire) return wire;
    }
  }

  loadedForHandshake(info: RevisionInfo, tablesSuffice: boolean): Wire | TablesOnly | undefined {
    const wire = this.loaded(info);
    if (wire || !tablesSuffice) return wire;
    const base = loadedTables(info);
    if (!base || !info.extensions) return base;
    if (this.loading > 0) return undefined;
    return this.extensions.length === 0 ? base : { info, tables: this.withServed(base.tables) };
  }

  async loadForHandshake(info: RevisionInfo, tablesSuffice: boolean): Promise<Wire | TablesOnly> {
    for (;;) {
      const pending = this.pending;
      await Promise.all([pending, tablesSuffice ? loadTables(info) : loadWire(info)]);
      const wire = this.loadedForHandshake(info, tablesSuffice);
      if (wire) return wire;
    }
  }

  /** A revision's tables with the served extensions merged in, made once per set of extensions. */
  private withServed(tables: MessageTables): MessageTables {
    let merged = this.mergedTables.get(tables);
    if (!merged) {
      merged = withExtensions(
        tables,
        this.extensions.map((e) => e.tables),
      );
      this.mergedTables.set(tables, merged);
    }
    return merged;
  }
}
