// The fetch floor: a fetch handler that parses each POSTed JSON-RPC message
// and echoes an answer (what a 2026-07-28 answer minimally carries, as
// http-floor.ts's per-request body). No validation, no protocol: what the
// runtime's Request and Response cost by themselves.
import { floorAnswer } from "./echo-floor.js";
import { bridge } from "./bridges.js";
import { bridgeName, serveFetch } from "./fetch-serve.js";

async function floor(request: Request): Promise<Response> {
  const message = JSON.parse(await request.text());
  if (message.id === undefined) return new Response(null, { status: 202 });
  return new Response(floorAnswer(message), { headers: { "Content-Type": "application/json" } });
}

await serveFetch(floor, () => bridge(bridgeName(), floor));
