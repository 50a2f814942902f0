// A scripted JSON-RPC client for server tests. It speaks raw JSON, and checks
// every message the server sends with the generated validator of the
// negotiated revision (responses against the result type of the request they
// answer). The same client drives an in-process session or a child process.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { loadMessageTables, revisions } from "../../generated/index.js";
import { checkMessage, type MessageTables } from "../../runtime/index.js";
import type { McpServer } from "../../runtime/server/index.js";

export type Message = Record<string, any>;
export type RequestId = string | number;

/** The four revisions with the initialize handshake, oldest first. */
export const statefulRevisions: string[] = revisions.filter((r) => r.lifecycle === "initialize").map((r) => r.name);

export interface Connection {
  write(text: string): void;
  close(): void;
}

/** How the client answers a server-to-client request: a result, or an error to send back. */
export type RequestAnswer = (message: Message) => unknown | { error: { code: number; message: string } };

/** Who waits for which server message: each waiter is resolved by the first message it accepts. */
export class MessageWaiters {
  private readonly listeners: ((message: Message) => void)[] = [];

  /** Offers a message to every waiter (a copy of the list: a resolved waiter leaves it). */
  notify(message: Message): void {
    for (const listener of [...this.listeners]) listener(message);
  }

  /** Resolves with the next message that satisfies `test`; rejects after `timeoutMs`. */
  next(test: (message: Message) => boolean, timeoutMs: number): Promise<Message> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms`)), timeoutMs);
      const listener = (message: Message) => {
        if (!test(message)) return;
        clearTimeout(timer);
        this.listeners.splice(this.listeners.indexOf(listener), 1);
        resolve(message);
      };
      this.listeners.push(listener);
    });
  }
}

export class ScriptedClient {
  /** Every message the server sent, parsed, in order (batch replies as arrays). */
  readonly received: unknown[] = [];
  /** Server messages the negotiated revision's validator rejected. */
  readonly problems: string[] = [];
  private readonly methodsById = new Map<RequestId, string>();
  private readonly waiting = new Map<RequestId, (message: Message) => void>();
  private readonly waiters = new MessageWaiters();
  private nextId = 1;
  private tables: MessageTables;
  /** Answers server-to-client requests (sampling, elicitation, roots, ping). */
  answer: RequestAnswer = (message) =>
    message["method"] === "ping" ? {} : { error: { code: -32601, message: `no handler for ${message["method"]}` } };

  constructor(
    private readonly connection: Connection,
    tables: MessageTables,
  ) {
    this.tables = tables;
  }

  /** Feeds one line the server wrote. */
  onLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.problems.push(`not JSON: ${line.slice(0, 200)}`);
      return;
    }
    this.received.push(value);
    const messages = Array.isArray(value) ? value : [value];
    for (const message of messages as Message[]) {
      this.check(message);
      this.waiters.notify(message);
      if (message["method"] !== undefined && message["id"] !== undefined) this.answerRequest(message);
      else if (message["method"] === undefined && message["id"] !== undefined) {
        const resolve = this.waiting.get(message["id"]);
        if (resolve) {
          this.waiting.delete(message["id"]);
          resolve(message);
        }
      }
    }
  }

  /** Validates with the negotiated revision; an error without an id (unreadable request) with the revision that allows it. */
  private check(message: Message): void {
    const method = message["id"] !== undefined ? this.methodsById.get(message["id"]) : undefined;
    let verdict = checkMessage(message, this.tables, method);
    if (!verdict.result.valid && message["error"] !== undefined && message["id"] === undefined) {
      // Before 2025-11-25 the schema requires an id even where JSON-RPC has none
      // to give; 2025-11-25 made it optional for exactly this case (basic#error-responses).
      verdict = checkMessage(message, newestStatefulTables!);
    }
    if (!verdict.result.valid)
      this.problems.push(`${JSON.stringify(message).slice(0, 300)}: ${JSON.stringify(verdict.result.errors)}`);
  }

  private answerRequest(message: Message): void {
    void Promise.resolve()
      .then(() => this.answer(message))
      .then((answer) => {
        const reply =
          answer && typeof answer === "object" && "error" in answer
            ? { jsonrpc: "2.0", id: message["id"], error: (answer as { error: unknown }).error }
            : { jsonrpc: "2.0", id: message["id"], result: answer };
        this.write(reply);
      });
  }

  /** Switches validation to the revision the server negotiated. */
  async useRevision(revision: string): Promise<void> {
    this.tables = await loadMessageTables[revision as keyof typeof loadMessageTables]();
  }

  write(message: unknown): void {
    this.connection.write(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Sends a request and resolves with the server's response. */
  request(method: string, params?: unknown, id: RequestId = this.nextId++): Promise<Message> {
    this.methodsById.set(id, method);
    const response = this.response(id);
    this.write(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return response;
  }

  /** Resolves with the response to `id` (sent by the test itself, perhaps as raw text). */
  response(id: RequestId, timeoutMs = 10_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no response to request ${JSON.stringify(id)} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  /** Remembers which method an id belongs to, for requests the test writes as raw text. */
  expect(id: RequestId, method: string): void {
    this.methodsById.set(id, method);
  }

  notify(method: string, params?: unknown): void {
    this.write(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** The notifications received so far, optionally of one method. */
  notifications(method?: string): Message[] {
    return (this.received.flatMap((m) => (Array.isArray(m) ? m : [m])) as Message[]).filter(
      (m) => m["id"] === undefined && m["method"] !== undefined && (method === undefined || m["method"] === method),
    );
  }

  /** Resolves with the next server message that satisfies `test`. */
  next(test: (message: Message) => boolean, timeoutMs = 10_000): Promise<Message> {
    return this.waiters.next(test, timeoutMs);
  }

  /** initialize at `revision`, then notifications/initialized. */
  async initialize(revision: string, capabilities: Record<string, unknown> = {}): Promise<Message> {
    const response = await this.request("initialize", {
      protocolVersion: revision,
      capabilities,
      clientInfo: { name: "scripted-client", version: "1.0.0" },
    });
    if (response["result"]) await this.useRevision(response["result"]["protocolVersion"]);
    this.notify("notifications/initialized");
    return response;
  }

  close(): void {
    this.connection.close();
  }
}

let newestStatefulTables: MessageTables | undefined;
export async function loadTables(revision: string): Promise<MessageTables> {
  newestStatefulTables ??= await loadMessageTables[statefulRevisions.at(-1) as keyof typeof loadMessageTables]();
  return loadMessageTables[revision as keyof typeof loadMessageTables]();
}

/** A client on an in-process session of `server`. */
export async function inProcess(server: McpServer, revision = statefulRevisions.at(-1)!): Promise<ScriptedClient> {
  let client!: ScriptedClient;
  const session = server.connect((json) => client.onLine(json));
  client = new ScriptedClient(
    { write: (text) => session.receive(text), close: () => session.close() },
    await loadTables(revision),
  );
  return client;
}

export interface ChildServer {
  readonly client: ScriptedClient;
  readonly child: ChildProcessWithoutNullStreams;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
}

/** Starts `node script args` and speaks to it over stdio; killed after `timeoutMs` at the latest. */
export async function childServer(
  script: string,
  args: string[] = [],
  options: { revision?: string; timeoutMs?: number; nodeOptions?: string[] } = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), script, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(killer);
      resolve(code);
    }),
  );
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderr += chunk));
  const client = new ScriptedClient(
    {
      write: (text) => child.stdin.write(text + "\n"),
      close: () => child.stdin.end(),
    },
    await loadTables(options.revision ?? statefulRevisions.at(-1)!),
  );
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      client.onLine(line);
    }
  });
  return { client, child, stderr: () => stderr, exited };
}
