// The HTTP floor: node:http that parses each POSTed JSON-RPC message and echoes
// an answer (initialize a minimal result, tools/call its text back). No
// validation, no sessions, no protocol: what HTTP costs by itself.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const result =
      message.method === "initialize"
        ? {
            protocolVersion: message.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "floor", version: "1" },
          }
        : { content: [{ type: "text", text: message.params.arguments.text }] };
    response
      .writeHead(200, { "Content-Type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`));
