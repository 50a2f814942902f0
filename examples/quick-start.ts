import { McpServer } from "mcpgen/server";
import { serveStdio } from "mcpgen/stdio";

const server = new McpServer({ name: "weather", version: "1.0.0" });

server.tool(
  "get_forecast",
  {
    description: "The weather forecast for a city",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer", minimum: 1, maximum: 7 },
      },
      required: ["city"],
    },
  },
  // city: string, days: number | undefined, typed from the inputSchema
  async ({ city, days = 3 }, context) => {
    context.log("info", `forecast for ${city}`);
    return `${city}: sunny for the next ${days} days`;
  },
);

server.resource("weather://cities", { name: "cities", mimeType: "application/json" }, () =>
  JSON.stringify(["Lisbon", "Oslo", "Tokyo"]),
);

server.prompt(
  "plan_trip",
  { arguments: [{ name: "city", required: true }] },
  ({ city }) => `Plan a weekend in ${city} around the forecast.`,
);

serveStdio(server);
