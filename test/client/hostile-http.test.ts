// mcpgen/client against Streamable HTTP servers that misbehave, each a scripted
// node:http server on 127.0.0.1: SSE events that grow without end, and POSTs
// held open (notifications/initialized, the client's answers to the server's
// requests), GET streams ended at once (reopened within maxReconnects, never
// faster than a floor, after the server's retry), and POST streams that break
// (only their own request fails, or none when the stream can be resumed). Each
// ends in an error naming what the server did, within the client's bounds
// (maxMessageBytes, timeoutMs, maxReconnects).
import http from "node:http";
import { describe, expect, test } from "vitest";
import { Client, RequestTimeoutError, StreamableHttpClientTransport } from "mcpgen/client";
import { serve, sleep, within, type Handler } from "./scripted-http.js";

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

describe("the GET stream is reopened within bounds (2025-11-25 basic/transports#resumability-and-redelivery)", () => {
  /** A legacy session whose GETs `get` answers (the nth, from 1); the time of each GET and its Last-Event-ID. */
  async function getServer(get: (res: http.ServerResponse, n: number) => void) {
    const gets: { at: number; lastEventId: string | undefined }[] = [];
    const url = await serve(
      legacy((req, res) => {
        if (req.method !== "GET") return void res.writeHead(202).end();
        gets.push({ at: Date.now(), lastEventId: req.headers["last-event-id"] as string | undefined });
        res.writeHead(200, { "content-type": "text/event-stream" });
        get(res, gets.length);
      }),
    );
    return { url, gets };
  }

  test("GETs ended at once with retry: 0: 1 + maxReconnects of them, 100 ms apart at least, then a problem", async () => {
    const { url, gets } = await getServer((res) => res.end("retry: 0\n\n"));
    const problems: string[] = [];
    const client = await Client.connect(new StreamableHttpClientTransport(url, { maxReconnects: 2 }), {
      revision: "2025-11-25",
      onProblem: (e) => problems.push(e.message),
    });
    try {
      await expect
        .poll(() => problems, { timeout: 3_000 })
        .toContain(
          `the GET stream from ${url} ended 3 times in a row without an event; it is not reopened (maxReconnects 2)`,
        );
      await sleep(500);
      expect(gets).toHaveLength(3);
      for (let i = 1; i < gets.length; i++) expect(gets[i]!.at - gets[i - 1]!.at).toBeGreaterThanOrEqual(95);
    } finally {
      await client.close();
    }
  });

  test("a stream that delivers an event starts the count again", async () => {
    // The first four GETs each deliver an event (a new id) and end: a server that polls. Then nothing.
    const { url, gets } = await getServer((res, n) =>
      res.end(
        n <= 4
          ? `id: e${n}\nretry: 0\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })}\n\n`
          : "retry: 0\n\n",
      ),
    );
    const problems: string[] = [];
    const client = await Client.connect(new StreamableHttpClientTransport(url, { maxReconnects: 1 }), {
      revision: "2025-11-25",
      onProblem: (e) => problems.push(e.message),
    });
    try {
      await expect
        .poll(() => problems.join("\n"), { timeout: 3_000 })
        .toMatch(/ended 2 times in a row without an event/);
      await sleep(300);
      expect(gets.map((get) => get.lastEventId)).toEqual([undefined, "e1", "e2", "e3", "e4", "e4"]);
    } finally {
      await client.close();
    }
  });

  test("a retry above 5 s is waited in full (#sending-messages-to-the-server: the client MUST respect it)", async () => {
    const { url, gets } = await getServer((res, n) => {
      if (n === 1) res.end("id: e1\nretry: 5600\ndata:\n\n");
      else res.write(": open\n\n");
    });
    const client = await Client.connect(new StreamableHttpClientTransport(url), { revision: "2025-11-25" });
    try {
      await expect.poll(() => gets.length, { timeout: 8_000, interval: 100 }).toBe(2);
      expect(gets[1]!.at - gets[0]!.at).toBeGreaterThanOrEqual(5_500);
      expect(gets[1]!.lastEventId).toBe("e1");
    } finally {
      await client.close();
    }
  });
});

