// The server runtime's parts on their own: RFC 6570 templates, cursors,
// schema-typed arguments, capability derivation and registration checks.
import { describe, expect, expectTypeOf, test } from "vitest";
import { McpServer, UriTemplate, type FromSchema } from "../../runtime/server/index.js";
import { paginate } from "../../runtime/server/features/pagination.js";

describe("URI templates (RFC 6570)", () => {
  // Expansion cases from RFC 6570 §3.2 (level 1-4), with the variables it uses.
  const variables = {
    var: "value",
    hello: "Hello World!",
    path: "/foo/bar",
    list: ["red", "green", "blue"],
    x: "1024",
    y: "768",
    empty: "",
  };
  test.each([
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["{#path}", "#/foo/bar"],
    ["map?{x,y}", "map?1024,768"],
    ["X{.var}", "X.value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{var:3}", "val"],
    ["{list}", "red,green,blue"],
    ["{list*}", "red,green,blue"],
    ["{/list*}", "/red/green/blue"],
    ["{?list*}", "?list=red&list=green&list=blue"],
    ["{undefined}", ""],
  ])("%s expands to %s", (template, expected) => {
    expect(new UriTemplate(template).expand(variables)).toBe(expected);
  });

  test.each([
    ["file:///{+path}", "file:///docs/a%20b.md", { path: "docs/a b.md" }],
    ["note:///{title}", "note:///my%2Fnote", { title: "my/note" }],
    ["users/{id}/posts{/post}", "users/7/posts/3", { id: "7", post: "3" }],
    ["users/{id}/posts{/post}", "users/7/posts", { id: "7" }],
    ["search{?q,lang}", "search?lang=en&q=mcp%20spec", { q: "mcp spec", lang: "en" }],
    ["tags{?tag*}", "tags?tag=a&tag=b", { tag: ["a", "b"] }],
    ["repo/{owner}/{name}{#section}", "repo/mcp/spec#intro", { owner: "mcp", name: "spec", section: "intro" }],
    ["img/{name}{.ext}", "img/logo.png", { name: "logo", ext: "png" }],
  ])("%s matches %s", (template, uri, expected) => {
    expect(new UriTemplate(template).match(uri)).toEqual(expected);
  });

  test("a URI that does not fit gives undefined", () => {
    expect(new UriTemplate("note:///{title}").match("note:///a/b")).toBeUndefined();
    expect(new UriTemplate("note:///{title}").match("file:///a")).toBeUndefined();
  });

  test("variable names in order, and malformed templates refused with where", () => {
    expect(new UriTemplate("{a}/{+b}{?c,a}").variableNames).toEqual(["a", "b", "c"]);
    expect(() => new UriTemplate("file:///{path")).toThrow('unclosed "{" at offset 8 in URI template "file:///{path"');
    expect(() => new UriTemplate("a}")).toThrow('unmatched "}" at offset 1');
    expect(() => new UriTemplate("{=x}")).toThrow('reserved operator "="');
    expect(() => new UriTemplate("{a b}")).toThrow('invalid variable name "a b"');
    expect(() => new UriTemplate("{x:0}")).toThrow("invalid prefix modifier");
  });
});

describe("cursors", () => {
  const items = Array.from({ length: 7 }, (_, i) => i);
  test("pages cover the list once, in order", () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = paginate(items, cursor, 3);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(items);
  });
  test("a forged cursor is -32602; a stale one past the end gives an empty page", () => {
    expect(() => paginate(items, "bogus", 3)).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => paginate(items, btoa("mcpgen:-1"), 3)).toThrow('Invalid cursor: "bWNwZ2VuOi0x"');
    expect(paginate(items, btoa("mcpgen:100"), 3)).toEqual({ items: [] });
  });
});

test("tool arguments are typed from the input schema", () => {
  const schema = {
    type: "object",
    properties: {
      title: { type: "string" },
      count: { type: "integer" },
      tags: { type: "array", items: { type: "string" } },
      mode: { enum: ["a", "b"] },
      nested: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    },
    required: ["title"],
  } as const;
  expectTypeOf<FromSchema<typeof schema>>().toEqualTypeOf<{
    title: string;
    count?: number;
    tags?: string[];
    mode?: "a" | "b";
    nested?: { ok: boolean };
  }>();
  const server = new McpServer({ name: "t", version: "1" }, { logger: () => {} });
  server.tool("typed", { inputSchema: schema }, (args) => {
    expectTypeOf(args.title).toEqualTypeOf<string>();
    expectTypeOf(args.count).toEqualTypeOf<number | undefined>();
    return args.title;
  });
  server.prompt("p", { arguments: [{ name: "must", required: true }, { name: "may" }] }, (args) => {
    expectTypeOf(args).toEqualTypeOf<{ must: string } & { may?: string }>();
    return args.must;
  });
});

