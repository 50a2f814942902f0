// `mcpgen validate`, in-process, against the compiled revisions in dist/ and, with
// --schema, a revision generated from a schema.ts.
import { readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../generator/cli/main.js";
import { captureIo, pinnedSource, tempDir } from "../helpers.js";

/** A recorded 2025-06-18 stdio session, both directions, with some damage. */
const capture = [
  `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{}},"clientInfo":{"name":"c","version":"1"}}}`,
  `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`,
  `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
  ``,
  `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
  `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`,
  `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
  `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":5}]}}`,
  `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"missing"}}`,
  `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: missing"}}`,
  `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":"half"}}`,
  `{"jsonrpc":"2.0","id":4,"method":"tools/list"`,
  `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`,
].join("\n");

async function validate(args: string[], stdin?: string) {
  const io = captureIo({ cwd: tempDir(), ...(stdin !== undefined ? { stdin } : {}) });
  const code = await main(["validate", ...args], io);
  return { code, out: io.out, err: io.err };
}

describe("mcpgen validate", () => {
  test("a JSONL capture: one verdict per message, responses checked against their request's result, exit 1", async () => {
    const { code, out, err } = await validate(["--rev", "2025-06-18", "-"], capture);
    expect(out.split("\n")).toEqual([
      "line 1: valid request initialize (InitializeRequest)",
      "line 2: valid result of initialize (InitializeResult)",
      "line 3: valid notification notifications/initialized (InitializedNotification)",
      "line 5: valid request tools/list (ListToolsRequest)",
      "line 6: valid result of tools/list (ListToolsResult)",
      "line 7: valid request tools/call (CallToolRequest)",
      "line 8: invalid result of tools/call (CallToolResult): /result/content/0/text: must be string [type]",
      "line 9: valid request tools/call (CallToolRequest)",
      "line 10: valid error of tools/call (JSONRPCError)",
      "line 11: invalid notification notifications/progress (ProgressNotification): /params/progress: must be number [type]",
      'line 12: invalid JSON at 12:46: expected "," or "}", found end of input',
      "line 13: invalid message: /: a JSON-RPC batch (array) is not allowed in revision 2025-06-18 [jsonrpc]",
      "",
    ]);
    expect(err).toBe("12 message(s) checked against revision 2025-06-18: 8 valid, 4 invalid\n");
    expect(code).toBe(1);
  });

  test("a clean capture exits 0; the same batch line is valid in 2025-03-26", async () => {
    const { code, out } = await validate(
      ["--rev", "2025-03-26", "-", "--quiet"],
      `{"jsonrpc":"2.0","id":5,"method":"ping"}\n[{"jsonrpc":"2.0","id":6,"method":"ping"}]\n`,
    );
    expect(out).toBe("line 1: valid request ping (PingRequest)\nline 2: valid batch\n");
    expect(code).toBe(0);
  });

  test("one pretty-printed message from a file", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "message.json"),
      `\n{\n  "jsonrpc": "2.0",\n  "id": "a",\n  "method": "resources/read",\n  "params": { "uri": 7 }\n}\n`,
    );
    const io = captureIo({ cwd: dir });
    expect(await main(["validate", "--rev", "2025-11-25", "message.json"], io)).toBe(1);
    expect(io.out).toBe(
      "line 2: invalid request resources/read (ReadResourceRequest): /params/uri: must be string [type]\n",
    );
  });

  test("a malformed document gets the line and column of the fault", async () => {
    const { code, out } = await validate(
      ["--rev", "2025-11-25", "-"],
      `{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": ping\n}\n`,
    );
    expect(out).toBe('line 4: invalid JSON at 4:13: unexpected character "p"\n');
    expect(code).toBe(1);
  });

  test("--type checks every message as that type", async () => {
    const { code, out } = await validate(
      ["--rev", "2026-07-28", "--type", "Tool", "-"],
      `{"name":"a","inputSchema":{"type":"object"}}\n{"name":"b"}\n`,
    );
    expect(out).toBe("line 1: valid Tool\nline 2: invalid Tool: /inputSchema: is required [required]\n");
    expect(code).toBe(1);
  });

  test("--json prints the verdicts as data", async () => {
    const { out } = await validate(
      ["--rev", "2026-07-28", "--json", "-"],
      `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{}}}`,
    );
    expect(JSON.parse(out)).toEqual([
      {
        line: 1,
        valid: false,
        kind: "request",
        method: "server/discover",
        type: "DiscoverRequest",
        errors: [
          {
            path: "/params/_meta/io.modelcontextprotocol~1protocolVersion",
            keyword: "required",
            message: "is required",
          },
        ],
      },
    ]);
  });

  test("bad input: unknown revision, unknown type, missing file", async () => {
    expect(await validate(["--rev", "1999-01-01", "-"], "{}")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^mcpgen: revision "1999-01-01" is not generated/),
    });
    expect(await validate(["--rev", "2025-06-18", "--type", "Nope", "-"], "{}")).toEqual({
      code: 2,
      out: "",
      err: 'mcpgen: unknown type "Nope": revision 2025-06-18 has no such type\n',
    });
    expect(await validate(["--rev", "2025-06-18", "absent.jsonl"])).toEqual({
      code: 2,
      out: "",
      err: "mcpgen: cannot read absent.jsonl: no such file\n",
    });
    expect((await validate(["-"], "{}")).err).toMatch(/^mcpgen: required option '--rev <name>' not specified/);
  });

  test("--schema: messages checked against a revision generated from a schema.ts on the spot, nothing left behind", async () => {
    // The latest pinned revision with one request more: a method no revision of the runtime package has.
    const dir = tempDir();
    writeFileSync(
      join(dir, "schema.ts"),
      `${pinnedSource("2026-07-28").text.replace("export type ClientRequest =\n", "export type ClientRequest =\n  | FrobnicateRequest\n")}
export interface FrobnicateRequestParams extends RequestParams { widget: string }
export interface FrobnicateRequest extends JSONRPCRequest { method: "widgets/frobnicate"; params: FrobnicateRequestParams }
export interface FrobnicateResult extends Result { n: number }
`,
    );
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2027-01-01",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const request = (id: number, params: object) =>
      JSON.stringify({ jsonrpc: "2.0", id, method: "widgets/frobnicate", params: { ...params, _meta: meta } });
    const capture = `${request(1, { widget: "w" })}\n${request(2, { widget: 5 })}\n`;
    const tmp = () => readdirSync(tmpdir()).filter((name) => name.startsWith("mcpgen-validate-"));
    const leftBefore = tmp();

    const io = captureIo({ cwd: dir, stdin: capture });
    expect(await main(["validate", "--schema", "schema.ts", "--rev", "2027-01-01", "-"], io)).toBe(1);
    expect(io.out).toBe(
      [
        "line 1: valid request widgets/frobnicate (FrobnicateRequest)",
        "line 2: invalid request widgets/frobnicate (FrobnicateRequest): /params/widget: must be string [type]",
        "",
      ].join("\n"),
    );
    expect(io.err).toBe("2 message(s) checked against revision 2027-01-01: 1 valid, 1 invalid\n");
    expect(tmp()).toEqual(leftBefore);
    // The runtime package knows no such method: it is the schema that was read.
    const pinned = await validate(["--rev", "2026-07-28", "-"], request(1, { widget: "w" }));
    expect(pinned.out).toMatch(/^line 1: invalid request widgets\/frobnicate/);
  }, 60_000);

  test("--schema: a schema error is reported at its file:line:col, exit 2", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "schema.ts"), "export interface Broken {\n  other: = 1;\n}\n");
    const io = captureIo({ cwd: dir, stdin: "{}" });
    expect(await main(["validate", "--schema", "schema.ts", "--rev", "x", "-"], io)).toBe(2);
    expect(io.err).toMatch(/^schema\.ts:2:10: error E_SYNTAX: /);
    const missing = captureIo({ cwd: dir, stdin: "{}" });
    expect(await main(["validate", "--schema", "nowhere.ts", "--rev", "x", "-"], missing)).toBe(2);
    expect(missing.err).toBe("mcpgen: cannot read schema nowhere.ts: no such file\n");
  });
});
