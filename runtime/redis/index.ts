// mcpgen/redis: the state several server processes share, on Redis, so that
// a client is served the same whichever process its request reaches:
// - tasks (RedisTaskStore): created by one process, polled, updated and
//   cancelled through any;
// - a bus (RedisBus, pub/sub): list_changed, resources/updated and task
//   status reach listeners and handshake subscribers held by any process, and
//   tasks/cancel and tasks/update reach the process running the task;
// - the requestState signing keys, so that a multi round-trip retry may land on
//   another process (2026-07-28 basic/patterns/mrtr).
// Handshake sessions (2025-11-25 and before) stay with the process that
// opened them: the load balancer routes by Mcp-Session-Id (ARCHITECTURE.md).
//
// The runtime never imports this module: only a server that uses it needs the
// `redis` package. While Redis is unreachable, what needs it fails at once with
// an error naming Redis (commands are not queued), everything else is served,
// and the client reconnects by itself.
import { createHash, randomBytes } from "node:crypto";
import { createClient } from "redis";
import type { ServerLogger } from "../server/logging.js";
import type { BusMessage, ServerBus } from "../server/outgoing/bus.js";
import { RedisRequestStateKeys, type RequestStateKeyOptions } from "./request-state-keys.js";
import { isTerminal, type TaskChange, type TaskState, type TaskStore } from "../server/tasks/store.js";

export interface RedisStateOptions {
  /** e.g. "redis://127.0.0.1:6379". */
  url: string;
  /** Prefix of every key and channel, so that deployments can share a Redis. Default "mcpgen". */
  prefix?: string;
  /** Longest wait for one command, in ms. Default 2000. */
  commandTimeoutMs?: number;
  /** Where connection problems are reported. Default: stderr. */
  logger?: ServerLogger;
}

/** Redis could not serve a command; the message names the server and what failed. */
export class RedisUnavailableError extends Error {
  override name = "RedisUnavailableError";
}

/** A command in flight, until its deadline (ms since the epoch). */
interface Waiter {
  readonly deadline: number;
  readonly reject: (error: Error) => void;
}

/** What this module uses of a node-redis client. */
interface Client {
  connect(): Promise<unknown>;
  sendCommand(args: readonly string[]): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  on(event: "error" | "ready", listener: (error: Error) => void): unknown;
  close(): Promise<void>;
  destroy(): void;
}

/** The connections and the shared pieces built on them. */
export class RedisState {
  readonly tasks: RedisTaskStore;
  readonly bus: RedisBus;
  /** Commands waiting for their answer, oldest first; the watchdog rejects those past their deadline. */
  private readonly waiting = new Set<Waiter>();
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private keySource: Promise<RedisRequestStateKeys> | undefined;

  private constructor(
    private readonly commands: Client,
    private readonly subscriber: Client,
    private readonly commandTimeoutMs: number,
    private readonly where: string,
    readonly prefix: string,
  ) {
    this.tasks = new RedisTaskStore(this);
    this.bus = new RedisBus(this, subscriber);
  }

  /** Connects (rejects when Redis is not reachable now, naming it) and keeps reconnecting afterwards. */
  static async connect(options: RedisStateOptions): Promise<RedisState> {
    const logger =
      options.logger ??
      ((level, message, detail) => process.stderr.write(`[${level}] ${message}${detail ? ` ${detail}` : ""}\n`));
    const where = redactedUrl(options.url);
    const make = (): Client => {
      let ready = false;
      const client = createClient({
        url: options.url,
        // Fail at once while disconnected, instead of queueing without bound.
        disableOfflineQueue: true,
        socket: {
          connectTimeout: 2_000,
          // Reconnect for ever once connected; a first connection that fails fails connect() instead.
          reconnectStrategy: (retries: number, cause: Error) => (ready ? Math.min(100 * 2 ** retries, 2_000) : cause),
        },
      }) as unknown as Client;
      client.on("ready", () => (ready = true));
      let down = false;
      client.on("error", (error: Error) => {
        // Reported once per outage: a client reconnecting every 2 s would flood the log.
        if (down) return;
        down = true;
        logger("warning", `Redis at ${where} is unreachable; reconnecting`, error.message);
      });
      client.on("ready", () => {
        if (down) logger("info", `Redis at ${where} is reachable again`);
        down = false;
      });
      return client;
    };
    const commands = make();
    const subscriber = make();
    try {
      await Promise.all([commands.connect(), subscriber.connect()]);
    } catch (error) {
      commands.destroy();
      subscriber.destroy();
      throw new RedisUnavailableError(`cannot connect to Redis at ${where}: ${(error as Error).message}`);
    }
    return new RedisState(commands, subscriber, options.commandTimeoutMs ?? 2_000, where, options.prefix ?? "mcpgen");
  }

