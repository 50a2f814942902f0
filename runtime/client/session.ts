// The client's session with one server: the era and revision it speaks (era.ts),
// the wire revision loaded for it, the initialize handshake where the era has
// one (basic/lifecycle#initialization) and its renewal once the server forgets
// the session, what the server told of itself, and the _meta every modern
// request carries (2026-07-28 basic/index#meta). How a request travels on it is
// client.ts's.
import { clientCapabilities } from "./answers.js";
import { extendWire } from "./extensions.js";
import { detectEra, rememberEra, type EraVerdict } from "./era.js";
import type { Connection } from "./connection.js";
import { ConnectionClosedError, McpError } from "./errors.js";
import type { ClientOptions } from "./types.js";
import { generatedRevisions, loadRevision } from "../protocol/revisions.js";
import {
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
} from "../protocol/meta.js";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "../protocol/handler-revision.js";
import { isObject } from "../validation.js";

export interface ServerDescription {
  readonly info?: Implementation;
  readonly capabilities?: ServerCapabilities;
  readonly instructions?: string;
}

const DEFAULT_INFO: Implementation = { name: "mcpgen-client", version: "0.1.0" };

export class ClientSession {
  private found!: EraVerdict;
  /** The handshake that replaces an expired legacy session, while it runs: one for every request that met the 404. */
  private renewal: Promise<void> | undefined;
  /** A renewal failed: there is no session, and the next request opens one first. */
  private lost = false;
  /** meta() without extra capabilities, for the version it was made for. */
  private ownMeta: Readonly<Record<string, unknown>> | undefined;
  private description: ServerDescription = {};

  constructor(
    private readonly connection: Connection,
    private readonly options: ClientOptions,
  ) {}

  /** Finds the server's era and revision (or uses the pinned one), loads its tables and shims, and handshakes where the era has one. */
  async open(): Promise<void> {
    this.found = await detectEra(this.connection, {
      ...(this.options.revision ? { pinned: this.options.revision } : {}),
      probeTimeoutMs: this.options.probeTimeoutMs ?? 3000,
      meta: (version) => this.meta(version),
    });
    const wire = await extendWire(await loadRevision(this.found.revision), this.options.extensions);
    this.connection.wire = wire;
    this.connection.context = { era: this.found.era, protocolVersion: this.found.revision.protocolVersion };
    if (this.found.era === "legacy") await this.handshake();
    else if (this.found.discover) this.describe(this.found.discover);
    // A pinned revision is the caller's choice, not a finding about the server: not cached.
    if (this.options.revision === undefined) rememberEra(this.connection.transport.target, this.found);
  }

  /** The era and revision found for the server (or pinned); the revision the handshake agreed on, where there is one. */
  get verdict(): EraVerdict {
    return this.found;
  }

  /** What the server told of itself: initialize's result, or a modern result's _meta and a DiscoverResult. */
  get server(): ServerDescription {
    return this.description;
  }

  /** Takes what a result says of the server: an initialize result, or a DiscoverResult (which describes it anew). */
  describe(result: Record<string, unknown>): void {
    // Legacy: initialize's serverInfo; modern: every result's _meta (2026-07-28 basic/index#meta).
    const meta = isObject(result["_meta"]) ? result["_meta"] : {};
    const info = isObject(result["serverInfo"]) ? result["serverInfo"] : meta[META_SERVER_INFO];
    this.description = {
      ...(isObject(info) ? { info: info as unknown as Implementation } : {}),
      ...(isObject(result["capabilities"]) ? { capabilities: result["capabilities"] as ServerCapabilities } : {}),
      ...(typeof result["instructions"] === "string" ? { instructions: result["instructions"] } : {}),
    };
  }

  /** basic/lifecycle#initialization: initialize, then notifications/initialized; then the GET stream where there is one. */
  private async handshake(): Promise<void> {
    const version = this.found.revision.protocolVersion;
    this.connection.context = { era: "legacy" };
    const result = (await this.connection.request(
      "initialize",
      {
        protocolVersion: version,
        capabilities: clientCapabilities(this.options),
        clientInfo: this.options.clientInfo ?? DEFAULT_INFO,
      },
      { timeoutMs: this.options.timeoutMs ?? 60_000 },
    )) as Record<string, unknown>;
    const agreed = result["protocolVersion"];
    const revision = generatedRevisions.find((r) => r.protocolVersion === agreed && r.lifecycle === "initialize");
    if (!revision) {
      await this.connection.close();
      throw new McpError(
        -32602,
        `${this.connection.transport.target} answered initialize with protocol version ${JSON.stringify(agreed)}, which this client does not speak`,
      );
    }
    if (revision.name !== this.found.revision.name) {
      this.found = { ...this.found, revision };
      // The extensions as in open(): a revision that negotiates them keeps the ones the client enabled.
      this.connection.wire = await extendWire(await loadRevision(revision), this.options.extensions);
    }
    this.describe(result);
    this.connection.context = { era: "legacy", protocolVersion: revision.protocolVersion };
    await this.connection.notify("notifications/initialized");
    this.connection.transport.openStream?.(this.connection.context);
  }

  /** A legacy session is being replaced, or a replacement failed: a request sent now would carry no session id (or the expired one). */
  get interrupted(): boolean {
    return this.renewal !== undefined || this.lost;
  }

  /**
   * Replaces the expired legacy session `expired` (undefined: the one a failed renewal left without), single-flight:
   * the requests that met its 404 share one initialize, so the server gets one new session and one GET stream.
   */
  renew(expired: string | undefined): Promise<void> {
    if (this.renewal) return this.renewal;
    const transport = this.connection.transport;
    // Another request's renewal has replaced it already: the caller sends again on the new session.
    if (transport.session !== expired) return Promise.resolve();
    transport.resetSession?.(expired);
    const renewal = this.handshake().then(
      () => {
        this.lost = false;
      },
      (error: Error) => {
        this.lost = true;
        throw new ConnectionClosedError(
          `the session${expired !== undefined ? ` ${JSON.stringify(expired)}` : ""} with ${transport.target} ended (HTTP 404) and no new one could be opened: ${error.message}`,
          { cause: error },
        );
      },
    );
    this.renewal = renewal.finally(() => (this.renewal = undefined));
    return this.renewal;
  }

  /** 2026-07-28 basic/index#meta: what every modern request says about its client. */
  meta(version: string, extra?: ClientCapabilities): Record<string, unknown> {
    // The same every time without extra capabilities: made once per version (frozen, as requests share it).
    if (!extra && this.ownMeta?.[META_PROTOCOL_VERSION] === version) return this.ownMeta;
    const own = clientCapabilities(this.options);
    if (!extra)
      return (this.ownMeta = Object.freeze({
        [META_PROTOCOL_VERSION]: version,
        [META_CLIENT_INFO]: this.options.clientInfo ?? DEFAULT_INFO,
        [META_CLIENT_CAPABILITIES]: own,
      }));
    return {
      [META_PROTOCOL_VERSION]: version,
      [META_CLIENT_INFO]: this.options.clientInfo ?? DEFAULT_INFO,
      [META_CLIENT_CAPABILITIES]: { ...own, ...extra, extensions: { ...own.extensions, ...extra.extensions } },
    };
  }
}
