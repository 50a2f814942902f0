// The name given to a revision the lock does not pin changes nothing about it:
// each pinned schema generated under another name has the same facts and method
// table as under its own, and `mcpgen diff` finds nothing between them; states
// of upstream's history get the same facts under their commit date and under a
// name after every pinned revision. The era-dependent facts of those states are
// checked against the prose they follow (basic/lifecycle, server/resources).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { diffRevisions } from "../../generator/diff/diff.js";
import { buildRevisionModel } from "../../generator/model/build.js";
import type { RevisionModel } from "../../generator/model/types.js";
import { methodOverlay } from "../../generator/overlay/methods.js";
import { parseSchema } from "../../generator/parse/parse-schema.js";
import { captureIo, pinnedRevisions, pinnedSource, projectRoot } from "../helpers.js";

const history = join(projectRoot, "..", "shared", "mcp-spec", "history", "draft");

/** A later date, a date between two releases, and a name that is no date. */
const otherNames = ["2027-01-01", "2026-01-01", "next"];

function build(text: string, file: string, revision: string, locked: boolean): RevisionModel {
  return buildRevisionModel(parseSchema({ file, text }), {
    revision,
    source: { file, sha256: "0".repeat(64), locked },
    overlay: methodOverlay,
  });
}

const method = (m: RevisionModel, name: string) => m.methods.find((x) => x.name === name);

/** What a model says about its revision, without the name it was given. */
const facts = (m: RevisionModel) => ({ facts: m.facts, methods: m.methods, guesses: m.guesses ?? [] });

describe("a pinned schema under another name", () => {
  test.each(pinnedRevisions)("%s: the same facts, method table and no diff under every other name", (revision) => {
    const source = pinnedSource(revision);
    const parsed = parseSchema({ file: source.file, text: source.text });
    const pinned = buildRevisionModel(parsed, {
      revision,
      source: { file: source.file, sha256: source.sha256, locked: true },
      overlay: methodOverlay,
    });
    expect(pinned.diagnostics).toEqual([]);
    for (const name of otherNames) {
      const unseen = buildRevisionModel(parsed, {
        revision: name,
        source: { file: source.file, sha256: source.sha256, locked: false },
        overlay: methodOverlay,
      });
      expect(unseen.diagnostics, name).toEqual([]);
      expect(facts(unseen), name).toEqual(facts(pinned));
      expect(diffRevisions(pinned, unseen).entries, name).toEqual([]);
    }
  });

  const unpinned = (revision: string, name: string) => {
    const source = pinnedSource(revision);
    return build(source.text, source.file, name, false);
  };

  test("the 2024-11-05 schema as 2027-01-01 keeps the empty results, -32002 and the pre-handshake rule (basic/utilities/ping, basic/lifecycle#initialization, server/resources#error-handling)", () => {
    const m = unpinned("2024-11-05", "2027-01-01");
    for (const name of ["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"])
      expect(method(m, name)?.result?.name, name).toBe("EmptyResult");
    expect(m.facts.lifecycle).toBe("initialize");
    expect(m.facts.errorCodes).toEqual({ resourceNotFound: -32002 });
    expect(m.facts.beforeInitialized).toEqual({ client: ["ping"], server: ["notifications/message", "ping"] });
  });

  test.each(["2025-12-31", "2026-01-01", "2026-07-27"])(
    "the per-request draft named %s, between two releases, keeps its input requests (changelog#major-changes 7)",
    (name) => {
      const m = unpinned("draft", name);
      expect(m.facts).toMatchObject({ lifecycle: "per-request", inputRequests: "InputRequest" });
      expect(m.facts.errorCodes).toEqual({ resourceNotFound: -32602 });
      for (const request of ["sampling/createMessage", "elicitation/create", "roots/list"])
        expect(method(m, request), request).toMatchObject({ inputRequest: true, direction: "server-to-client" });
    },
  );

  test("mcpgen diff of the 2025-06-18 schema, given as 2027-01-01, against the pinned 2025-06-18 is empty", async () => {
    const io = captureIo();
    const schema = join(projectRoot, "spec", "2025-06-18", "schema.ts");
    expect(await main(["diff", "2025-06-18", "2027-01-01", "--schema", schema], io)).toBe(0);
    expect(io.out).toBe("2025-06-18 → 2027-01-01: no differences\n");
  });
});

