// mcpgen/client against Streamable HTTP servers that misbehave, each a scripted
// node:http server on 127.0.0.1: SSE events that grow without end, and POSTs
// held open (notifications/initialized, the client's answers to the server's
// requests). Each ends in an error naming what the server did, within the
// client's bounds (maxMessageBytes, timeoutMs).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { Client, RequestTimeoutError, StreamableHttpClientTransport } from "mcpgen/client";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A scripted server: GET has no stream (405) unless the handler says otherwise, DELETE is fine. */
async function serve(handler: Handler): Promise<string> {
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    handler(req, res, body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** initialize answered (with a session), notifications/initialized taken; anything else is `rest`'s. */
const legacy =
  (rest: Handler): Handler =>
  (req, res, body) => {
    if (req.method === "DELETE") return void res.writeHead(200).end();
    if (req.method === "POST") {
      const message = JSON.parse(body) as { id?: number; method?: string };
      if (message.method === "initialize")
        return void res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: message.id,
            result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "hostile", version: "1" } },
          }),
        );
    }
    rest(req, res, body);
  };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The outcome of a promise, or "pending" when it has not settled within `ms`. */
const within = (ms: number, work: Promise<unknown>) =>
  Promise.race([
    work.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    sleep(ms).then(() => "pending" as const),
  ]);

describe("SSE events are bounded by maxMessageBytes", () => {
  /** A server whose answer to every request is an SSE event with these data lines. */
  const sseServer = (lines: (id: number) => string[]) =>
    serve(
      legacy((req, res, body) => {
        if (req.method !== "POST") return void res.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number };
        if (message.id === undefined) return void res.writeHead(202).end();
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
          lines(message.id)
            .map((line) => `data:${line}\n`)
            .join("") + "\n",
        );
      }),
    );

  test("a flood of empty data lines: each line counts, the answer fails naming the limit", async () => {
    // 200 000 empty lines hold no characters of value, but 200 000 lines of data.
    const url = await sseServer((id) => [
      ...Array<string>(200_000).fill(""),
      JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } }),
    ]);
    const client = await Client.connect(new StreamableHttpClientTransport(url, { maxMessageBytes: 1000 }), {
      revision: "2025-11-25",
      timeoutMs: 5_000,
      onProblem: () => {},
    });
    try {
      const error = await client.listTools().catch((e: unknown) => e);
      expect(String(error)).toMatch(/SSE answer from .* broke off: an event with more than 1000 characters of data/);
    } finally {
      await client.close();
    }
  });

  test("an event's size is its data as delivered: lines and the newlines that join them", async () => {
    let size = 0;
    const url = await sseServer((id) => {
      const answer = JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } });
      // Joined: answer + "\n" + padding (tabs: JSON whitespace, and no leading space for SSE to strip).
      return [answer, "\t".repeat(size - answer.length - 1)];
    });
    const client = await Client.connect(new StreamableHttpClientTransport(url, { maxMessageBytes: 1000 }), {
      revision: "2025-11-25",
      timeoutMs: 5_000,
      onProblem: () => {},
    });
    try {
      size = 1000;
      await expect(client.listTools()).resolves.toEqual([]);
      size = 1001;
      await expect(client.listTools()).rejects.toThrow(/an event with more than 1000 characters of data/);
    } finally {
      await client.close();
    }
  });
});

describe("POSTs that get no answer are bounded by timeoutMs", () => {
  test("notifications/initialized held open: Client.connect fails with a timeout naming it", async () => {
    const url = await serve(
      legacy((req, res) => {
        if (req.method !== "POST") res.writeHead(405).end();
        // notifications/initialized: never answered.
      }),
    );
    const outcome = await within(
      3_000,
      Client.connect(new StreamableHttpClientTransport(url), { revision: "2025-11-25", timeoutMs: 300 }),
    );
    expect(outcome).not.toBe("pending");
    const { error } = outcome as { error: unknown };
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(String(error)).toMatch(/did not take notifications\/initialized within 300 ms/);
  });

  test("the client's answers held open: each times out and frees its slot for the server's next request", async () => {
    let stream: http.ServerResponse | undefined;
    const held: number[] = [];
    const answers = new Map<number, unknown>();
    const url = await serve(
      legacy((req, res, body) => {
        if (req.method === "GET") {
          stream = res.writeHead(200, { "content-type": "text/event-stream" });
          return void res.write(": open\n\n");
        }
        const message = JSON.parse(body) as { id: number; method?: string; result?: unknown; error?: unknown };
        if (message.method === "notifications/initialized") return void res.writeHead(202).end();
        if (message.id >= 1000) {
          answers.set(message.id, message.result ?? message.error);
          return void res.writeHead(202).end();
        }
        held.push(message.id); // an answer to a ping: held open
      }),
    );
    const problems: string[] = [];
    const timeoutMs = 300;
    const client = await Client.connect(new StreamableHttpClientTransport(url), {
      revision: "2025-11-25",
      timeoutMs,
      handlers: { roots: async () => ({ roots: [] }) },
      onProblem: (e) => problems.push(e.message),
    });
    try {
      await expect.poll(() => stream, { timeout: 2_000 }).toBeDefined();
      // 100 pings: every one of the client's served slots (MAX_SERVED) waits on its answer's POST.
      for (let id = 0; id < 100; id++)
        stream!.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n\n`);
      await expect.poll(() => held.length, { timeout: 2_000 }).toBe(100);
      await sleep(timeoutMs + 200);
      stream!.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 1000, method: "roots/list" })}\n\n`);
      await expect.poll(() => answers.get(1000), { timeout: 2_000 }).toEqual({ roots: [] });
      expect(problems).toContain(`${url} did not take the answer to request 0 within ${timeoutMs} ms`);
    } finally {
      await client.close();
    }
  });
});