describe("registration", () => {
  const server = () => new McpServer({ name: "t", version: "1" }, { logger: () => {} });

  test("tool names follow server/tools#tool-names", () => {
    const s = server();
    for (const good of ["getUser", "DATA_EXPORT_v2", "admin.tools.list", "a-b", "x".repeat(128)])
      s.tool(good, {}, () => "");
    for (const bad of ["", "has space", "comma,", "x".repeat(129), "ünïcode"])
      expect(() => s.tool(bad, {}, () => "")).toThrow(/invalid tool name .* \(server\/tools#tool-names\)/);
    expect(() => s.tool("getUser", {}, () => "")).toThrow('a tool named "getUser" is already registered');
  });

  test("definitions are checked against the handler revision's schema", () => {
    const s = server();
    expect(() => s.tool("t", { inputSchema: { type: "array" } as never }, () => "")).toThrow(
      'tool t: /inputSchema/type must be "object" (schema type Tool)',
    );
    expect(() =>
      s.tool("u", { inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" } }, () => ""),
    ).toThrow(
      "tool u: inputSchema uses JSON Schema dialect http://json-schema.org/draft-04/schema#; supported are 2020-12 (the default) and draft-07",
    );
    expect(() => s.resource("r://x", { name: 5 } as never, () => "")).toThrow("resource r://x: /name must be string");
    expect(() => s.resourceTemplate("r://{x", { name: "x" }, () => "")).toThrow("unclosed");
    expect(() => s.resourceTemplate("r://{x}", { name: "x", complete: { y: () => [] } }, () => "")).toThrow(
      "resource template r://{x}: cannot complete y, which it does not have",
    );
    expect(() => s.prompt("p", { arguments: [{ name: "a" }], complete: { b: () => [] } as never }, () => "")).toThrow(
      "prompt p: cannot complete b, which it does not have",
    );
  });

  test("capabilities follow what is registered; leaves are {} or true as ServerCapabilities types them", () => {
    const s = server();
    expect(s.capabilities()).toEqual({ logging: {} });
    s.tool("t", {}, () => "");
    expect(s.capabilities()).toEqual({ logging: {}, tools: { listChanged: true } });
    s.resource("r://x", { name: "x" }, () => "");
    s.prompt("p", { arguments: [{ name: "a" }], complete: { a: () => [] } }, () => "");
    expect(s.capabilities()).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    const declared = new McpServer(
      { name: "t", version: "1" },
      { listChanged: false, capabilities: { tools: {}, experimental: { x: {} } } },
    );
    expect(declared.capabilities()).toEqual({ logging: {}, tools: {}, experimental: { x: {} } });
  });
});

describe("tool schemas (2026-07-28 basic/index#json-schema-usage)", () => {
  const register = (inputSchema: Record<string, unknown>) => () =>
    new McpServer({ name: "s", version: "1" }, { logger: () => {} }).tool(
      "t",
      { inputSchema: { type: "object", ...inputSchema } as never },
      () => "",
    );

  test("any 2020-12 keyword and local $ref are accepted; a property may be named like a keyword", () => {
    expect(
      register({
        $defs: { a: { $anchor: "A", type: "string" } },
        properties: { const: { $ref: "#/$defs/a" }, enum: { $ref: "#A" } },
        allOf: [{ anyOf: [{ required: ["const"] }, { required: ["enum"] }] }],
        if: { required: ["const"] },
        then: { required: ["enum"] },
        unevaluatedProperties: false,
      }),
    ).not.toThrow();
  });

  test("an external $ref is refused at registration, never fetched", () => {
    expect(register({ properties: { a: { $ref: "https://example.com/schema.json" } } })).toThrow(
      /tool t: inputSchema: \$ref "https:\/\/example.com\/schema.json" at \/properties\/a points outside the schema/,
    );
  });

  test("composition is bounded: depth and number of subschemas", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 40; i++) deep = { allOf: [deep] };
    expect(register({ properties: { a: deep } })).toThrow(/nested deeper than 32 levels/);
    const wide = Array.from({ length: 2500 }, (_, i) => ({ const: i }));
    expect(register({ properties: { a: { anyOf: wide } } })).toThrow(/more than 2000 subschemas/);
  });
});