  /** One command; rejects with RedisUnavailableError when Redis cannot answer. */
  async command<T>(args: readonly string[]): Promise<T> {
    try {
      return (await this.withDeadline(this.commands.sendCommand(args))) as T;
    } catch (error) {
      if (error instanceof Error && /ERR|WRONGTYPE|NOSCRIPT/.test(error.message.slice(0, 12))) throw error;
      throw new RedisUnavailableError(
        `Redis at ${this.where} is unavailable (${args[0]}): ${(error as Error).message}`,
      );
    }
  }

  /**
   * The command's answer, or a rejection once commandTimeoutMs has passed
   * (checked every quarter of it). One watchdog timer serves every command in
   * flight, rather than node-redis's timer and AbortSignal per command.
   */
  private withDeadline<T>(answer: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = { deadline: Date.now() + this.commandTimeoutMs, reject };
      this.waiting.add(waiter);
      this.watchdog ??= setInterval(() => this.expire(), Math.max(10, this.commandTimeoutMs / 4)).unref();
      answer.then(
        (value) => {
          this.waiting.delete(waiter);
          resolve(value);
        },
        (error: unknown) => {
          this.waiting.delete(waiter);
          reject(error);
        },
      );
    });
  }

  private expire(): void {
    const now = Date.now();
    for (const waiter of this.waiting)
      if (waiter.deadline <= now) {
        this.waiting.delete(waiter);
        waiter.reject(new Error(`no answer within ${this.commandTimeoutMs} ms`));
      }
    if (this.waiting.size === 0) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
    }
  }

  /**
   * Runs a Lua script by its digest (EVALSHA), so that its text crosses the
   * wire only when Redis does not have it yet (after a restart: NOSCRIPT).
   */
  async script<T>(script: LuaScript, keys: readonly string[], args: readonly string[]): Promise<T> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.command<T>(["EVALSHA", script.sha1, ...tail]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return this.command<T>(["EVAL", script.body, ...tail]);
    }
  }

  /**
   * The keys requestState is signed with (ServerOptions.requestState.keys),
   * shared by every process: each signs with the oldest and verifies with all,
   * and re-publishes its own after Redis lost them (request-state-keys.ts).
   */
  requestStateKeys(options?: RequestStateKeyOptions): Promise<RedisRequestStateKeys> {
    const started = (this.keySource ??= RedisRequestStateKeys.start(
      {
        prefix: this.prefix,
        script: (script, keys, args) => this.script(script, keys, args),
        subscribe: (channel, listener) => this.subscriber.subscribe(channel, listener),
        onReconnect: (listener) => void this.commands.on("ready", listener),
      },
      options,
    ));
    started.catch(() => {
      if (this.keySource === started) this.keySource = undefined;
    });
    return started;
  }

  /** Closes both connections. */
  async close(): Promise<void> {
    (await this.keySource?.catch(() => undefined))?.stop();
    clearInterval(this.watchdog);
    this.watchdog = undefined;
    await Promise.allSettled([this.commands.close(), this.subscriber.close()]);
  }
}

/**
 * Tasks as Redis hashes, one field per TaskState member (JSON), expiring with
 * their ttl; each owner's tasks in a sorted set by creation time (tasks/list).
 * An update is one script, so that a terminal task never changes whichever
 * process writes (tasks#task-status: terminal states are final).
 */
export class RedisTaskStore implements TaskStore {
  constructor(private readonly redis: RedisState) {}

  private key(taskId: string): string {
    return `${this.redis.prefix}:task:${taskId}`;
  }

  private ownerKey(owner: string): string {
    return `${this.redis.prefix}:tasks-of:${owner}`;
  }

  async create(task: TaskState): Promise<void> {
    const fields = Object.entries(task).flatMap(([name, value]) =>
      value === undefined ? [] : [name, JSON.stringify(value)],
    );
    const ttl = task.ttlMs === null ? "0" : String(task.ttlMs);
    await this.redis.script(
      CREATE,
      [this.key(task.taskId), this.ownerKey(task.owner)],
      [ttl, String(Date.parse(task.createdAt)), task.taskId, ...fields],
    );
  }

  async get(taskId: string): Promise<TaskState | undefined> {
    return decode(await this.redis.command<string[] | Record<string, string>>(["HGETALL", this.key(taskId)]));
  }

