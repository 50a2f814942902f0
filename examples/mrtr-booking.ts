// A tool that needs the user's input, written once for both eras. On a
// 2026-07-28 (per-request) client the first call answers InputRequiredResult
// with the questions and a signed requestState; the client's retry, carrying
// the answers, runs the handler again. On a 2025 (handshake) client the same
// calls are server-to-client requests. Run: node dist/examples/mrtr-booking.js
import { McpServer } from "mcpgen/server";
import { serveStdio } from "mcpgen/stdio";

const server = new McpServer({ name: "bookings", version: "1.0.0" });

// The awaitable style: each awaited input is asked for in order. On a
// per-request client the handler runs again from the top on each retry, so
// what comes before an `await context.elicit(...)` must be safe to repeat.
server.tool(
  "book_table",
  {
    description: "Books a table after asking for the party size and a confirmation",
    inputSchema: { type: "object", properties: { restaurant: { type: "string" } }, required: ["restaurant"] },
  },
  async ({ restaurant }, context) => {
    const size = await context.elicit({
      mode: "form",
      message: `How many people for ${restaurant}?`,
      requestedSchema: {
        type: "object",
        properties: { people: { type: "integer", minimum: 1 } },
        required: ["people"],
      },
    });
    if (size.action !== "accept") return "No booking made.";
    const people = Number(size.content?.["people"]);
    const confirm = await context.elicit({
      mode: "form",
      message: `Book ${restaurant} for ${people}?`,
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    return confirm.action === "accept" && confirm.content?.["ok"] === true
      ? `Booked ${restaurant} for ${people}.`
      : "No booking made.";
  },
);

// The explicit style: read what was answered, ask for what is missing, carry
// state between rounds. requestState is signed but readable by the client:
// never put a secret in it.
server.tool(
  "cancel_booking",
  {
    description: "Cancels a booking once the user confirms",
    inputSchema: { type: "object", properties: { booking: { type: "string" } }, required: ["booking"] },
  },
  ({ booking }, context) => {
    const answer = context.inputResponses["confirm"] as { action?: string } | undefined;
    if (!answer)
      return context.inputRequired(
        {
          confirm: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: `Cancel booking ${booking}?`,
              requestedSchema: { type: "object", properties: {} },
            },
          },
        },
        { asked: Date.now() },
      );
    return answer.action === "accept" ? `Cancelled ${booking}.` : `Kept ${booking}.`;
  },
);

serveStdio(server);
