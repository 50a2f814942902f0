// The handshake sessions one HTTP endpoint holds: Streamable HTTP sessions
// (Mcp-Session-Id) and 2024-11-05 HTTP+SSE ones (the sessionId query). Their
// ids (basic/transports#session-management: globally unique, cryptographically
// secure, visible ASCII; a prefix per process for the balancer's affinity), who
// owns each, the caps (maxSessions, and per principal maxSessionsPerPrincipal
// and maxStreamsPerPrincipal) with the eviction of an idle session that keeps
// one principal from pushing out another, and the sweep of sessions idle for
// longer than sessionIdleMs.
import { nodeCrypto } from "../node-crypto.js";
import { boundedCallerOf, principalOf as principalOfAuthorization } from "../server/authorization.js";
import type { ServerLogger } from "../server/logging.js";
import type { Session } from "../server/session/session.js";
import type { HttpResponseSink } from "./http-wire.js";
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

/** The bounds a session table keeps, with their defaults applied. */
export interface SessionTableLimits {
  readonly maxSessions: number;
  readonly sessionIdleMs: number;
  /** Sessions (both transports, those being opened included) one principal may hold. */
  readonly maxSessionsPerPrincipal: number;
  /** GET streams (standalone or resumed) one principal may have open. */
  readonly maxStreamsPerPrincipal: number;
  /**
   * Whether callers are told apart (auth is configured). Without it every
   * caller is the same anonymous principal, and the per-principal bounds,
   * which would then be smaller server-wide caps, do not apply.
   */
  readonly perPrincipal: boolean;
}

/** Why a new session or stream was refused: the HTTP status and the message naming the bound. */
export interface Refusal {
  readonly status: 429 | 503;
  readonly message: string;
}

