// mcpgen/client against legacy Streamable HTTP servers (2025-11-25) that end a
// session under concurrent requests, or answer a POST with JSON that is not
// its response; each a scripted node:http server on 127.0.0.1.
import http from "node:http";
import { describe, expect, test } from "vitest";
import { Client, StreamableHttpClientTransport } from "mcpgen/client";
import { serve, sleep, within } from "./scripted-http.js";

const initResult = (id: unknown) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "hostile", version: "1" } },
  });

describe("an expired legacy session is replaced once (2025-11-25 basic/transports#session-management)", () => {
  test("10 concurrent requests meet 404: one initialize, one GET stream, all 10 answered on the new session", async () => {
    const live = new Set<string>();
    const seen = { sessions: 0, initializes: 0, deletes: [] as string[], openGets: new Map<string, number>() };
    const url = await serve((req, res, body) => {
      const sid = String(req.headers["mcp-session-id"]);
      if (req.method === "GET") {
        if (!live.has(sid)) return void res.writeHead(404).end();
        seen.openGets.set(sid, (seen.openGets.get(sid) ?? 0) + 1);
        res.on("close", () => seen.openGets.set(sid, seen.openGets.get(sid)! - 1));
        res.writeHead(200, { "content-type": "text/event-stream" });
        return void res.write(": open\n\n");
      }
      if (req.method === "DELETE") {
        seen.deletes.push(sid);
        return void res.writeHead(200).end();
      }
      const message = JSON.parse(body) as { id?: number; method?: string };
      if (message.method === "initialize") {
        seen.initializes++;
        const session = `s${++seen.sessions}`;
        live.add(session);
        return void res
          .writeHead(200, { "content-type": "application/json", "mcp-session-id": session })
          .end(initResult(message.id));
      }
      // As mcpgen's server answers (basic#error-responses): a JSON-RPC error for the request's id, with the 404.
      if (!live.has(sid))
        return void res.writeHead(404, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: message.id ?? null,
            error: { code: -32001, message: `Not Found: session ${sid} does not exist or has ended` },
          }),
        );
      if (message.id === undefined) return void res.writeHead(202).end();
      // Answered a little later, so that the 404s of all ten come in while the renewal is under way.
      setTimeout(
        () =>
          res
            .writeHead(200, { "content-type": "application/json", "mcp-session-id": sid })
            .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { tools: [] } })),
        10,
      );
    });
    const transport = new StreamableHttpClientTransport(url);
    const client = await Client.connect(transport, { revision: "2025-11-25", timeoutMs: 5_000, onProblem: () => {} });
    try {
      await expect.poll(() => seen.openGets.get("s1"), { timeout: 2_000 }).toBe(1);
      live.clear(); // the server ends the session (as after its idle expiry)
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          client.request("tools/list", {}).then(
            () => "ok",
            (e: Error) => e.message,
          ),
        ),
      );
      expect(results).toEqual(Array<string>(10).fill("ok"));
      expect(seen.initializes).toBe(2);
      expect(transport.session).toBe("s2");
      // The expired session's GET stream is closed; the new session has one.
      await expect.poll(() => [seen.openGets.get("s1"), seen.openGets.get("s2")], { timeout: 2_000 }).toEqual([0, 1]);
      await sleep(100);
      expect(seen.openGets.get("s2")).toBe(1);
    } finally {
      await client.close();
    }
    expect(seen.deletes).toEqual(["s2"]);
    await expect.poll(() => seen.openGets.get("s2"), { timeout: 2_000 }).toBe(0);
  });
});

describe("a JSON answer to a POST is that request's response (2025-11-25 basic/transports#sending-messages-to-the-server)", () => {
  /** A legacy session whose POSTs with an id `answer` takes (the GET stream: none). */
  const legacy = (answer: (res: http.ServerResponse, id: number, method: string) => void) =>
    serve((req, res, body) => {
      if (req.method === "DELETE") return void res.writeHead(200).end();
      if (req.method !== "POST") return void res.writeHead(405).end();
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.method === "initialize")
        return void res
          .writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" })
          .end(initResult(message.id));
      if (message.id === undefined) return void res.writeHead(202).end();
      answer(res, message.id, message.method);
    });

  test("a notification as the JSON answer fails the request at once, naming it", async () => {
    const url = await legacy((res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } })),
    );
    const client = await Client.connect(new StreamableHttpClientTransport(url), {
      revision: "2025-11-25",
      timeoutMs: 10_000,
      onProblem: () => {},
    });
    try {
      const outcome = await within(2_000, client.request("prompts/list", {}));
      expect(outcome).not.toBe("pending");
      expect(String((outcome as { error?: unknown }).error)).toMatch(
        /answered request \d+ with JSON that is not its response: a notification \("notifications\/message"\)/,
      );
    } finally {
      await client.close();
    }
  });

  test("another request's response as the JSON answer fails this request and does not settle the other", async () => {
    let held: { res: http.ServerResponse; id: number } | undefined;
    const url = await legacy((res, id, method) => {
      if (method === "tools/list") return void (held = { res, id }); // answered later
      // The answer to prompts/list is the response tools/list is waiting for, with another result.
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: held!.id,
          result: { tools: [{ name: "forged", inputSchema: { type: "object" } }] },
        }),
      );
    });
    const client = await Client.connect(new StreamableHttpClientTransport(url), {
      revision: "2025-11-25",
      timeoutMs: 10_000,
      onProblem: () => {},
    });
    try {
      const listing = client.listTools();
      await expect.poll(() => held, { timeout: 2_000 }).toBeDefined();
      const outcome = await within(2_000, client.request("prompts/list", {}));
      expect(String((outcome as { error?: unknown }).error)).toMatch(
        new RegExp(`with JSON that is not its response: the response to request ${held!.id}$`),
      );
      expect(await within(200, listing)).toBe("pending");
      held!.res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: held!.id, result: { tools: [] } }));
      await expect(listing).resolves.toEqual([]);
    } finally {
      await client.close();
    }
  });
});