describe("states of upstream's history, under their commit date and under `next`", () => {
  const state = (name: string) => {
    const file = join(history, `${name}.ts`);
    const text = readFileSync(file, "utf8");
    const date = name.slice(0, 10);
    const [dated, next] = [build(text, file, date, false), build(text, file, "next", false)];
    expect(facts(next)).toEqual(facts(dated));
    expect(next.diagnostics).toEqual(dated.diagnostics);
    expect(diffRevisions(dated, next).entries).toEqual([]);
    return dated;
  };

  test("2025-01: the initialize era, its pre-handshake rule, ping's empty result, -32002 (basic/lifecycle, server/resources#error-handling)", () => {
    const m = state("2025-01-17-51feed15");
    expect(m.facts.lifecycle).toBe("initialize");
    expect(m.facts.beforeInitialized).toEqual({ client: ["ping"], server: ["notifications/message", "ping"] });
    expect(m.facts.errorCodes).toEqual({ resourceNotFound: -32002 });
    expect(method(m, "ping")?.result?.name).toBe("EmptyResult");
    expect(method(m, "logging/setLevel")?.capability).toEqual({ holder: "server", path: ["logging"] });
    expect(m.guesses).toBeUndefined();
  });

  test("the 2025-06-18 release tag as 2027-01-01 against the pinned 2025-06-18: no method differs (both are the same protocol)", () => {
    const file = join(history, "2025-06-18-f5ccad94.ts");
    const tag = build(readFileSync(file, "utf8"), file, "2027-01-01", false);
    const source = pinnedSource("2025-06-18");
    const pinned = build(source.text, source.file, "2025-06-18", true);
    const entries = diffRevisions(pinned, tag).entries;
    expect(entries.filter((e) => e.area === "methods" || e.guess)).toEqual([]);
    expect(entries.filter((e) => e.area === "envelope").map((e) => e.aspect)).toEqual(["protocolVersion"]);
  });

  test("2025-05-08: sampling/createMessage and roots/list are the server's requests, with the client's capabilities", () => {
    const m = state("2025-05-08-03dc24b3");
    expect(method(m, "sampling/createMessage")).toMatchObject({
      direction: "server-to-client",
      capability: { holder: "client", path: ["sampling"] },
    });
    expect(method(m, "roots/list")?.capability).toEqual({ holder: "client", path: ["roots"] });
    expect(m.methods.filter((x) => x.kind === "request" && !x.result)).toEqual([]);
  });

  test("2025-11 with tasks: the tasks capabilities and tools/call answering CreateTaskResult (basic/utilities/tasks)", () => {
    const m = state("2025-11-14-5fa3143a");
    expect(method(m, "tasks/get")?.capability).toEqual({ holder: "receiver", path: ["tasks"] });
    const result = method(m, "tools/call")?.result?.type;
    expect(result?.kind === "union" && result.members).toContainEqual({ kind: "reference", name: "CreateTaskResult" });
  });

  test("2026 per-request: no handshake, input requests inside InputRequiredResult, -32602 (changelog#major-changes)", () => {
    const m = state("2026-06-29-93671a3f");
    expect(m.facts.lifecycle).toBe("per-request");
    expect(m.facts.inputRequests).toBe("InputRequest");
    expect(m.facts.errorCodes).toEqual({ resourceNotFound: -32602 });
    expect(m.facts.beforeInitialized).toBeUndefined();
    for (const name of ["sampling/createMessage", "elicitation/create", "roots/list"])
      expect(method(m, name), name).toMatchObject({ inputRequest: true, direction: "server-to-client" });
    // Under a date between the two releases, too.
    const file = join(history, "2026-06-29-93671a3f.ts");
    const between = build(readFileSync(file, "utf8"), file, "2026-01-01", false);
    expect(facts(between)).toEqual(facts(m));
  });

  test("2026 per-request with tasks still in the core schema: the initialize-era tasks entries are a reported guess", () => {
    const m = state("2026-05-11-8e192a22");
    expect(m.facts.lifecycle).toBe("per-request");
    expect(method(m, "tasks/get")?.capability).toBeUndefined();
    expect(m.guesses?.map((g) => g.entry)).toContain("capabilities[tasks/get]");
    expect(m.diagnostics.filter((d) => d.code === "E_OVERLAY_GUESS").map((d) => d.message)).toContain(
      "a guess (generator/overlay/methods.ts capabilities[tasks/get]): capabilities[tasks/get] not applied: this schema has everything it names, but it was written for the initialize era and this schema is of the per-request era",
    );
  });
});