export class HttpSessionTable {
  /** Streamable HTTP sessions by id, least recently active first (touch moves one to the end). */
  private readonly sessions = new Map<string, HttpSession>();
  /** HTTP+SSE sessions by id; they hold their stream open while they live, so they are never idle. */
  private readonly legacy = new Map<string, LegacySseSession>();
  /** Sessions whose initialize is being answered (they count against maxSessions). */
  private opening = 0;
  /** Sessions per caller (boundedCallerOf): Streamable HTTP, HTTP+SSE and being opened. */
  private readonly held = new Map<string, number>();
  /** Open GET streams per caller (boundedCallerOf). */
  private readonly streamsHeld = new Map<string, number>();
  /** The idle sweep, from the first session on. */
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly limits: SessionTableLimits,
    private readonly logger: ServerLogger,
    /** Starts every id this process makes (HttpOptions.sessionIdPrefix). */
    private readonly idPrefix: string,
  ) {
    // basic/transports#session-management: a session id holds only visible ASCII (0x21 to 0x7E).
    if (!/^[\x21-\x7e]{0,64}$/.test(idPrefix))
      throw new TypeError(`sessionIdPrefix ${JSON.stringify(idPrefix)} must be at most 64 visible ASCII characters`);
    for (const name of ["maxSessions", "maxSessionsPerPrincipal", "maxStreamsPerPrincipal"] as const)
      if (!Number.isInteger(limits[name]) || limits[name] < 1)
        throw new RangeError(`${name} must be a positive integer, not ${limits[name]}`);
  }

  /** Live sessions (Streamable HTTP and HTTP+SSE, and those being opened). */
  get count(): number {
    return this.sessions.size + this.legacy.size + this.opening;
  }

  /**
   * Makes room for one more session of `principal`, or says why not. Past
   * maxSessionsPerPrincipal the principal's own idlest session goes (429 when
   * all of them are busy). At maxSessions an idle session goes, so that
   * abandoned ones cannot lock new clients out; which one keeps one principal
   * from pushing out another: a principal holding its share
   * (maxSessions / principals holding sessions) or more recycles its own; one
   * below it takes the idlest of a principal above its share, else the idlest
   * of all. A session with work (a request or task running, an open stream)
   * is never taken. An evicted client gets 404 on its next request and
   * initializes again (basic/transports#session-management).
   */
  roomFor(principal: string): Refusal | undefined {
    const caller = boundedCallerOf(principal);
    const mine = this.held.get(caller) ?? 0;
    const own = (state: HttpSession) => boundedCallerOf(state.principal) === caller;
    if (this.limits.perPrincipal && mine >= this.limits.maxSessionsPerPrincipal) {
      if (
        this.evictIdlest(own, `this caller's ${this.limits.maxSessionsPerPrincipal} sessions (maxSessionsPerPrincipal)`)
      )
        return undefined;
      return {
        status: 429,
        message: `Too Many Requests: this caller already holds ${mine} sessions, the limit (maxSessionsPerPrincipal), and none is idle; end one (DELETE) or try again later`,
      };
    }
    if (this.count < this.limits.maxSessions) return undefined;
    const share = Math.ceil(this.limits.maxSessions / (this.held.size + (mine === 0 ? 1 : 0)));
    const why = `the server's ${this.limits.maxSessions} sessions (maxSessions)`;
    if (mine >= share) {
      if (this.evictIdlest(own, why)) return undefined;
    } else if (
      this.evictIdlest((state) => (this.held.get(boundedCallerOf(state.principal)) ?? 0) > share, why) ||
      this.evictIdlest(() => true, why)
    )
      return undefined;
    if (mine >= share && this.anyIdle())
      return {
        status: 503,
        message: `Service Unavailable: the server holds its ${this.limits.maxSessions} sessions (maxSessions) and this caller ${mine} of them, its share, none idle; try again later`,
      };
    return { status: 503, message: "Service Unavailable: every session is busy; try again later" };
  }

  /** Ends the least recently active idle Streamable HTTP session that `eligible` accepts; false when there is none. */
  private evictIdlest(eligible: (state: HttpSession) => boolean, why: string): boolean {
    for (const state of this.sessions.values()) {
      if (state.busy || !eligible(state)) continue;
      this.remove(state);
      state.close();
      this.logger(
        "info",
        `evicted idle session ${state.id} (inactive for ${Date.now() - state.lastActive} ms) to make room in ${why}`,
      );
      return true;
    }
    return false;
  }

  private anyIdle(): boolean {
    for (const state of this.sessions.values()) if (!state.busy) return true;
    return false;
  }

  newId(): string {
    return this.idPrefix + nodeCrypto().randomBytes(16).toString("hex");
  }

  /** A session of `principal` is being opened (its initialize answered); `opened` or `notOpened` follows. */
  startOpening(principal: string): void {
    this.opening++;
    this.count1(this.held, principal, 1);
  }

  /** The session an initialize opened: from now on its id names it. */
  opened(state: HttpSession): void {
    this.opening--;
    this.touch(state);
    // Not in the constructor: a fetch handler is made at a module's top level, where workerd refuses timers.
    if (!this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), Math.min(this.limits.sessionIdleMs, 60_000));
      // Node's timers keep the process alive unless unref'd; Deno's and workerd's are numbers.
      (this.sweeper as { unref?: () => void }).unref?.();
    }
  }

  /** The initialize failed: no session. */
  notOpened(state: HttpSession): void {
    this.opening--;
    this.count1(this.held, state.principal, -1);
  }

  /** A 2024-11-05 HTTP+SSE session opened (after roomFor). */
  addLegacy(id: string, legacy: LegacySseSession): void {
    this.legacy.set(id, legacy);
    this.count1(this.held, legacy.principal, 1);
  }

  /** Its stream closed: the session is gone. */
  removeLegacy(id: string): void {
    const legacy = this.legacy.get(id);
    if (!legacy) return;
    this.legacy.delete(id);
    this.count1(this.held, legacy.principal, -1);
  }

  /** The HTTP+SSE session a POST names, if `principal` opened it (else as unknown: see owned). */
  ownedLegacy(id: string, principal: string): LegacySseSession | undefined {
    const legacy = this.legacy.get(id);
    return legacy?.principal === principal ? legacy : undefined;
  }

  /**
   * Counts a GET stream `principal` opens on `response` until it closes, or
   * refuses it past maxStreamsPerPrincipal (429): every open stream keeps its
   * session busy, so that a principal could otherwise pin every session slot.
   */
  openStream(principal: string, response: HttpResponseSink): Refusal | undefined {
    const open = this.streamsHeld.get(boundedCallerOf(principal)) ?? 0;
    if (this.limits.perPrincipal && open >= this.limits.maxStreamsPerPrincipal)
      return {
        status: 429,
        message: `Too Many Requests: this caller already has ${open} SSE streams open, the limit (maxStreamsPerPrincipal); close one or try again later`,
      };
    this.count1(this.streamsHeld, principal, 1);
    response.once("close", () => this.count1(this.streamsHeld, principal, -1));
    return undefined;
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
    this.remove(state);
    state.close();
  }

  private remove(state: HttpSession): void {
    if (this.sessions.delete(state.id)) this.count1(this.held, state.principal, -1);
  }

  /** Counts one more or one less for the caller `principal` is counted against (boundedCallerOf). */
  private count1(counts: Map<string, number>, principal: string, by: 1 | -1): void {
    const caller = boundedCallerOf(principal);
    const count = (counts.get(caller) ?? 0) + by;
    if (count > 0) counts.set(caller, count);
    else counts.delete(caller);
  }

  private sweep(): void {
    const now = Date.now();
    for (const state of [...this.sessions.values()]) {
      if (now - state.lastActive < this.limits.sessionIdleMs || state.busy) continue;
      this.remove(state);
      state.close();
    }
  }

  /** Ends every session and stops the sweep. */
  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const state of this.sessions.values()) state.close();
    this.sessions.clear();
    for (const { session } of this.legacy.values()) session.close();
    this.legacy.clear();
    this.held.clear();
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
      table.notOpened(state);
      state.close();
      decided = {};
    } else {
      table.opened(state);
      decided = { "Mcp-Session-Id": state.id };
    }
    return decided;
  };
}
