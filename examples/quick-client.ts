import { fileURLToPath } from "node:url";
import { Client, StdioClientTransport } from "mcpgen/client";

// The quick-start server, compiled beside this file; the client starts it and stops it.
const server = new StdioClientTransport({
  command: process.execPath,
  args: [fileURLToPath(new URL("./quick-start.js", import.meta.url))],
});
const client = await Client.connect(server, { clientInfo: { name: "trip-planner", version: "1.0.0" } });
try {
  console.log(`${client.serverInfo?.name}, revision ${client.revision.name} (${client.era})`);

  const tools = await client.listTools();
  console.log("tools:", tools.map((tool) => tool.name).join(", "));

  const forecast = await client.callTool("get_forecast", { city: "Lisbon", days: 2 });
  for (const block of forecast.content) if (block.type === "text") console.log(block.text);

  const cities = await client.readResource("weather://cities");
  const [contents] = cities.contents;
  if (contents && "text" in contents) console.log("cities:", JSON.parse(contents.text).join(", "));

  const prompt = await client.getPrompt("plan_trip", { city: "Oslo" });
  const [message] = prompt.messages;
  if (message?.content.type === "text") console.log("prompt:", message.content.text);
} finally {
  await client.close(); // closes the server's stdin, then SIGTERM, then SIGKILL if it lingers
}
