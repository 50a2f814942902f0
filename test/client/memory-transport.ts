// A client transport for tests that answers each request in memory with a
// scripted server: what the server "says" is exactly what the test wants to
// check the client against, and every message the client sent is recorded
// (with the headers it would mirror on HTTP).
import type { ClientTransport, SendContext, TransportSink } from "mcpgen/client";

export interface Sent {
  readonly method: string;
  readonly id?: string | number;
  readonly params: Record<string, unknown>;
  readonly context: SendContext;
}

/** What the scripted server answers a request with: a result, an error, or nothing (silence). */
export type Reply = { result: unknown } | { error: { code: number; message: string; data?: unknown } } | undefined;

let counter = 0;

export class MemoryTransport implements ClientTransport {
  readonly target = `memory://test-${process.pid}-${++counter}`;
  readonly sent: Sent[] = [];
  private sink: TransportSink | undefined;

  constructor(
    private readonly serve: (method: string, params: Record<string, unknown>) => Reply,
    readonly carriesHeaders = true,
  ) {}

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  async send(text: string, context: SendContext): Promise<void> {
    const message = JSON.parse(text) as { id?: string | number; method?: string; params?: Record<string, unknown> };
    if (typeof message.method !== "string") return; // an answer to the server: nothing scripted takes it
    this.sent.push({
      method: message.method,
      ...(message.id !== undefined ? { id: message.id } : {}),
      params: message.params ?? {},
      context,
    });
    if (message.id === undefined) return;
    const reply = this.serve(message.method, message.params ?? {});
    if (reply) queueMicrotask(() => this.sink?.message(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...reply })));
  }

  methods(): string[] {
    return this.sent.map((s) => s.method);
  }

  async close(): Promise<void> {
    this.sink?.closed(new Error("closed"));
  }
}

/** A 2026-07-28 DiscoverResult naming these capabilities. */
export const discoverResult = (capabilities: Record<string, unknown> = { tools: {} }) => ({
  resultType: "complete",
  ttlMs: 0,
  cacheScope: "private",
  supportedVersions: ["2026-07-28"],
  capabilities,
  serverInfo: { name: "scripted", version: "1.0.0" },
});
