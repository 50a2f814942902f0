// The method table of each pinned revision, checked against facts read in the
// prose spec (../shared/mcp-spec/docs/<rev>/), not against the generator's own
// output. Each expectation names where it comes from.
import { describe, expect, test } from "vitest";
import { diffRevisions } from "../../generator/diff/diff.js";
import { buildModel } from "../../generator/generate.js";
import type { MethodModel, RevisionModel } from "../../generator/model/types.js";
import { methodOverlay } from "../../generator/overlay/methods.js";
import { pinnedRevisions, pinnedSource } from "../helpers.js";

const models = new Map<string, RevisionModel>(pinnedRevisions.map((r) => [r, buildModel(pinnedSource(r))]));

function revision(name: string): RevisionModel {
  return models.get(name)!;
}

function method(rev: string, name: string): MethodModel {
  const found = revision(rev).methods.find((m) => m.name === name);
  if (!found) throw new Error(`${rev} has no ${name}`);
  return found;
}

function has(rev: string, name: string): boolean {
  return revision(rev).methods.some((m) => m.name === name);
}

const summary = (m: MethodModel) => ({
  kind: m.kind,
  direction: m.direction,
  result: m.result?.name,
  capability: m.capability ? `${m.capability.holder}:${m.capability.path.join(".")}` : undefined,
});

describe("2024-11-05", () => {
  test("has initialize, ping and sampling/createMessage, and no elicitation/create (basic/lifecycle, basic/utilities/ping, client/sampling)", () => {
    expect(summary(method("2024-11-05", "initialize"))).toEqual({
      kind: "request",
      direction: "client-to-server",
      result: "InitializeResult",
      capability: undefined,
    });
    // "The ping functionality ... either party can send"
    expect(summary(method("2024-11-05", "ping"))).toEqual({
      kind: "request",
      direction: "both",
      result: "EmptyResult",
      capability: undefined,
    });
    expect(summary(method("2024-11-05", "sampling/createMessage"))).toEqual({
      kind: "request",
      direction: "server-to-client",
      result: "CreateMessageResult",
      capability: "client:sampling",
    });
    expect(has("2024-11-05", "elicitation/create")).toBe(false);
    expect(has("2024-11-05", "notifications/initialized")).toBe(true);
  });

  test("completion/complete needs no capability: `completions` arrives in 2025-03-26 (2025-03-26/changelog)", () => {
    expect(method("2024-11-05", "completion/complete").capability).toBeUndefined();
    expect(method("2025-03-26", "completion/complete").capability).toEqual({ holder: "server", path: ["completions"] });
  });

  test("a stateful lifecycle, no batching", () => {
    expect(revision("2024-11-05").facts).toMatchObject({
      protocolVersion: "2024-11-05",
      lifecycle: "initialize",
      batching: false,
    });
  });
});

describe("JSON-RPC batching: added in 2025-03-26, removed in 2025-06-18 (changelogs)", () => {
  test.each([
    ["2024-11-05", false],
    ["2025-03-26", true],
    ["2025-06-18", false],
    ["2025-11-25", false],
    ["2026-07-28", false],
  ])("%s batching = %s", (rev, batching) => {
    expect(revision(rev).facts.batching).toBe(batching);
  });
});

describe("2025-11-25 tasks (basic/utilities/tasks#result-retrieval): a task-augmented tools/call answers CreateTaskResult", () => {
  test("the overlay adds it to tools/call's result in 2025-11-25 only; the method's own result stays CallToolResult", () => {
    const result = method("2025-11-25", "tools/call").result!;
    expect(result.name).toBe("CallToolResult");
    expect(result.type).toEqual({
      kind: "union",
      members: [
        { kind: "reference", name: "CallToolResult" },
        { kind: "reference", name: "CreateTaskResult" },
      ],
    });
    expect(method("2025-06-18", "tools/call").result!.type).toEqual({ kind: "reference", name: "CallToolResult" });
    expect(method("2026-07-28", "tools/call").result!.type).not.toMatchObject({
      members: expect.arrayContaining([{ kind: "reference", name: "CreateTaskResult" }]),
    });
  });
});

