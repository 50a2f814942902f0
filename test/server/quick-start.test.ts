// The README's five-minute server runs as written: the README shows
// examples/quick-start.ts verbatim, and the official SDK clients of both eras
// use it: v1 (initialize, 2025-11-25) and v2 pinned to 2026-07-28 (per-request).
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

test("the README shows examples/quick-start.ts verbatim", () => {
  const readme = readFileSync(`${root}/README.md`, "utf8");
  const source = readFileSync(`${root}/examples/quick-start.ts`, "utf8");
  expect(readme).toContain("```ts\n" + source + "```");
});

const server = { command: process.execPath, args: [`${root}/dist/examples/quick-start.js`], stderr: "pipe" as const };

for (const era of ["handshake (SDK v1)", "per-request (SDK v2 pinned to 2026-07-28)"]) {
  test(`the quick-start server answers the official SDK client: ${era}`, async () => {
    const client = era.startsWith("handshake")
      ? new Client({ name: "readme-reader", version: "1.0.0" })
      : (new ClientV2(
          { name: "readme-reader", version: "2.0.0" },
          { versionNegotiation: { mode: { pin: "2026-07-28" } } },
        ) as unknown as Client);
    await client.connect(
      era.startsWith("handshake") ? new StdioClientTransport(server) : (new StdioV2(server) as never),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["get_forecast"]);
      const forecast = await client.callTool({ name: "get_forecast", arguments: { city: "Oslo" } });
      expect(forecast.content).toEqual([{ type: "text", text: "Oslo: sunny for the next 3 days" }]);
      const tooLong = await client.callTool({ name: "get_forecast", arguments: { city: "Oslo", days: 30 } });
      expect(tooLong.isError).toBe(true);
      const cities = await client.readResource({ uri: "weather://cities" });
      expect(cities.contents[0]).toMatchObject({ text: '["Lisbon","Oslo","Tokyo"]', mimeType: "application/json" });
      const prompt = await client.getPrompt({ name: "plan_trip", arguments: { city: "Lisbon" } });
      expect(prompt.messages[0]?.content).toEqual({
        type: "text",
        text: "Plan a weekend in Lisbon around the forecast.",
      });
    } finally {
      await client.close();
    }
  }, 60_000);
}
