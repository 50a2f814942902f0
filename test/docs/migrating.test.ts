// docs/migrating.md, run as written: the official SDK's server and mcpgen's,
// both compiled in a strict nodenext project and started over stdio, give
// mcpgen's client the same answers.
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { Client, StdioClientTransport } from "mcpgen/client";
import { compile, snippet, workFolder } from "./pages.js";

const PAGE = "docs/migrating.md";
let dir: string;

beforeAll(() => {
  dir = workFolder("migrating");
  const files = { "sdk-server.ts": snippet(PAGE, "sdk-server"), "mcpgen-server.ts": snippet(PAGE, "mcpgen-server") };
  expect(compile(dir, files)).toBe("exit 0");
}, 120_000);

/** What a client sees of the weather server started from `file`. */
async function answers(file: string) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(dir, file)] });
  const client = await Client.connect(transport, { revision: "2025-11-25" });
  try {
    return {
      server: client.serverInfo?.name,
      tools: (await client.listTools()).map((tool) => tool.name),
      forecast: (await client.callTool("get_forecast", { city: "Oslo" })).content,
      twoDays: (await client.callTool("get_forecast", { city: "Lisbon", days: 2 })).content,
      tooLong: (await client.callTool("get_forecast", { city: "Oslo", days: 30 })).isError,
      city: (await client.readResource("weather://cities/Oslo")).contents,
      prompt: (await client.getPrompt("plan_trip", { city: "Oslo" })).messages,
    };
  } finally {
    await client.close();
  }
}

test("the official SDK's server and mcpgen's answer alike", async () => {
  const sdk = await answers("sdk-server.js");
  const mcpgen = await answers("mcpgen-server.js");
  expect(mcpgen).toEqual(sdk);
  expect(mcpgen).toEqual({
    server: "weather",
    tools: ["get_forecast"],
    forecast: [{ type: "text", text: "Oslo: sunny for the next 3 days" }],
    twoDays: [{ type: "text", text: "Lisbon: sunny for the next 2 days" }],
    tooLong: true,
    city: [{ uri: "weather://cities/Oslo", mimeType: "text/plain", text: "Oslo: mild" }],
    prompt: [{ role: "user", content: { type: "text", text: "Plan a weekend in Oslo around the forecast." } }],
  });
});
