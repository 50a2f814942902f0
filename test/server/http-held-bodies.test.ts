// The bytes of request bodies a Streamable HTTP transport holds at once
// (HttpOptions.maxHeldBodyBytes): each body is bounded on its own, and their sum
// across connections, while they are read or while their handler runs. A POST
// that would pass it gets 503 with Retry-After, and what a body held is given
// back however its exchange ends (answered, refused, abandoned mid-body).
import { request } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { McpServer } from "../../runtime/server/index.js";
import { serveHttp, type HttpOptions, type HttpServerHandle } from "../../runtime/transports/http.js";
import { ACCEPT_BOTH, raw, type RawResponse } from "./http-support.js";
import { withMeta } from "./per-request-support.js";

const handles: HttpServerHandle[] = [];
const releases: (() => void)[] = [];
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  for (const handle of handles.splice(0)) await handle.close();
});

async function until(test: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A server whose `wait` tool runs until the test calls `release`; `started` counts the calls begun. */
async function start(options: HttpOptions) {
  const server = new McpServer({ name: "held-bodies", version: "1" }, { logger: () => {} });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  releases.push(release);
  const calls = { started: 0 };
  server.tool("wait", {}, async () => {
    calls.started++;
    await released;
    return "released";
  });
  const handle = await serveHttp(server, options);
  handles.push(handle);
  return { handle, url: handle.url, release, calls };
}

/** A per-request (2026-07-28) tools/call of `wait` whose body is `bytes` long (padding in `_meta`). */
function waitCall(id: number, bytes: number): string {
  const padded = (pad: string) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: withMeta({ name: "wait", arguments: {}, _meta: { pad } }),
    });
  return padded("x".repeat(bytes - padded("").length));
}

const HEADERS = {
  "Content-Type": "application/json",
  Accept: ACCEPT_BOTH,
  "MCP-Protocol-Version": "2026-07-28",
  "Mcp-Method": "tools/call",
  "Mcp-Name": "wait",
};

function post(url: string, body: string): Promise<RawResponse> {
  return raw("POST", url, { headers: HEADERS, body });
}

/** A POST without Content-Length (chunked), its body in two writes. */
function postChunked(url: string, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on("error", reject);
    req.setTimeout(5000, () => req.destroy(new Error("chunked POST timed out")));
    req.write(body.slice(0, 100));
    setTimeout(() => req.end(body.slice(100)), 20);
  });
}

describe("maxHeldBodyBytes", () => {
  const options: HttpOptions = { maxBodyBytes: 8192, maxHeldBodyBytes: 20_000 };

  test("bodies with a handler running count; past the sum, 503 with Retry-After; room again once answered", async () => {
    const { handle, url, release, calls } = await start(options);
    const first = post(url, waitCall(1, 8000));
    const second = post(url, waitCall(2, 8000));
    await until(() => calls.started === 2, "both calls to start");
    expect(handle.transport.heldBodyBytes).toBe(16_000);

    const refused = await post(url, waitCall(3, 8000));
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message:
          "Service Unavailable: the server holds its limit of 20000 bytes of request bodies already; try again later",
      },
    });
    expect(calls.started).toBe(2);
    // What fits is still taken.
    const small = post(url, waitCall(4, 2000));
    await until(() => calls.started === 3, "the small call to start");
    expect(handle.transport.heldBodyBytes).toBe(18_000);

    release();
    for (const answered of await Promise.all([first, second, small])) {
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body).result.content).toEqual([{ type: "text", text: "released" }]);
    }
    await until(() => handle.transport.heldBodyBytes === 0, "every body given back");
    const again = await post(url, waitCall(5, 8000));
    expect(again.status).toBe(200);
    await until(() => handle.transport.heldBodyBytes === 0, "the last body given back");
  });

  test("a chunked body is counted as it is read", async () => {
    const { handle, url, calls } = await start(options);
    void post(url, waitCall(1, 8000)).catch(() => {});
    void post(url, waitCall(2, 8000)).catch(() => {});
    await until(() => calls.started === 2, "both calls to start");
    const refused = await postChunked(url, waitCall(3, 8000));
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(calls.started).toBe(2);
    await until(() => handle.transport.heldBodyBytes === 16_000, "the refused body's share given back");
  });

  test("a client that leaves mid-body, or while its handler runs, gives its share back", async () => {
    const { handle, url, calls } = await start(options);
    const partial = request(url, { method: "POST", headers: { ...HEADERS, "Content-Length": "8000" } });
    partial.on("error", () => {});
    partial.write("x".repeat(100));
    await until(() => handle.transport.heldBodyBytes === 8000, "the declared length to be held");
    partial.destroy();
    await until(() => handle.transport.heldBodyBytes === 0, "the abandoned body given back");

    const leaving = request(url, { method: "POST", headers: HEADERS });
    leaving.on("error", () => {});
    leaving.end(waitCall(1, 8000));
    await until(() => calls.started === 1, "the call to start");
    expect(handle.transport.heldBodyBytes).toBe(8000);
    leaving.destroy(); // a per-request revision's cancellation
    await until(() => handle.transport.heldBodyBytes === 0, "the cancelled call's body given back");
  });

  test("must be at least maxBodyBytes", async () => {
    const server = new McpServer({ name: "held-bodies", version: "1" }, { logger: () => {} });
    await expect(serveHttp(server, { maxBodyBytes: 8192, maxHeldBodyBytes: 8191 })).rejects.toThrow(
      "maxHeldBodyBytes (8191) must be at least maxBodyBytes (8192)",
    );
  });
});
