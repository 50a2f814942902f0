// Tool schemas where the runtime refuses code generation from strings (Cloudflare
// Workers; here Node with --disallow-code-generation-from-strings): ajv cannot
// compile, so schemas are interpreted, and a call still gets its verdict and a
// report naming each problem's JSON pointer, never an internal error.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { childServer, statefulRevisions, type ChildServer } from "./support.js";

const fixture = fileURLToPath(new URL("../../dist/test/fixtures/servers/interpreted-schemas.js", import.meta.url));
const revision = statefulRevisions.at(-1)!;
let server: ChildServer;

beforeAll(async () => {
  server = await childServer(fixture, [], { revision, nodeOptions: ["--disallow-code-generation-from-strings"] });
  await server.client.initialize(revision, {});
});

afterAll(async () => {
  server.child.kill("SIGKILL");
  await server.exited;
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await server.client.request("tools/call", { name, arguments: args }))["result"] as {
    content: { text: string }[];
    isError?: boolean;
  };

test("valid arguments pass, under the subset simple-schema.ts judges and beyond it (oneOf, pattern)", async () => {
  expect((await call("add", { a: 2, b: 3 })).content[0]!.text).toBe("5");
  expect((await call("pick", { choice: 7 })).content[0]!.text).toBe("picked 7");
  expect((await call("pick", { choice: "abc" })).content[0]!.text).toBe("picked abc");
  expect((await call("mail", { to: "not an address" })).content[0]!.text).toBe("to not an address");
});

test("invalid arguments are a tool error naming each problem at its pointer", async () => {
  const wrongType = await call("add", { a: 2, b: "3", c: 1 });
  expect(wrongType.isError).toBe(true);
  expect(wrongType.content[0]!.text).toMatch(/^Invalid arguments for tool add: /);
  expect(wrongType.content[0]!.text).toContain("/b: ");
  expect(wrongType.content[0]!.text).toContain('"c"');
  const missing = await call("add", { a: 2 });
  expect(missing.content[0]!.text).toMatch(/^Invalid arguments for tool add: \(root\): .*"b"/);
  const neither = await call("pick", { choice: "ABC" });
  expect(neither.isError).toBe(true);
  expect(neither.content[0]!.text).toContain("/choice: ");
});
