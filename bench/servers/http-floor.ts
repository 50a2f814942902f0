// The HTTP floor: node:http that parses each POSTed JSON-RPC message and echoes
// an answer. No validation, no sessions, no protocol: what HTTP costs by itself.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { floorAnswer } from "./echo-floor.js";

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (message.id === undefined) {
      response.writeHead(202, { "Content-Length": 0 }).end();
      return;
    }
    // With its length, as mcpgen answers: headers written without one make node:http chunk the body.
    const json = floorAnswer(message);
    response
      .writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) })
      .end(json);
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`));