describe("a broken POST stream fails only its own request (2025-11-25 basic/transports#sending-messages-to-the-server)", () => {
  /**
   * Two tools/list: the first one's stream stays open until `answer` is called; the second one's gets
   * `broken` (the start of its SSE body) and its socket is then destroyed. GET: `get`, else 405.
   */
  async function brokenPing(
    revision: string,
    broken: string,
    get?: (req: http.IncomingMessage, res: http.ServerResponse, brokenId: number) => boolean,
  ) {
    let answer: (() => void) | undefined;
    let brokenId = -1;
    const tools = revision === "2026-07-28" ? { tools: [], ttlMs: 0, cacheScope: "private" } : { tools: [] };
    const handler: Handler = (req, res, body) => {
      if (req.method === "GET") return void (get?.(req, res, brokenId) || res.writeHead(405).end());
      const message = JSON.parse(body) as { id?: number; method?: string };
      if (message.id === undefined || message.method !== "tools/list") return void res.writeHead(202).end();
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (!answer) {
        res.write(": working\n\n");
        answer = () => res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: tools })}\n\n`);
      } else {
        brokenId = message.id;
        res.write(broken);
        setTimeout(() => res.socket?.destroy(), 50);
      }
    };
    const url = await serve(revision === "2026-07-28" ? handler : legacy(handler));
    const problems: string[] = [];
    const client = await Client.connect(new StreamableHttpClientTransport(url), {
      revision,
      timeoutMs: 5_000,
      onProblem: (e) => problems.push(e.message),
    });
    const healthy = within(3_000, client.listTools());
    await expect.poll(() => answer, { timeout: 2_000 }).toBeDefined();
    return { url, client, problems, healthy, answer: () => answer!() };
  }

  for (const revision of ["2025-11-25", "2026-07-28"])
    test(`${revision}: a stream that cannot be resumed fails its request; the one on a healthy stream is answered`, async () => {
      const { url, client, healthy, answer } = await brokenPing(revision, 'data: {"jsonrpc"');
      try {
        const outcome = await within(3_000, client.listTools());
        expect(String((outcome as { error: unknown }).error)).toMatch(
          new RegExp(`the SSE answer from ${url.replace(/[.]/g, "\\.")} broke off`),
        );
        await sleep(200);
        answer();
        expect(await healthy).toEqual({ value: [] });
      } finally {
        await client.close();
      }
    });

  test("a stream that broke after an event id is resumed with GET and Last-Event-ID: its request is answered, nothing fails", async () => {
    let resumedFrom: string | undefined;
    const { client, problems, healthy, answer } = await brokenPing(
      "2025-11-25",
      "id: ev1\nretry: 100\ndata:\n\n",
      (req, res, brokenId) => {
        if (req.headers["last-event-id"] === undefined) return false; // the session's own GET stream: none
        resumedFrom = req.headers["last-event-id"] as string;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`id: ev2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: brokenId, result: { tools: [] } })}\n\n`);
        return true;
      },
    );
    try {
      expect(await within(3_000, client.listTools())).toEqual({ value: [] });
      expect(resumedFrom).toBe("ev1");
      answer();
      expect(await healthy).toEqual({ value: [] });
      expect(problems).toEqual([]);
    } finally {
      await client.close();
    }
  });

  test("a server that polls (each stream ends after a new event id) is followed past maxReconnects; a silent one is not", async () => {
    const resumedFrom: string[] = [];
    let silent = false;
    const url = await serve(
      legacy((req, res, body) => {
        if (req.method === "POST") {
          const message = JSON.parse(body) as { id?: number; method?: string };
          if (message.method !== "tools/list") return void res.writeHead(202).end();
          return void res
            .writeHead(200, { "content-type": "text/event-stream" })
            .end(`id: ${message.id}.0\nretry: 0\ndata:\n\n`);
        }
        const last = req.headers["last-event-id"] as string | undefined;
        if (last === undefined) return void res.writeHead(405).end(); // the session's own GET stream: none
        res.writeHead(200, { "content-type": "text/event-stream" });
        resumedFrom.push(last);
        const [id, n] = last.split(".").map(Number) as [number, number];
        // A priming event with the next id each time (2025-11-25 #sending-messages-to-the-server), the answer at the 4th.
        if (silent) res.end();
        else if (n < 3) res.end(`id: ${id}.${n + 1}\nretry: 0\ndata:\n\n`);
        else res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } })}\n\n`);
      }),
    );
    const client = await Client.connect(new StreamableHttpClientTransport(url, { maxReconnects: 1 }), {
      revision: "2025-11-25",
      timeoutMs: 5_000,
      onProblem: () => {},
    });
    try {
      expect(await within(3_000, client.listTools())).toEqual({ value: [] });
      expect(resumedFrom).toHaveLength(4); // from .0, .1, .2 and .3: more than maxReconnects
      silent = true;
      resumedFrom.length = 0;
      const outcome = await within(3_000, client.listTools());
      expect(String((outcome as { error: unknown }).error)).toMatch(
        /ended without the response to request \d+: 2 streams in a row delivered no event \(maxReconnects 1\)/,
      );
      expect(resumedFrom).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});

describe("answers that are not UTF-8 (basic/transports: MUST be UTF-8 encoded) fail, never read with U+FFFD", () => {
  /** A server answering every request with `body(id)`, as JSON or as one SSE event. */
  const badServer = (sse: boolean) =>
    serve(
      legacy((req, res, body) => {
        if (req.method !== "POST") return void res.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number };
        if (message.id === undefined) return void res.writeHead(202).end();
        // {"jsonrpc":"2.0","id":N,"result":{"tools":[],"note":"a\xffb"}}
        const answer = Buffer.concat([
          Buffer.from(`{"jsonrpc":"2.0","id":${message.id},"result":{"tools":[],"note":"a`),
          Buffer.from([0xff]),
          Buffer.from('b"}}'),
        ]);
        if (!sse) return void res.writeHead(200, { "content-type": "application/json" }).end(answer);
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(Buffer.concat([Buffer.from("data: "), answer, Buffer.from("\n\n")]));
      }),
    );

  for (const sse of [false, true])
    test(`as ${sse ? "an SSE event" : "a JSON body"}`, async () => {
      const url = await badServer(sse);
      const client = await Client.connect(new StreamableHttpClientTransport(url), {
        revision: "2025-11-25",
        timeoutMs: 5_000,
        onProblem: () => {},
      });
      try {
        await expect(client.listTools()).rejects.toThrow(
          sse ? /SSE answer from .* broke off: bytes that are not UTF-8/ : /sent a body that is not UTF-8/,
        );
      } finally {
        await client.close();
      }
    });
});
