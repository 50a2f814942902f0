// Which revisions a startup snapshot's build warms up (runtime/transports/snapshot.ts):
// by default the newest released one of each lifecycle the server serves, read
// from the revision facts; "all"; or the ones named, which must be served. And
// compileToolSchemas, which the build awaits, compiles what the simple checks
// take and rejects a schema ajv refuses, naming the tool.
// In the package tests with the other snapshot tests (the startup snapshot is an opt-in entry).
import { expect, test } from "vitest";
import { McpServer, generatedRevisions } from "../../runtime/server/index.js";
import { warmedRevisions } from "../../runtime/transports/snapshot.js";

const names = (server: McpServer, warm?: readonly string[] | "all") => warmedRevisions(server, warm).map((r) => r.name);

test("by default, the newest released revision of each lifecycle", () => {
  const expected = ["initialize", "per-request"].flatMap((lifecycle) => {
    const released = generatedRevisions.filter((r) => r.lifecycle === lifecycle && r.name === r.protocolVersion);
    return released.length > 0 ? [released.at(-1)!.name] : [];
  });
  expect(expected).toEqual(["2025-11-25", "2026-07-28"]);
  expect(names(new McpServer({ name: "s", version: "1" }))).toEqual(expected);
  // A server of older revisions only: the newest of those.
  expect(names(new McpServer({ name: "s", version: "1" }, { revisions: ["2024-11-05", "2025-03-26"] }))).toEqual([
    "2025-03-26",
  ]);
  // Only the draft of its lifecycle: the draft.
  expect(names(new McpServer({ name: "s", version: "1" }, { revisions: ["2025-06-18", "draft"] }))).toEqual([
    "2025-06-18",
    "draft",
  ]);
});

test('"all", or the revisions named, which the server must serve', () => {
  const server = new McpServer({ name: "s", version: "1" }, { revisions: ["2025-06-18", "2025-11-25", "2026-07-28"] });
  expect(names(server, "all")).toEqual(["2025-06-18", "2025-11-25", "2026-07-28"]);
  expect(names(server, ["2026-07-28", "2025-06-18"])).toEqual(["2025-06-18", "2026-07-28"]);
  expect(() => names(server, ["2024-11-05", "2025-11-25"])).toThrow(
    "warm: the server does not serve 2024-11-05 (it serves 2025-06-18, 2025-11-25, 2026-07-28)",
  );
});

test("compileToolSchemas compiles every tool's schemas and names a tool whose schema ajv refuses", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  server.tool("fine", { inputSchema: { type: "object", properties: { a: { type: "string" } } } }, () => "");
  await expect(server.compileToolSchemas()).resolves.toBeUndefined();
  server.tool(
    "broken",
    { inputSchema: { type: "object", properties: { a: { type: "string", pattern: "(" } } } },
    () => "",
  );
  await expect(server.compileToolSchemas()).rejects.toThrow("tool broken has an invalid inputSchema");
});