describe("extensions are negotiable from 2026-07-28 (basic/index#extensions: capabilities.extensions)", () => {
  test.each([
    ["2025-11-25", false],
    ["2026-07-28", true],
    ["draft", true],
  ])("%s extensions = %s", (rev, extensions) => {
    expect(revision(rev).facts.extensions).toBe(extensions);
  });
});

describe("2025-06-18", () => {
  test("adds elicitation/create, sent by servers, needing the client's elicitation capability (2025-06-18/changelog 6, client/elicitation)", () => {
    expect(has("2025-03-26", "elicitation/create")).toBe(false);
    expect(summary(method("2025-06-18", "elicitation/create"))).toEqual({
      kind: "request",
      direction: "server-to-client",
      result: "ElicitResult",
      capability: "client:elicitation",
    });
  });
});

describe("2025-11-25", () => {
  test("tasks can be sent by either side and need the receiver's tasks capability (basic/utilities/tasks#capabilities)", () => {
    expect(summary(method("2025-11-25", "tasks/get"))).toEqual({
      kind: "request",
      direction: "both",
      result: "GetTaskResult",
      capability: "receiver:tasks",
    });
    expect(summary(method("2025-11-25", "tasks/list"))).toEqual({
      kind: "request",
      direction: "both",
      result: "ListTasksResult",
      capability: "receiver:tasks.list",
    });
    expect(summary(method("2025-11-25", "tasks/cancel"))).toEqual({
      kind: "request",
      direction: "both",
      result: "CancelTaskResult",
      capability: "receiver:tasks.cancel",
    });
    expect(method("2025-11-25", "tasks/result").result?.name).toBe("GetTaskPayloadResult");
  });

  test("URL mode elicitation brings notifications/elicitation/complete from the server (client/elicitation)", () => {
    expect(summary(method("2025-11-25", "notifications/elicitation/complete"))).toEqual({
      kind: "notification",
      direction: "server-to-client",
      result: undefined,
      capability: "client:elicitation.url",
    });
  });
});

describe("2026-07-28", () => {
  test("has server/discover and subscriptions/listen (changelog 3, 4)", () => {
    expect(summary(method("2026-07-28", "server/discover"))).toEqual({
      kind: "request",
      direction: "client-to-server",
      result: "DiscoverResult",
      capability: undefined,
    });
    expect(summary(method("2026-07-28", "subscriptions/listen"))).toEqual({
      kind: "request",
      direction: "client-to-server",
      result: "SubscriptionsListenResult",
      capability: undefined,
    });
  });

  test("has no initialize handshake, no ping, logging/setLevel, resources/subscribe or roots list_changed (changelog 2, 4, 5)", () => {
    for (const gone of [
      "initialize",
      "notifications/initialized",
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "resources/unsubscribe",
      "notifications/roots/list_changed",
    ]) {
      expect(has("2025-11-25", gone), gone).toBe(true);
      expect(has("2026-07-28", gone), gone).toBe(false);
    }
    expect(revision("2026-07-28").facts.lifecycle).toBe("per-request");
    expect(revision("2025-11-25").facts.lifecycle).toBe("initialize");
  });

  test("sampling, elicitation and roots travel only inside InputRequiredResult (changelog 7)", () => {
    for (const name of ["sampling/createMessage", "elicitation/create", "roots/list"]) {
      expect(method("2026-07-28", name)).toMatchObject({
        kind: "request",
        direction: "server-to-client",
        inputRequest: true,
      });
      expect(method("2025-11-25", name).inputRequest).toBe(false);
    }
    expect(revision("2026-07-28").facts.inputRequests).toBe("InputRequest");
  });

  test("client requests may be answered with InputRequiredResult (changelog 7, basic/patterns/mrtr)", () => {
    const result = method("2026-07-28", "tools/call").result!;
    expect(result.name).toBe("CallToolResult");
    expect(result.response).toBe("CallToolResultResponse");
    expect(result.type).toEqual({
      kind: "union",
      members: [
        { kind: "reference", name: "CallToolResult" },
        { kind: "reference", name: "InputRequiredResult" },
      ],
    });
  });

  test("tasks moved out of the core (changelog 6)", () => {
    expect(revision("2026-07-28").methods.filter((m) => m.name.startsWith("tasks/"))).toEqual([]);
  });
});

