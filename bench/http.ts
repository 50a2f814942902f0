// Benchmark: an MCP server over Streamable HTTP, side by side in one run. Each
// server offers one tool, echo({ text }), and runs as a child process on loopback:
//   floor              node:http that parses each POST and echoes (bench/servers/http-floor.ts)
//   mcpgen (sessions)  serveHttp, Mcp-Session-Id sessions (bench/servers/http-mcpgen.ts)
//   mcpgen (stateless) serveHttp({ sessions: false })
//   SDK (sessions)     @modelcontextprotocol/sdk StreamableHTTPServerTransport, a transport per session
//   SDK (stateless)    a server and transport per request, as the SDK documents (bench/servers/http-sdk.ts)
// 16 clients, each on its own keep-alive connection with its own session,
// call tools/call one after the other. Figures: requests/s, p50/p99 latency,
// and the server's peak RSS (VmHWM); medians over rounds, ratios to the floor
// measured in the same run.
//
// Run: npm run bench:http [-- --rounds N] [--quick]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";

const quick = process.argv.includes("--quick");
const roundsArg = process.argv.indexOf("--rounds");
const rounds = roundsArg !== -1 ? Number(process.argv[roundsArg + 1]) : quick ? 1 : 3;
const clients = 16;
const callsPerClient = quick ? 30 : 1_500;
const warmupPerClient = quick ? 10 : 200;

const servers = join(import.meta.dirname, "servers");
const targets = [
  { name: "floor (node:http)", script: join(servers, "http-floor.js"), args: [] as string[] },
  { name: "mcpgen (sessions)", script: join(servers, "http-mcpgen.js"), args: [] },
  { name: "mcpgen (stateless)", script: join(servers, "http-mcpgen.js"), args: ["--stateless"] },
  { name: "SDK (sessions)", script: join(servers, "http-sdk.js"), args: [] },
  { name: "SDK (stateless)", script: join(servers, "http-sdk.js"), args: ["--stateless"] },
];

interface Reply {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * A minimal HTTP/1.1 client on one keep-alive socket: requests written as
 * bytes, responses parsed just enough (status, headers, Content-Length or
 * chunked body). node:http's client costs more CPU than the servers under
 * test, and the driver shares this machine's two cores with them.
 */
class Connection {
  private readonly socket: Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: ((reply: Reply) => void) | undefined;

  constructor(
    private readonly host: string,
    port: number,
  ) {
    this.socket = connect(port, host);
    this.socket.setNoDelay(true);
    this.socket.on("data", (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      const reply = this.parse();
      if (reply && this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(reply);
      }
    });
  }

  post(path: string, body: string, headers: Record<string, string>): Promise<Reply> {
    const lines = [`POST ${path} HTTP/1.1`, `Host: ${this.host}`, `Content-Length: ${Buffer.byteLength(body)}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    });
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

const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2025-11-25",
};

/** One client: its own connection and session; `calls` echo calls one after the other. */
class BenchClient {
  private readonly connection: Connection;
  private readonly path: string;
  private headers: Record<string, string> = HEADERS;
  private next = 1;

  constructor(url: string) {
    const parsed = new URL(url);
    this.connection = new Connection(parsed.hostname, Number(parsed.port));
    this.path = parsed.pathname;
  }

  async open(): Promise<void> {
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
    for (let i = 0; i < calls; i++) {
      const id = this.next++;
      const text = `hello ${id}`;
      const started = performance.now();
      const reply = await this.connection.post(
        this.path,
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${text}"}}}`,
        this.headers,
      );
      latencies.push((performance.now() - started) * 1000);
      // Accept JSON, or an SSE stream whose data line carries the response.
      const json = reply.body.startsWith("{") ? reply.body : /^data: (\{.*\})$/m.exec(reply.body)?.[1];
      const message = json ? (JSON.parse(json) as { id?: number; result?: { content?: { text?: string }[] } }) : {};
      if (reply.status !== 200 || message.id !== id || message.result?.content?.[0]?.text !== text)
        throw new Error(`unexpected answer to call ${id}: HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
    }
  }

  close(): void {
    this.connection.close();
  }
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  rssMb: number;
}

async function measure(target: (typeof targets)[number]): Promise<Figures> {
  const child = spawn(process.execPath, [target.script, ...target.args], { stdio: ["ignore", "pipe", "inherit"] });
  const killer = setTimeout(() => child.kill("SIGKILL"), 600_000);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const url = await new Promise<string>((resolve) => {
    child.stdout.setEncoding("utf8");
    child.stdout.once("data", (line: string) => resolve(line.trim().split("\n")[0]!));
  });
  const team = Array.from({ length: clients }, () => new BenchClient(url));
  await Promise.all(team.map((c) => c.open()));
  await Promise.all(team.map((c) => c.run(warmupPerClient, [])));
  const latencies: number[] = [];
  const began = performance.now();
  await Promise.all(team.map((c) => c.run(callsPerClient, latencies)));
  const seconds = (performance.now() - began) / 1000;
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const rssKb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN);
  for (const c of team) c.close();
  child.kill("SIGTERM");
  await exited;
  clearTimeout(killer);
  return {
    rps: (clients * callsPerClient) / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    rssMb: rssKb / 1024,
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const results = new Map<string, Figures[]>(targets.map((t) => [t.name, []]));
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < targets.length; i++) {
    const target = targets[(i + round) % targets.length]!;
    results.get(target.name)!.push(await measure(target));
  }
}

const summary = targets.map((t) => {
  const figures = results.get(t.name)!;
  const pick = (key: keyof Figures) =>
    percentile(
      figures.map((f) => f[key]),
      0.5,
    );
  return { name: t.name, rps: pick("rps"), p50: pick("p50"), p99: pick("p99"), rssMb: pick("rssMb") };
});
const floor = summary[0]!;

console.log(
  `tools/call over Streamable HTTP, Node ${process.version}; ${clients} keep-alive clients x ${callsPerClient} calls; medians of ${rounds} round(s)\n`,
);
const header = ["server", "req/s", "×floor", "p50 µs", "p99 µs", "peak RSS MB"];
const rows = summary.map((s) => [
  s.name,
  s.rps.toFixed(0),
  `${(s.rps / floor.rps).toFixed(2)}×`,
  s.p50.toFixed(0),
  s.p99.toFixed(0),
  s.rssMb.toFixed(1),
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
for (const row of [header, ...rows])
  console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