  async update(taskId: string, change: TaskChange): Promise<TaskState | undefined> {
    const set: string[] = [];
    const removed: string[] = [];
    for (const [name, value] of Object.entries({ ...change, lastUpdatedAt: new Date().toISOString() }))
      if (value === undefined) removed.push(name);
      else set.push(name, JSON.stringify(value));
    const reply = await this.redis.script<string[]>(
      UPDATE,
      [this.key(taskId)],
      [String(set.length / 2), ...set, ...removed],
    );
    return decode(reply);
  }

  async list(owner: string, offset: number, limit: number): Promise<{ tasks: TaskState[]; more: boolean }> {
    // Expired tasks leave their id in the index: drop them and read the page again.
    for (;;) {
      const range = ["ZRANGE", this.ownerKey(owner), String(offset), String(offset + limit)];
      const ids = await this.redis.command<string[]>(range);
      const tasks: TaskState[] = [];
      const gone: string[] = [];
      for (const id of ids) {
        const task = await this.get(id);
        if (task) tasks.push(task);
        else gone.push(id);
      }
      if (gone.length === 0) return { tasks: tasks.slice(0, limit), more: ids.length > limit };
      await this.redis.command(["ZREM", this.ownerKey(owner), ...gone]);
    }
  }
}

/** A Lua script and its SHA-1, the name EVALSHA knows it by. */
interface LuaScript {
  readonly body: string;
  readonly sha1: string;
}

function lua(body: string): LuaScript {
  return { body, sha1: createHash("sha1").update(body).digest("hex") };
}

// KEYS: task, owner index. ARGV: ttl ms (0: none), created ms, id, field, value, ...
const CREATE = lua(`
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('ERR task id already exists') end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
local ttl = tonumber(ARGV[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
local left = redis.call('PTTL', KEYS[2])
if ttl == 0 then redis.call('PERSIST', KEYS[2]) elseif left >= 0 and left < ttl then redis.call('PEXPIRE', KEYS[2], ttl) elseif left == -2 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1`);

// KEYS: task. ARGV: n, then n field/value pairs, then fields to remove. Statuses are JSON strings.
const UPDATE = lua(`
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {} end
if status == '"completed"' or status == '"failed"' or status == '"cancelled"' then return redis.call('HGETALL', KEYS[1]) end
local n = tonumber(ARGV[1])
if n > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, 2, 1 + 2 * n)) end
if #ARGV > 1 + 2 * n then redis.call('HDEL', KEYS[1], unpack(ARGV, 2 + 2 * n)) end
return redis.call('HGETALL', KEYS[1])`);

/** A TaskState from HGETALL (a flat list in RESP2, a map in RESP3), undefined when there is none. */
function decode(reply: string[] | Record<string, string>): TaskState | undefined {
  const entries: [string, string][] = Array.isArray(reply)
    ? Array.from({ length: reply.length / 2 }, (_, i) => [reply[2 * i]!, reply[2 * i + 1]!])
    : Object.entries(reply);
  if (entries.length === 0) return undefined;
  const task: Record<string, unknown> = {};
  for (const [name, value] of entries) task[name] = JSON.parse(value);
  const state = task as unknown as TaskState;
  if (typeof state.taskId !== "string" || typeof state.status !== "string") return undefined;
  return state;
}

/**
 * The bus on Redis pub/sub: one channel per prefix; each message names the
 * process that sent it, so that it is not delivered back. A message published
 * while Redis is down is lost for the other processes (pub/sub keeps nothing),
 * and the publisher logs it.
 */
export class RedisBus implements ServerBus {
  /** This process, among those on the channel. */
  readonly origin = randomBytes(8).toString("hex");
  private readonly channel: string;

  constructor(
    private readonly redis: RedisState,
    private readonly subscriber: Client,
  ) {
    this.channel = `${redis.prefix}:bus`;
  }

  async publish(message: BusMessage): Promise<void> {
    await this.redis.command(["PUBLISH", this.channel, JSON.stringify({ origin: this.origin, message })]);
  }

  subscribe(receive: (message: BusMessage) => void): void {
    // The client subscribes again by itself after a reconnection.
    void this.subscriber
      .subscribe(this.channel, (text: string) => {
        let envelope: { origin?: unknown; message?: unknown };
        try {
          envelope = JSON.parse(text) as typeof envelope;
        } catch {
          return;
        }
        if (envelope.origin === this.origin) return;
        receive(envelope.message as BusMessage); // the server checks it (isBusMessage)
      })
      .catch(() => {
        // Not connected now: the subscription is made when the client connects again.
      });
  }
}

/** The URL without its password, for messages. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return `${parsed.host}`;
  } catch {
    return "(invalid URL)";
  }
}

export { isTerminal };
export { RedisRequestStateKeys, type RequestStateKeyOptions } from "./request-state-keys.js";
