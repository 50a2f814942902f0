// bench:http's client side: a minimal keep-alive HTTP client and the MCP client
// the benchmark drives with it.
import { connect, type Socket } from "node:net";

export type Mode = "legacy" | "per-request";

export interface Reply {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * A minimal HTTP/1.1 client on one keep-alive socket: requests written as
 * bytes, responses parsed just enough (status, headers, Content-Length or
 * chunked body). node:http's client costs more CPU than the servers under
 * test, and the driver shares the machine's cores with them. A socket the
 * server closed (node:http ends a keep-alive connection idle for 5 s, as while
 * the benchmark drives another server) is opened again on the next request; a
 * request it was waiting on fails. So that a request never races the server's
 * idle timeout (a request written as the server closes the socket is lost), a
 * connection idle for nearly as long as the server's Keep-Alive header says it
 * keeps one is replaced before the next request, as HTTP clients do (undici:
 * keepAliveTimeoutThreshold).
 */
class Connection {
  private socket: Socket;
  private connected = true;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | undefined;
  /** When the last response arrived (performance.now()), and how long the server keeps an idle connection. */
  private lastReply = 0;
  private keepAliveMs = DEFAULT_KEEP_ALIVE_MS;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {
    this.socket = this.connect();
  }

  private connect(): Socket {
    const socket = connect(this.port, this.host);
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      const reply = this.parse();
      if (reply) this.noteKeepAlive(reply);
      if (reply && this.waiting) {
        const { resolve } = this.waiting;
        this.waiting = undefined;
        resolve(reply);
      }
    });
    socket.on("error", () => {}); // followed by "close"
    socket.on("close", () => {
      if (socket !== this.socket) return;
      this.connected = false;
      this.buffered = Buffer.alloc(0);
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(new Error(`the server at ${this.host}:${this.port} closed the connection before answering`));
    });
    return socket;
  }

  post(path: string, body: string, headers: Record<string, string>): Promise<Reply> {
    if (
      this.connected &&
      this.lastReply > 0 &&
      performance.now() - this.lastReply > this.keepAliveMs - IDLE_MARGIN_MS
    ) {
      // The server may be closing it right now: its "close" is ignored (it is no longer this.socket).
      this.socket.destroy();
      this.connected = false;
      this.buffered = Buffer.alloc(0);
    }
    if (!this.connected) {
      this.socket = this.connect();
      this.connected = true;
    }
    const lines = [`POST ${path} HTTP/1.1`, `Host: ${this.host}`, `Content-Length: ${Buffer.byteLength(body)}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    });
  }

  /** Keep-Alive: timeout=N (seconds) from a response, if it says one. */
  private noteKeepAlive(reply: Reply): void {
    this.lastReply = performance.now();
    const timeout = /timeout=(\d+)/.exec(reply.headers.get("keep-alive") ?? "")?.[1];
    if (timeout !== undefined) this.keepAliveMs = Number(timeout) * 1000;
  }

  /** One complete response from the buffer, or undefined when more bytes are needed. */
  private parse(): Reply | undefined {
    const headEnd = this.buffered.indexOf("\r\n\r\n");
    if (headEnd === -1) return undefined;
    const head = this.buffered.toString("latin1", 0, headEnd).split("\r\n");
    const status = Number(head[0]!.split(" ")[1]);
    const headers = new Map<string, string>();
    for (const line of head.slice(1)) {
      const colon = line.indexOf(":");
      headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
    let at = headEnd + 4;
    let body: Buffer;
    if (headers.get("transfer-encoding") === "chunked") {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = this.buffered.indexOf("\r\n", at);
        if (lineEnd === -1) return undefined;
        const size = parseInt(this.buffered.toString("latin1", at, lineEnd), 16);
        if (this.buffered.length < lineEnd + 2 + size + 2) return undefined;
        parts.push(this.buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers.get("content-length") ?? 0);
      if (this.buffered.length < at + length) return undefined;
      body = this.buffered.subarray(at, at + length);
      at += length;
    }
    this.buffered = this.buffered.subarray(at);
    return { status, headers, body: body.toString("utf8") };
  }

  close(): void {
    this.socket.destroy();
  }
}

/** node:http's default keepAliveTimeout, for a server that sends no Keep-Alive header. */
const DEFAULT_KEEP_ALIVE_MS = 5_000;
/** How long before the server's idle timeout a connection is replaced rather than reused. */
const IDLE_MARGIN_MS = 1_000;

const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2025-11-25",
};

/** A per-request POST's headers: the version, and the method and tool name the body carries. */
const PER_REQUEST_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2026-07-28",
  "Mcp-Method": "tools/call",
  "Mcp-Name": "echo",
};

/** What every per-request call's params carry in _meta, serialized once. */
const PER_REQUEST_META = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
});

/**
 * One client: its own connection; `calls` echo calls one after the other.
 * Legacy: a session of its own (initialize first; the session id on every
 * request if the server gave one). Per-request: no handshake, every call
 * carries the _meta above and the per-request headers.
 */
export class BenchClient {
  private readonly connection: Connection;
  private readonly path: string;
  private headers: Record<string, string>;
  private next = 1;

  constructor(
    url: string,
    private readonly mode: Mode,
  ) {
    const parsed = new URL(url);
    this.connection = new Connection(parsed.hostname, Number(parsed.port));
    this.path = parsed.pathname;
    this.headers = mode === "legacy" ? HEADERS : PER_REQUEST_HEADERS;
  }

  /** Legacy: the handshake. Per-request: nothing (there is no handshake). */
  async open(): Promise<void> {
    if (this.mode === "per-request") return;
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    });
    const reply = await this.connection.post(this.path, init, this.headers);
    if (reply.status !== 200) throw new Error(`initialize: HTTP ${reply.status} ${reply.body}`);
    const sessionId = reply.headers.get("mcp-session-id");
    if (sessionId) this.headers = { ...HEADERS, "Mcp-Session-Id": sessionId };
    await this.connection.post(this.path, '{"jsonrpc":"2.0","method":"notifications/initialized"}', this.headers);
  }

  async run(calls: number, latencies: number[]): Promise<void> {
    const perRequest = this.mode === "per-request";
    const meta = perRequest ? `,"_meta":${PER_REQUEST_META}` : "";
    for (let i = 0; i < calls; i++) {
      const id = this.next++;
      const text = `hello ${id}`;
      const started = performance.now();
      const reply = await this.connection.post(
        this.path,
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${text}"}${meta}}}`,
        this.headers,
      );
      latencies.push((performance.now() - started) * 1000);
      // Accept JSON, or an SSE stream whose data line carries the response.
      const json = reply.body.startsWith("{") ? reply.body : /^data: (\{.*\})$/m.exec(reply.body)?.[1];
      const message = json
        ? (JSON.parse(json) as { id?: number; result?: { content?: { text?: string }[]; resultType?: string } })
        : {};
      if (
        reply.status !== 200 ||
        message.id !== id ||
        message.result?.content?.[0]?.text !== text ||
        (perRequest && message.result?.resultType !== "complete")
      )
        throw new Error(`unexpected answer to call ${id}: HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
    }
  }

  close(): void {
    this.connection.close();
  }
}