describe("draft", () => {
  // Whatever upstream's draft is today: its method table differs from 2026-07-28's exactly where `mcpgen diff` says.
  test("differs from 2026-07-28 in the methods the diff names, and only those", () => {
    const row = (m: MethodModel) => JSON.stringify({ ...summary(m), inputRequest: m.inputRequest });
    const rows = (rev: string) => new Map(revision(rev).methods.map((m) => [m.name, row(m)]));
    const [before, after] = [rows("2026-07-28"), rows("draft")];
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((n) => before.get(n) !== after.get(n));
    const named = diffRevisions(revision("2026-07-28"), revision("draft"))
      .entries.filter((e) => e.area === "methods")
      .map((e) => e.subject);
    expect([...new Set(named)].sort()).toEqual(changed.sort());
  });
});

describe("every pinned revision", () => {
  test.each(pinnedRevisions)("%s: every request has a result and the model has no diagnostics", (rev) => {
    const model = revision(rev);
    expect(model.diagnostics).toEqual([]);
    expect(model.methods.filter((m) => m.kind === "request" && !m.result).map((m) => m.name)).toEqual([]);
  });

  test.each(pinnedRevisions)(
    "%s: tools/call needs the server's tools capability; notifications/cancelled may go both ways",
    (rev) => {
      expect(method(rev, "tools/call").capability).toEqual({ holder: "server", path: ["tools"] });
      expect(method(rev, "notifications/cancelled").direction).toBe("both");
    },
  );
});

describe("the overlay", () => {
  test("every entry cites the prose and is used by at least one pinned revision", () => {
    const all = [...methodOverlay.results, ...methodOverlay.capabilities, ...methodOverlay.revisions];
    for (const entry of all) expect(entry.cite.trim(), JSON.stringify(entry)).not.toBe("");
    for (const rule of methodOverlay.results) {
      const used = [...models.values()].some((m) =>
        m.methods.some((x) => x.name === rule.method && x.result?.source === "overlay"),
      );
      expect(used, rule.method).toBe(true);
    }
    for (const rule of methodOverlay.capabilities) {
      const used = [...models.values()].some((m) =>
        m.methods.some((x) => x.name === rule.method && x.capability?.path.join(".") === rule.path),
      );
      expect(used, rule.method).toBe(true);
    }
  });

  test("naming a method, type or capability a pinned revision lacks stops its generation", () => {
    const source = pinnedSource("2025-06-18");
    const withBogusMethod = {
      ...methodOverlay,
      capabilities: [
        ...methodOverlay.capabilities,
        { method: "tools/frobnicate", holder: "server" as const, path: "tools", cite: "test" },
      ],
    };
    expect(() => buildModel(source, withBogusMethod)).toThrow(
      "error E_OVERLAY_UNKNOWN_METHOD: overlay capability entry names tools/frobnicate, which this revision does not have",
    );
    const withBogusType = {
      ...methodOverlay,
      results: methodOverlay.results.map((r) => (r.method === "ping" ? { ...r, result: "PingResult" } : r)),
    };
    expect(() => buildModel(source, withBogusType)).toThrow(
      "error E_OVERLAY_UNKNOWN_TYPE: overlay gives ping the result PingResult, which this revision does not declare",
    );
    const withBogusCapability = {
      ...methodOverlay,
      capabilities: methodOverlay.capabilities.map((c) => (c.method === "tools/call" ? { ...c, path: "tool" } : c)),
    };
    expect(() => buildModel(source, withBogusCapability)).toThrow(
      "error E_OVERLAY_UNKNOWN_CAPABILITY: overlay gives tools/call the capability tool, which ServerCapabilities does not declare in this revision",
    );
  });

  test("removing a result entry leaves a request without a result, which stops generation", () => {
    const withoutPing = { ...methodOverlay, results: methodOverlay.results.filter((r) => r.method !== "ping") };
    expect(() => buildModel(pinnedSource("2024-11-05"), withoutPing)).toThrow(
      "error E_NO_RESULT: request ping (PingRequest) has no result",
    );
  });
});
