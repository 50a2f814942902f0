// The requestState keys of several processes sharing Redis: a multi
// round-trip retry may reach any process (2026-07-28 basic/patterns/mrtr), so
// every process must verify what any other signed, including after Redis
// restarted empty while some processes kept running.
//
// Redis holds a sorted set of keys: each member is `<created ms>.<key>`, its
// score the last time a process signed with it. Every process signs with the
// oldest key of the set (so all converge on one), verifies with all of them,
// and every `refreshMs` (and when another process announces a change, and
// after a reconnection) re-adds the keys it signed with lately and reads the
// set again. A set found empty gets this process's fresh key. A key nobody
// has signed with for longer than a requestState lives leaves the set.
import { createHash, randomBytes } from "node:crypto";
import type { RequestStateKeySource } from "../server/input/request-state.js";

export interface RequestStateKeyOptions {
  /** How often this process reads the shared keys again, in ms. Default 5000. */
  refreshMs?: number;
}

/** What the key set needs of RedisState. */
export interface KeyStoreAccess {
  readonly prefix: string;
  script<T>(script: { readonly body: string; readonly sha1: string }, keys: string[], args: string[]): Promise<T>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  onReconnect(listener: () => void): void;
}

/** How often a verification miss may make this process read the set again. */
const MISS_REFRESH_MS = 1_000;
/** Clock differences between processes that a retired key's lifetime allows for. */
const CLOCK_SLACK_MS = 60_000;

// KEYS: the key set. ARGV: now, retain ms, channel, origin, candidate, then (last signed ms, member) pairs.
// Returns the set as member, score, ...; publishes the origin when it added a member.
const SYNC_BODY = `
local now = tonumber(ARGV[1])
local added = 0
for i = 6, #ARGV, 2 do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i + 1])
  if not score then added = added + 1 end
  if not score or tonumber(score) < tonumber(ARGV[i]) then redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[2])))
if redis.call('ZCARD', KEYS[1]) == 0 then
  redis.call('ZADD', KEYS[1], now, ARGV[5])
  added = added + 1
end
if added > 0 then redis.call('PUBLISH', ARGV[3], ARGV[4]) end
return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')`;
const SYNC = { body: SYNC_BODY, sha1: createHash("sha1").update(SYNC_BODY).digest("hex") };

interface KnownKey {
  readonly bytes: Buffer;
  readonly created: number;
  /** Until when it verifies here without being seen in Redis again (ms since the epoch). */
  until: number;
}

/** ServerOptions.requestState.keys shared through Redis (RedisState.requestStateKeys()). */
export class RedisRequestStateKeys implements RequestStateKeySource {
  /** This process, among those announcing changes. */
  private readonly origin = randomBytes(8).toString("hex");
  private readonly setKey: string;
  private readonly channel: string;
  private readonly refreshMs: number;
  /** Longest requestState lifetime of the servers using these keys. */
  private ttlMs = 10 * 60_000;
  private readonly known = new Map<string, KnownKey>();
  /** Members this process signed with, and when it last did. */
  private readonly signedWith = new Map<string, number>();
  private signing: string | undefined;
  private keys: readonly Buffer[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private lastSync = 0;

  private constructor(
    private readonly redis: KeyStoreAccess,
    options: RequestStateKeyOptions,
  ) {
    this.setKey = `${redis.prefix}:request-state-keys`;
    this.channel = `${redis.prefix}:request-state-keys`;
    this.refreshMs = options.refreshMs ?? 5_000;
    if (!(this.refreshMs > 0)) throw new RangeError("requestStateKeys refreshMs must be a positive number of ms");
  }

  /** Reads (or creates) the shared keys, then keeps them current until stop(). */
  static async start(redis: KeyStoreAccess, options: RequestStateKeyOptions = {}): Promise<RedisRequestStateKeys> {
    const keys = new RedisRequestStateKeys(redis, options);
    await keys.sync();
    keys.timer = setInterval(() => keys.refresh(), keys.refreshMs).unref();
    redis.onReconnect(() => keys.refresh());
    await redis
      .subscribe(keys.channel, (origin) => {
        if (origin !== keys.origin) keys.refresh();
      })
      .catch(() => {
        // Not connected now: the client subscribes when it connects again, and the timer reads meanwhile.
      });
    return keys;
  }

  current(): readonly Buffer[] {
    return this.keys;
  }

  missed(): void {
    if (Date.now() - this.lastSync >= MISS_REFRESH_MS) this.refresh();
  }

  accepting(ttlMs: number): void {
    this.ttlMs = Math.max(this.ttlMs, ttlMs);
  }

  /** Stops reading the set again (RedisState.close()). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A sync whose failure (Redis down) keeps the keys as they are. */
  private refresh(): void {
    if (this.timer !== undefined) this.sync().catch(() => undefined);
  }

  /** One sync at a time; a sync asked for meanwhile runs once after it. */
  private sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.syncOnce().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    });
    return this.running;
  }

  private async syncOnce(): Promise<void> {
    const now = Date.now();
    this.lastSync = now;
    // A key stays while a requestState signed with it may still come back.
    const retain = this.ttlMs + 2 * this.refreshMs + CLOCK_SLACK_MS;
    if (this.signing !== undefined) this.signedWith.set(this.signing, now);
    for (const [member, at] of this.signedWith) if (at < now - retain) this.signedWith.delete(member);
    const candidate = this.signing ?? `${now}.${randomBytes(32).toString("base64")}`;
    const announced = [...this.signedWith].flatMap(([member, at]) => [String(at), member]);
    const reply = await this.redis.script<string[]>(
      SYNC,
      [this.setKey],
      [String(now), String(retain), this.channel, this.origin, candidate, ...announced],
    );
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const member = reply[i]!;
      const until = Number(reply[i + 1]) + retain;
      const seen = this.known.get(member);
      if (seen) seen.until = Math.max(seen.until, until);
      else {
        const dot = member.indexOf(".");
        const bytes = Buffer.from(member.slice(dot + 1), "base64");
        if (dot > 0 && bytes.length >= 16)
          this.known.set(member, { bytes, created: Number(member.slice(0, dot)), until });
      }
    }
    for (const [member, key] of this.known) if (key.until < now && member !== this.signing) this.known.delete(member);
    // The oldest key signs: every process that has read the same set picks the same one.
    let oldest: string | undefined;
    for (const [member, key] of this.known) {
      const best = oldest === undefined ? undefined : this.known.get(oldest)!;
      if (!best || key.created < best.created || (key.created === best.created && member < oldest!)) oldest = member;
    }
    if (oldest === undefined) return;
    this.signing = oldest;
    this.keys = [
      this.known.get(oldest)!.bytes,
      ...[...this.known].filter(([member]) => member !== oldest).map(([, key]) => key.bytes),
    ];
  }
}
