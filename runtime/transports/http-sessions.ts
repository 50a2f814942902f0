// The handshake sessions one HTTP endpoint holds: Streamable HTTP sessions
// (Mcp-Session-Id) and 2024-11-05 HTTP+SSE ones (the sessionId query). Their
// ids (basic/transports#session-management: globally unique, cryptographically
// secure, visible ASCII; a prefix per process for the balancer's affinity), who
// owns each, the cap (maxSessions) with the eviction of the idlest idle
// session, and the sweep of sessions idle for longer than sessionIdleMs.
import { nodeCrypto } from "../node-crypto.js";
import { principalOf as principalOfAuthorization } from "../server/authorization.js";
import type { ServerLogger } from "../server/logging.js";
import type { Session } from "../server/session/session.js";
import type { HttpSession, RequestAuth } from "./http-exchanges.js";

/** Who a token stands for, as a session remembers it (basic/security_best_practices#session-hijacking: bind sessions to the user). */
export function principalOf(auth: RequestAuth | undefined): string {
  return principalOfAuthorization(auth?.authorization);
}

/** A 2024-11-05 HTTP+SSE session: replies travel on its one SSE stream. */
export interface LegacySseSession {
  readonly session: Session;
  readonly principal: string;
  write(json: string): void;
}

export class HttpSessionTable {
  /** Streamable HTTP sessions by id, least recently active first (touch moves one to the end). */
  private readonly sessions = new Map<string, HttpSession>();
  /** HTTP+SSE sessions by id; they hold their stream open while they live, so they are never idle. */
  readonly legacy = new Map<string, LegacySseSession>();
  /** Sessions whose initialize is being answered (they count against maxSessions). */
  private opening = 0;
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(
    private readonly limits: { readonly maxSessions: number; readonly sessionIdleMs: number },
    private readonly logger: ServerLogger,
    /** Starts every id this process makes (HttpOptions.sessionIdPrefix). */
    private readonly idPrefix: string,
  ) {
    // basic/transports#session-management: a session id holds only visible ASCII (0x21 to 0x7E).
    if (!/^[\x21-\x7e]{0,64}$/.test(idPrefix))
      throw new TypeError(`sessionIdPrefix ${JSON.stringify(idPrefix)} must be at most 64 visible ASCII characters`);
    this.sweeper = setInterval(() => this.sweep(), Math.min(limits.sessionIdleMs, 60_000));
    this.sweeper.unref();
  }

  /** Live sessions (Streamable HTTP and HTTP+SSE, and those being opened). */
  get count(): number {
    return this.sessions.size + this.legacy.size + this.opening;
  }

  /**
   * Whether one more session fits, evicting the least recently active idle
   * Streamable HTTP session if the cap is reached: abandoned sessions must not
   * lock new clients out until they expire. An evicted client gets 404 on its
   * next request and initializes again (basic/transports#session-management).
   */
  roomForOne(): boolean {
    if (this.count < this.limits.maxSessions) return true;
    let idlest: HttpSession | undefined;
    for (const state of this.sessions.values())
      if (!state.busy) {
        idlest = state;
        break;
      }
    if (!idlest) return false;
    this.sessions.delete(idlest.id);
    idlest.close();
    this.logger(
      "info",
      `evicted idle session ${idlest.id} (inactive for ${Date.now() - idlest.lastActive} ms) to make room for a new one`,
    );
    return true;
  }

  newId(): string {
    return this.idPrefix + nodeCrypto().randomBytes(16).toString("hex");
  }

  /** A session is being opened (its initialize answered); `opened` or `notOpened` follows. */
  startOpening(): void {
    this.opening++;
  }

  /** The session an initialize opened: from now on its id names it. */
  opened(state: HttpSession): void {
    this.opening--;
    this.touch(state);
  }

  /** The initialize failed: no session. */
  notOpened(): void {
    this.opening--;
  }

  /**
   * The session a request names, if `principal` opened it: another identity's
   * token with it gets the same answer as an unknown id, which tells nothing of
   * the session and leaves it untouched (basic/security_best_practices#session-hijacking).
   */
  owned(id: string, principal: string): HttpSession | undefined {
    const state = this.sessions.get(id);
    if (!state || state.principal !== principal) return undefined;
    return state;
  }

  /** Marks activity: the session moves to the end of the order eviction follows. */
  touch(state: HttpSession): void {
    state.lastActive = Date.now();
    this.sessions.delete(state.id);
    this.sessions.set(state.id, state);
  }

  /** Ends a session (DELETE). */
  end(state: HttpSession): void {
    this.sessions.delete(state.id);
    state.close();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, state] of this.sessions) {
      if (now - state.lastActive < this.limits.sessionIdleMs || state.busy) continue;
      this.sessions.delete(id);
      state.close();
    }
  }

  /** Ends every session and stops the sweep. */
  close(): void {
    clearInterval(this.sweeper);
    for (const state of this.sessions.values()) state.close();
    this.sessions.clear();
    for (const { session } of this.legacy.values()) session.close();
    this.legacy.clear();
  }
}

/**
 * The response headers of the POST that carries a session's initialize,
 * decided once, when its answer starts (basic/transports#session-management:
 * the session id rides on the response carrying the InitializeResult). The
 * session opens then; if initialize failed, there is no session and no id.
 * `table` counts the session as being opened (startOpening) until then.
 */
export function sessionOpening(table: HttpSessionTable, state: HttpSession): () => Record<string, string> {
  let decided: Record<string, string> | undefined;
  return () => {
    if (decided) return decided;
    if (state.session.revision === undefined) {
      table.notOpened();
      state.close();
      decided = {};
    } else {
      table.opened(state);
      decided = { "Mcp-Session-Id": state.id };
    }
    return decided;
  };
}
