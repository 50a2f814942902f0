// The first stages of a request's path on their own (runtime/server/request/):
// a message in, the verdict or the replies out.
import { describe, expect, test } from "vitest";
import { classifyMessage, type Classification } from "../../../runtime/messages.js";
import { loadedHandlerRevision } from "../../../runtime/protocol/revisions.js";
import { receiveBatch } from "../../../runtime/server/request/batch.js";
import { eraOf } from "../../../runtime/server/request/era.js";
import { refusal } from "../../../runtime/server/request/gate.js";
import { Lifecycle } from "../../../runtime/server/session/lifecycle.js";
import { InflightRequests } from "../../../runtime/server/session/requests-in-flight.js";
import { ServedRevisions } from "../../../runtime/server/session/revisions.js";
import { DEFAULT_SESSION_LIMITS, type Channel, type IncomingRequest } from "../../../runtime/server/types.js";

const served = new ServedRevisions();
const channel: Channel = { reply: () => {}, send: () => {} };
const incoming = (id: string | number, length = 0): IncomingRequest => ({
  message: { jsonrpc: "2.0", id, method: "ping" },
  method: "ping",
  id,
  reply: () => {},
  channel,
  length,
});

describe("gate.ts: arrival checks", () => {
  test("an id that is not an integer, or too long, is malformed; a reused one is not", () => {
    const lifecycle = new Lifecycle();
    const requests = new InflightRequests();
    expect(refusal(incoming(1.5), DEFAULT_SESSION_LIMITS, lifecycle, requests)).toEqual({
      code: -32600,
      message: "Invalid Request: id must be a string or an integer, not 1.5",
      malformed: true,
    });
    const long = "x".repeat(DEFAULT_SESSION_LIMITS.idLength + 1);
    expect(refusal(incoming(long), DEFAULT_SESSION_LIMITS, lifecycle, requests)?.message).toBe(
      `Invalid Request: id is ${long.length} characters long, over this server's ${DEFAULT_SESSION_LIMITS.idLength}`,
    );
    requests.remember("done");
    // Finished ids count once a handshake scope exists (a handshake session remembers them).
    expect(refusal(incoming("done"), DEFAULT_SESSION_LIMITS, lifecycle, requests)).toBeUndefined();
    lifecycle.scope = {} as never;
    expect(refusal(incoming("done"), DEFAULT_SESSION_LIMITS, lifecycle, requests)).toMatchObject({
      code: -32600,
      malformed: false,
    });
  });

  test("a session whose revision could not load refuses every request with its failure", () => {
    const lifecycle = new Lifecycle();
    lifecycle.failure = "Internal error: cannot load protocol revision x";
    expect(refusal(incoming(1), DEFAULT_SESSION_LIMITS, lifecycle, new InflightRequests())).toEqual({
      code: -32603,
      message: "Internal error: cannot load protocol revision x",
      malformed: false,
    });
  });
});

describe("era.ts: which protocol facts a request is handled under", () => {
  const withMeta = (meta: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: { _meta: meta },
  });
  const perRequest = served.all.find((r) => r.lifecycle === "per-request")!;

  test("a negotiated session's request is the session's; one without any _meta waits for initialize", () => {
    expect(eraOf(withMeta({}), true, served)).toEqual({ kind: "session" });
    expect(eraOf({ jsonrpc: "2.0", id: 1, method: "tools/list" }, false, served)).toEqual({ kind: "session" });
  });

  test("the version a request's _meta names picks a per-request revision", () => {
    const era = eraOf(
      withMeta({ "io.modelcontextprotocol/protocolVersion": perRequest.protocolVersion }),
      false,
      served,
    );
    expect(era).toMatchObject({ kind: "per-request", info: { lifecycle: "per-request" } });
  });

  test("per-request fields without a version, or a version not served, are refused naming what is supported", () => {
    const missing = eraOf(
      withMeta({ "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } }),
      false,
      served,
    );
    expect(missing).toMatchObject({ kind: "refused", code: -32602, malformed: true });
    const unknown = eraOf(
      withMeta({
        "io.modelcontextprotocol/protocolVersion": "1999-01-01",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
      }),
      false,
      served,
    );
    expect(unknown).toMatchObject({ kind: "refused", code: -32022, data: { requested: "1999-01-01" } });
  });
});

describe("batch.ts: a JSON-RPC batch", () => {
  const envelope = { ...loadedHandlerRevision.tables.envelope, batching: true };
  const classify = (items: unknown[]): readonly Classification[] =>
    (classifyMessage(items, envelope) as Classification & { kind: "batch" }).messages;

  test("the replies of its requests go out together, once the last is in; notifications get none", () => {
    const items = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ];
    const sent: (string | null)[] = [];
    const later: (() => void)[] = [];
    receiveBatch(items, classify(items), { reply: (json) => sent.push(json), send: () => {} }, (item, _c, reply) => {
      const id = (item as { id?: number }).id;
      if (id === 1) reply(`{"id":1}`);
      else if (id === 2) later.push(() => reply(`{"id":2}`)); // answered after the loop
    });
    expect(sent).toEqual([]);
    later[0]!();
    expect(sent).toEqual([`[{"id":1},{"id":2}]`]);
  });

  test("a batch whose every request was cancelled gets no reply (null)", () => {
    const items = [{ jsonrpc: "2.0", id: 1, method: "ping" }];
    const sent: (string | null)[] = [];
    receiveBatch(items, classify(items), { reply: (json) => sent.push(json), send: () => {} }, (_i, _c, reply) =>
      reply(null),
    );
    expect(sent).toEqual([null]);
  });
});
