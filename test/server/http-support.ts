// Raw HTTP for the transport tests: node:http requests with full control of
// the headers (fetch will not send a forged Host), and an SSE reader.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { request, type Agent, type IncomingHttpHeaders, type IncomingMessage } from "node:http";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export const ACCEPT_BOTH = "application/json, text/event-stream";

export function raw(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; agent?: Agent } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: options.headers ?? {}, ...(options.agent ? { agent: options.agent } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.end(options.body);
  });
}

/** POSTs one JSON-RPC message with the headers a Streamable HTTP client sends. */
export function post(url: string, message: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw("POST", url, {
    headers: { "Content-Type": "application/json", Accept: ACCEPT_BOTH, ...headers },
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
}

export const initializeMessage = (protocolVersion = "2025-11-25", id: number | string = 0) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-http", version: "1" } },
});

/** Initializes a session (with `headers` on both requests, e.g. Authorization); returns its id. */
export async function openSession(
  url: string,
  protocolVersion = "2025-11-25",
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await post(url, initializeMessage(protocolVersion), headers);
  const id = response.headers["mcp-session-id"];
  if (typeof id !== "string") throw new Error(`no session id: ${response.status} ${response.body}`);
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...headers, "Mcp-Session-Id": id });
  return id;
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** An open SSE response: events as they arrive. */
export class SseReader {
  readonly events: SseEvent[] = [];
  private buffered = "";
  private waiters: (() => void)[] = [];
  ended = false;

  constructor(readonly response: IncomingMessage) {
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      this.buffered += chunk;
      let boundary: number;
      while ((boundary = this.buffered.indexOf("\n\n")) !== -1) {
        const block = this.buffered.slice(0, boundary);
        this.buffered = this.buffered.slice(boundary + 2);
        const event: SseEvent = { data: "" };
        const data: string[] = [];
        for (const line of block.split("\n")) {
          const colon = line.indexOf(":");
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "data") data.push(value);
          else if (field === "id") event.id = value;
          else if (field === "event") event.event = value;
          else if (field === "retry") event.retry = Number(value);
        }
        event.data = data.join("\n");
        this.events.push(event);
      }
      this.wake();
    });
    response.on("end", () => {
      this.ended = true;
      this.wake();
    });
    response.on("close", () => {
      this.ended = true;
      this.wake();
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves once `test` holds for the events so far (or rejects after `timeoutMs`). */
  async until(test: (events: SseEvent[]) => boolean, timeoutMs = 10_000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!test(this.events)) {
      if (this.ended) throw new Error(`stream ended: ${JSON.stringify(this.events)}`);
      if (Date.now() > deadline) throw new Error(`timed out; events: ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return this.events;
  }

  /** The JSON-RPC messages among the events (priming events carry none). */
  messages(): Record<string, any>[] {
    return this.events.filter((e) => e.data !== "").map((e) => JSON.parse(e.data));
  }

  close(): void {
    this.response.destroy();
  }
}

/** Opens a request whose response is an SSE stream. */
export function openSse(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; reader: SseReader }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      resolve({ status: res.statusCode!, headers: res.headers, reader: new SseReader(res) });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Starts a compiled HTTP fixture (dist/test/fixtures/servers/*.js, built by
 * `npm test`) with Node flags, and resolves with it and the endpoint URL it
 * prints on the first line of stdout.
 */
export async function startFixture(
  fixture: string,
  nodeFlags: readonly string[],
): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  if (!existsSync(fixture)) throw new Error(`${fixture} is missing: run npm test (it compiles the fixtures) first`);
  const child = spawn(process.execPath, [...nodeFlags, fixture], { stdio: ["pipe", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${fixture} did not start`)), 20_000);
    child.stdout.setEncoding("utf8");
    child.stdout.once("data", (line: string) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    child.once("exit", (code) => reject(new Error(`${fixture} exited with ${code}`)));
  });
  return { child, url };
}
